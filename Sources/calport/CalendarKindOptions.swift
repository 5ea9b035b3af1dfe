import ArgumentParser
import CalendarModel
import Conversion

/// Options for birthday, subscription and read-only calendars, shared by the commands that write.
struct CalendarKindOptions: ParsableArguments {
    @Option(help: "Birthday calendars: keep them, skip them, or materialize them as plain yearly all-day events.")
    var birthdays: BirthdayHandling = .keep

    @Option(
        name: .customLong("leap-day"),
        help: "February 29 birthdays in common years: feb28, mar1 or skip (default: as the source says; feb28 when materializing).")
    var leapDay: LeapDayRule?

    @Option(
        name: .customLong("birthday-calendar"),
        help:
            "With --birthdays materialize: keep birthdays on this calendar's date of birth (chinese, dangi, hebrew, islamic-umalqura, persian, … any RSCALE calport knows), e.g. the 15th day of the 8th lunar month, every year."
    )
    var birthdayCalendar: String?

    func validate() throws {
        if let birthdayCalendar {
            guard let name = RecurrenceRule.calendarScaleIdentifier(birthdayCalendar), name != "gregorian" else {
                throw ValidationError(
                    "--birthday-calendar \(birthdayCalendar): not a calendar calport knows (\(RecurrenceRule.calendarScales.dropFirst().joined(separator: ", ")))"
                )
            }
            if birthdays != .materialize { throw ValidationError("--birthday-calendar needs --birthdays materialize") }
        }
    }

    @Option(help: "Subscription calendars: keep a copy of their events, skip them, or write a descriptor to subscribe again.")
    var subscriptions: SubscriptionHandling = .keep

    @Flag(help: "Write onto an output calendar even if it does not allow modifications (birthday, subscription).")
    var force = false
}

/// `--map FILE`, shared by every command that reads or prints participant words.
struct VocabularyOptions: ParsableArguments {
    @Option(
        name: .customLong("map"),
        help: ArgumentHelp("A JSON file of participant words to add or override (see `calport formats --vocabulary`).", valueName: "file"))
    var mapFile: String?
}

extension BirthdayHandling: ExpressibleByArgument {}
extension LeapDayRule: ExpressibleByArgument {}
extension SubscriptionHandling: ExpressibleByArgument {}
