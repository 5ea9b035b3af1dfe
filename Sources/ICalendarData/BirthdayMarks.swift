import CalendarModel

/// How birthday events say what they are, vendor by vendor, in the iCalendar properties the
/// model keeps for every item. No standard exists, so each exporter marks them its own way:
///
/// - Nextcloud's contacts birthday calendar: `X-NEXTCLOUD-BC-FIELD-TYPE` (BDAY, ANNIVERSARY,
///   DEATHDATE), `X-NEXTCLOUD-BC-UNKNOWN-YEAR:1` when the card has no year,
///   `X-NEXTCLOUD-BC-YEAR` with the real year; the UID is the card's UID plus `-anniversary`
///   or `-death` for those dates.
/// - sabre/vobject's birthday generator (Baïkal and other sabre/dav servers):
///   `X-SABRE-BDAY;X-SABRE-VCARD-UID=…;X-SABRE-OMIT-YEAR=…:BDAY`.
/// - Google Calendar's contacts birthdays: UIDs `BIRTHDAY_<contact>@google.com` and
///   `<year>_BIRTHDAY_<contact>@google.com`, and a cake icon in
///   `X-GOOGLE-CALENDAR-CONTENT-ICON`.
/// - Apple Calendar's Birthdays calendar: the event URL `addressbook://<person>`, and
///   `X-APPLE-OMIT-YEAR` (Apple writes year 1604 for a card without a year).
/// - A vCard truncated date (`--MMDD`, RFC 6350 §4.3.1) as DTSTART: a date without a year.
public enum BirthdayMarks {
    /// The vendor property names that mark birthday events; a writer that finds none of them
    /// on an item with birthday facts adds its own (see `marks(for:)`).
    public static let propertyNames: Set<String> = [
        "X-NEXTCLOUD-BC-FIELD-TYPE", "X-NEXTCLOUD-BC-UNKNOWN-YEAR", "X-NEXTCLOUD-BC-YEAR", "X-SABRE-BDAY",
        "X-APPLE-OMIT-YEAR",
    ]

    /// Producers (PRODID) whose calendars are birthday calendars whatever their events say:
    /// Nextcloud's birthday service writes every object of its contacts' birthday calendar so.
    public static let birthdayProducers: Set<String> = ["-//IDN nextcloud.com//Birthday calendar//EN"]

    /// Apple's placeholder year for a card without a year (a leap year, so Feb 29 survives).
    public static let applePlaceholderYear = 1604

    /// The birthday an event's marks describe; nil when it has none.
    public static func birthday(of event: Event) -> Birthday? {
        guard mightBeMarked(event.item) else { return nil }
        let item = event.item
        let start = startDate(of: item)
        func property(_ name: String) -> Property? { item.properties.first { $0.name == name } }

        if let field = property("X-NEXTCLOUD-BC-FIELD-TYPE").flatMap({ text($0.value) }), let start = start?.date {
            let occasion: Birthday.Occasion
            let postfix: String
            switch field.uppercased() {
            case "ANNIVERSARY": (occasion, postfix) = (.anniversary, "-anniversary")
            case "DEATHDATE": (occasion, postfix) = (.deathDate, "-death")
            default: (occasion, postfix) = (.birthday, "")
            }
            var contact = item.uid
            if let uid = item.uid, !postfix.isEmpty, uid.hasSuffix(postfix) { contact = String(uid.dropLast(postfix.count)) }
            let unknownYear = property("X-NEXTCLOUD-BC-UNKNOWN-YEAR").flatMap { text($0.value) } == "1"
            let statedYear = property("X-NEXTCLOUD-BC-YEAR").flatMap { text($0.value) }.flatMap { Int($0) }
            return Birthday(
                occasion: occasion, contactIdentifier: contact, month: start.month, day: start.day,
                year: unknownYear ? nil : statedYear ?? (start.year == 0 ? nil : start.year))
        }

        if let sabre = property("X-SABRE-BDAY"), let start = start?.date {
            let occasion: Birthday.Occasion
            switch text(sabre.value)?.uppercased() {
            case "ANNIVERSARY": occasion = .anniversary
            case "DEATHDATE": occasion = .deathDate
            default: occasion = .birthday
            }
            let omitted = sabre.parameter("X-SABRE-OMIT-YEAR") != nil
            return Birthday(
                occasion: occasion, contactIdentifier: sabre.parameter("X-SABRE-VCARD-UID")?.value, month: start.month,
                day: start.day, year: omitted ? nil : start.year)
        }

        if let start = start?.date, let contact = googleContact(uid: item.uid) ?? (hasGoogleCakeIcon(item) ? "" : nil) {
            // Google's export states the year of each occurrence, never the birth year.
            return Birthday(contactIdentifier: contact.isEmpty ? nil : contact, month: start.month, day: start.day)
        }

        let appleContact = item.url.flatMap(appleContact(url:))
        let omitYear = property("X-APPLE-OMIT-YEAR").flatMap { text($0.value) } ?? startParameter(item, "X-APPLE-OMIT-YEAR")
        if let start = start?.date, appleContact != nil || omitYear != nil {
            let noYear = omitYear.map { Int($0) == start.year || Int($0) == nil } ?? false
            return Birthday(
                contactIdentifier: appleContact, month: start.month, day: start.day,
                year: noYear || start.year == applePlaceholderYear ? nil : start.year)
        }

        if let (month, day) = truncatedStart(of: item) {
            return Birthday(contactIdentifier: appleContact, month: month, day: day)
        }
        return nil
    }

