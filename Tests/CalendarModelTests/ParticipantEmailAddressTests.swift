import CalendarModel
import XCTest

/// `Participant.emailAddress` decides most addresses on their ASCII bytes; it must say what
/// lower-casing the whole address and looking for `mailto:` says, for every kind of address.
final class ParticipantEmailAddressTests: XCTestCase {
    func testTheByteCheckAgreesWithLowerCasing() {
        let urls = [
            "mailto:ana@example.com", "MAILTO:Ana@Example.com", "MailTo:x", "mailto:", "mailto", "mail", "", "m",
            "mailto:é@example.com", "mailtó:x", "MAİLTO:x", "mailto:\u{301}x", "mailto\u{301}:x", "http://example.com",
            "urn:uuid:1", "mailto:a\u{301}", "ＭＡＩＬＴＯ:x", "mailto:x\r\n", "\u{FEFF}mailto:x", "mailtox:y",
        ]
        for url in urls {
            let expected = url.lowercased().hasPrefix("mailto:") ? String(url.dropFirst(7)) : nil
            XCTAssertEqual(Participant(url: url).emailAddress, expected, url.debugDescription)
        }
        XCTAssertEqual(Participant(url: "mailto:a@b", email: "c@d").emailAddress, "c@d")
    }
}
