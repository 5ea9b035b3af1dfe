extension RecurrenceRule {
    /// The calendar systems an RFC 7529 RSCALE may name and calport expands (CLDR's names, as ICU
    /// spells them), the Gregorian one first.
    public static let calendarScales: [String] = [
        "gregorian", "buddhist", "chinese", "coptic", "dangi", "ethiopic", "ethiopic-amete-alem", "hebrew", "indian",
        "islamic", "islamic-civil", "islamic-tbla", "islamic-umalqura", "japanese", "persian", "roc",
    ]

    /// RFC 7529 §5: CLDR's aliases and deprecated names, with the calendar each stands for.
    private static let calendarScaleAliases: [String: String] = [
        "gregory": "gregorian", "iso8601": "gregorian", "ethioaa": "ethiopic-amete-alem", "islamicc": "islamic-civil",
    ]

    /// The CLDR name (lower case, aliases resolved) of an RSCALE value, which RFC 7529 reads
    /// case-insensitively; nil for a name that is none of `calendarScales`.
    public static func calendarScaleIdentifier(_ rscale: String) -> String? {
        let lower = rscale.lowercased()
        let name = calendarScaleAliases[lower] ?? lower
        return calendarScales.contains(name) ? name : nil
    }

    /// Whether the rule counts in a calendar other than the Gregorian one (RFC 7529 RSCALE): its
    /// instances cannot be written as a plain RFC 5545 rule.
    public var hasNonGregorianScale: Bool {
        guard let scale else { return false }
        return RecurrenceRule.calendarScaleIdentifier(scale) != "gregorian"
    }
}
