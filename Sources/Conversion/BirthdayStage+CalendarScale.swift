import CalendarModel
import Recurrence

extension BirthdayStage {
    /// The yearly rule of a birthday kept on a lunar or other calendar (`--birthday-calendar`):
    /// the day of birth in that calendar (e.g. the 15th of the 8th Chinese month), every year,
    /// with what to do when a year lacks it written out (RFC 7529 SKIP): a leap month of birth
    /// or a 30th day falls back to the regular month and the 29th in the Chinese, Dangi and
    /// Islamic calendars (BACKWARD, the custom there); in the Hebrew calendar, to Adar and the
    /// next day (FORWARD, as bar mitzvah dates are set). Nil when the year of birth is unknown
    /// (no lunar date can be known) or the calendar cannot place the day.
    static func scaledRule(for birthday: Birthday, calendar scaleName: String) -> RecurrenceRule? {
        guard let year = birthday.year, let scale = try? CalendarScale.forRSCALE(scaleName) else { return nil }
        let day = CalendarDate(year: year, month: birthday.month, day: birthday.day).daysSinceEpoch
        guard let position = scale.position(ofDay: day), let layout = scale.year(position.year) else { return nil }
        let month = layout.months[position.monthIndex]
        return RecurrenceRule(
            frequency: .yearly, daysOfTheMonth: [position.day], months: [.init(month.number, isLeap: month.isLeap)],
            scale: scale.identifier.uppercased(), skip: scale.identifier == "hebrew" ? "FORWARD" : "BACKWARD")
    }
}
