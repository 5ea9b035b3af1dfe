/// The Hebrew calendar by its own arithmetic (the molad of Tishri and the four postponements, as
/// in Reingold and Dershowitz's *Calendrical Calculations*), which `CalendarScale` uses instead
/// of ICU's: ICU starts some years a day late (5807 on 2046-10-02, not 10-01).
enum HebrewYears {
    /// Days from the epoch of the count to 1 Tishri of `year`, with the molad and "Lo ADU"
    /// postponements applied.
    private static func elapsedDays(_ year: Int) -> Int {
        let months = RuleEngine.floorDiv(235 * year - 234, 19)
        let parts = 12_084 + 13_753 * months
        let day = months * 29 + RuleEngine.floorDiv(parts, 25_920)
        return RuleEngine.floorMod(3 * (day + 1), 7) < 3 ? day + 1 : day
    }

    /// The postponements that keep years at their allowed lengths ("GaTaRaD", "BeTUTaKPaT").
    private static func yearLengthCorrection(_ year: Int) -> Int {
        let previous = elapsedDays(year - 1)
        let present = elapsedDays(year)
        let next = elapsedDays(year + 1)
        if next - present == 356 { return 2 }
        if present - previous == 382 { return 1 }
        return 0
    }

    /// 1 Tishri 5784 was 2023-09-16, day 19 616 since 1970-01-01: the offset between the count and ours.
    private static let epochOffset = 19_616 - (elapsedDays(5784) + yearLengthCorrection(5784))

    /// 1 Tishri of `year` in days since 1970-01-01.
    static func newYear(_ year: Int) -> Int { elapsedDays(year) + yearLengthCorrection(year) + epochOffset }

    static func isLeap(_ year: Int) -> Bool { RuleEngine.floorMod(7 * year + 1, 19) < 7 }

    /// The months of `year` with RFC 7529 §4.2's labels (Adar I is 5L).
    static func months(ofYear year: Int) -> [CalendarScale.Month] {
        let first = newYear(year)
        let length = newYear(year + 1) - first
        let leap = isLeap(year)
        // Heshvan and Kislev carry a year's length: 29/29 deficient, 29/30 regular, 30/30 complete.
        let kind = length - (leap ? 383 : 353)
        var lengths: [(Int, Bool, Int)] = [
            (1, false, 30), (2, false, kind == 2 ? 30 : 29), (3, false, kind >= 1 ? 30 : 29), (4, false, 29), (5, false, 30),
        ]
        if leap { lengths.append((5, true, 30)) }
        lengths += [(6, false, 29), (7, false, 30), (8, false, 29), (9, false, 30), (10, false, 29), (11, false, 30), (12, false, 29)]
        var day = first
        return lengths.map { number, isLeap, days in
            defer { day += days }
            return CalendarScale.Month(number: number, isLeap: isLeap, firstDay: day, length: days)
        }
    }

    /// The Hebrew year a day falls in, give or take one (for a search to settle).
    static func approximateYear(ofDay day: Int) -> Int {
        5784 + Int((Double(day - 19_616) / 365.2468).rounded(.down))
    }
}