    /// Whether anything on the item could be a mark. Every event of every conversion is asked,
    /// and nearly none is a birthday: one look at each field is cheaper than the vendor checks.
    static func mightBeMarked(_ item: CalendarItem) -> Bool {
        // A vCard truncated date (`--MMDD`) is no DATE, so it leaves the start empty.
        if item.start == nil { return true }
        if let uid = item.uid, uid.utf8.count > 11, uid.utf8.suffix(11).elementsEqual("@google.com".utf8) { return true }
        if let url = item.url, hasAddressBookScheme(url) { return true }
        if !item.propertyParameters.isEmpty, startParameter(item, "X-APPLE-OMIT-YEAR") != nil { return true }
        // By index and name only: a closure over the properties would copy each one.
        for i in item.properties.indices {
            // Every mark is X-NEXTCLOUD-…, X-SABRE-…, X-APPLE-… or X-GOOGLE-…: two bytes
            // rule out most properties before a name is hashed.
            let name = item.properties[i].name
            var bytes = name.utf8.makeIterator()
            guard bytes.next() == UInt8(ascii: "X"), bytes.next() == UInt8(ascii: "-") else { continue }
            switch bytes.next() {
            case UInt8(ascii: "N"), UInt8(ascii: "S"), UInt8(ascii: "A"), UInt8(ascii: "G"):
                if propertyNames.contains(name) || name == "X-GOOGLE-CALENDAR-CONTENT-ICON" { return true }
            default:
                continue
            }
        }
        return false
    }

    /// Whether an item carries any vendor's birthday mark, so a writer need not add one.
    public static func hasMarks(_ item: CalendarItem) -> Bool {
        item.properties.contains { propertyNames.contains($0.name) } || googleContact(uid: item.uid) != nil
            || item.url.flatMap(appleContact(url:)) != nil || hasGoogleCakeIcon(item)
    }

    /// The marks a writer adds to a birthday event that has none: sabre/vobject's, the one
    /// vendor form that names the contact and an omitted year without relying on the UID.
    public static func marks(for birthday: Birthday, startYear: Int?) -> [Property] {
        var parameters: [Parameter] = []
        if let contact = birthday.contactIdentifier { parameters.append(Parameter("X-SABRE-VCARD-UID", contact)) }
        if birthday.year == nil { parameters.append(Parameter("X-SABRE-OMIT-YEAR", String(startYear ?? applePlaceholderYear))) }
        let word: String
        switch birthday.occasion {
        case .birthday: word = "BDAY"
        case .anniversary: word = "ANNIVERSARY"
        case .deathDate: word = "DEATHDATE"
        }
        return [Property(name: "X-SABRE-BDAY", parameters: parameters, value: .unknown(type: nil, literal: word))]
    }

    /// The item without any vendor's birthday marks (for plain events made from birthdays).
    public static func removingMarks(from item: CalendarItem) -> CalendarItem {
        var item = item
        item.properties.removeAll {
            propertyNames.contains($0.name) || $0.name == "X-GOOGLE-CALENDAR-CONTENT-ICON" || $0.name == "X-GOOGLE-CALENDAR-CONTENT-DISPLAY"
        }
        if item.url.flatMap(appleContact(url:)) != nil { item.url = nil }
        // Google's UID is itself the mark; the contact keeps the new one stable across runs.
        if let contact = googleContact(uid: item.uid) { item.uid = "\(contact)-birthday@google.com" }
        // Apple puts X-APPLE-OMIT-YEAR on DTSTART, but a copy may carry it on any date.
        for (name, var parameters) in item.propertyParameters where parameters.contains(where: { $0.name == "X-APPLE-OMIT-YEAR" }) {
            parameters.removeAll { $0.name == "X-APPLE-OMIT-YEAR" }
            item.propertyParameters[name] = parameters.isEmpty ? nil : parameters
        }
        return item
    }

    /// The calendar without what made it a birthday calendar (for a writable calendar of plain
    /// events made from birthdays): a birthday producer's PRODID goes, so the writer names
    /// itself, and so do calendar properties carrying a vendor's birthday mark.
    public static func removingMarks(from calendar: Calendar) -> Calendar {
        var calendar = calendar
        if let producer = calendar.productID, birthdayProducers.contains(producer) {
            calendar.productID = nil
            calendar.propertyParameters["PRODID"] = nil
        }
        calendar.properties.removeAll { propertyNames.contains($0.name) }
        return calendar
    }

    /// The contact part of a Google birthday UID (`[YYYY_]BIRTHDAY_<contact>@google.com`).
    public static func googleContact(uid: String?) -> String? {
        guard let uid, uid.hasSuffix("@google.com") else { return nil }
        var local = Substring(uid.dropLast("@google.com".count))
        if local.count > 5, local.prefix(4).allSatisfy(\.isNumber), local.dropFirst(4).first == "_" { local = local.dropFirst(5) }
        guard local.hasPrefix("BIRTHDAY_") else { return nil }
        let contact = local.dropFirst("BIRTHDAY_".count)
        return contact.isEmpty ? nil : String(contact)
    }

    /// The person in Apple's `addressbook://<id>` or `addressbook://<id>:ABPerson` URL.
    public static func appleContact(url: String) -> String? {
        guard hasAddressBookScheme(url) else { return nil }
        var id = Substring(url.dropFirst("addressbook://".count))
        if id.hasSuffix(":ABPerson") { id = id.dropLast(":ABPerson".count) }
        return id.isEmpty ? nil : String(id)
    }

    /// `addressbook://` in any case, without lower-casing the whole URL.
    private static func hasAddressBookScheme(_ url: String) -> Bool {
        let scheme = "addressbook://".utf8
        var i = url.utf8.makeIterator()
        for expected in scheme {
            guard let c = i.next() else { return false }
            let lower = c >= 0x41 && c <= 0x5A ? c | 0x20 : c
            guard lower == expected else { return false }
        }
        return true
    }

    private static func hasGoogleCakeIcon(_ item: CalendarItem) -> Bool {
        item.properties.contains { p in
            guard p.name == "X-GOOGLE-CALENDAR-CONTENT-ICON" else { return false }
            let value: String? = { if case .uri(let u) = p.value { return u } else { return text(p.value) } }()
            return value?.lowercased().contains("cake") ?? false
        }
    }

    private static func startDate(of item: CalendarItem) -> CalendarDateTime? {
        item.start
    }

    private static func startParameter(_ item: CalendarItem, _ name: String) -> String? {
        item.propertyParameters["DTSTART"]?.first { $0.name == name }?.value
    }

    /// Month and day of a DTSTART the reader could not take as a date because it is a vCard
    /// truncated date (`--MMDD` or `--MM-DD`).
    public static func truncatedStart(of item: CalendarItem) -> (month: Int, day: Int)? {
        guard item.start == nil, let p = item.properties.first(where: { $0.name == "DTSTART" }) else { return nil }
        let literal: String
        switch p.value {
        case .unknown(_, let l): literal = l
        case .text(let t) where t.count == 1: literal = t[0]
        default: return nil
        }
        return truncatedDate(literal)
    }

    /// `--MMDD` or `--MM-DD` as month and day; nil for anything else.
    public static func truncatedDate(_ text: String) -> (month: Int, day: Int)? {
        guard text.hasPrefix("--") else { return nil }
        let digits = text.dropFirst(2).filter { $0 != "-" }
        guard digits.count == 4, digits.allSatisfy(\.isASCII), let n = Int(digits) else { return nil }
        let month = n / 100, day = n % 100
        // 2000 is a leap year, so Feb 29 passes.
        guard CalendarDate(year: 2000, month: month, day: day).isValid else { return nil }
        return (month, day)
    }

    private static func text(_ value: PropertyValue) -> String? {
        switch value {
        case .text(let t) where t.count == 1: t[0]
        case .unknown(_, let literal): literal
        case .integer(let n) where n.count == 1: String(n[0])
        default: nil
        }
    }
}
