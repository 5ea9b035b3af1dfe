import CalendarModel
import Foundation
import XCTest

@testable import CSVFormat

/// The header decides layout and language.
final class CSVHeaderTests: XCTestCase {
    func testEveryOutlookLanguageIsRecognizedWithAllItsColumns() {
        for language in CSVLanguage.allCases {
            let names = CSVVocabulary.outlookHeaders[language]!.map { $0.1[0] }
            let header = CSVHeader.detect(names, preferred: .flat)
            XCTAssertEqual(header?.dialect, .outlook, language.rawValue)
            XCTAssertEqual(header?.language, language, language.rawValue)
            XCTAssertEqual(header?.columns.compactMap { $0 }.count, CSVColumn.allCases.count, language.rawValue)
        }
    }

    func testFrenchRepeatedNamesTakeDateThenTime() {
        let header = CSVHeader.detect(["Objet", "Début", "Début", "Fin", "Fin"], preferred: .outlook)!
        XCTAssertEqual(header.columns, [.subject, .startDate, .startTime, .endDate, .endTime])
    }

    func testGoogleOutlookAndFlatAreToldApart() {
        let google = ["Subject", "Start Date", "Start Time", "End Date", "End Time", "All Day Event", "Description", "Location", "Private"]
        XCTAssertEqual(CSVHeader.detect(google, preferred: .flat)?.dialect, .google)
        // The corpus' Yahoo export: shared columns with Outlook's "All day event" spelling.
        XCTAssertEqual(CSVHeader.detect(["Subject", "Start Date", "Start Time", "End Date", "End Time", "All day event", "Description"], preferred: .google)?.dialect, .outlook)
        // hebcal's: "Show time as" is Outlook's alone.
        XCTAssertEqual(CSVHeader.detect(["Subject", "Start Date", "Show time as"], preferred: .google)?.dialect, .outlook)
        // Neither spelling: the format asked for decides.
        XCTAssertEqual(CSVHeader.detect(["Subject", "Start Date"], preferred: .google)?.dialect, .google)
        XCTAssertEqual(CSVHeader.detect(["Subject", "Start Date"], preferred: .outlook)?.dialect, .outlook)
        XCTAssertEqual(CSVHeader.detect(FlatColumn.allCases.map(\.rawValue), preferred: .outlook)?.dialect, .flat)
        XCTAssertNil(CSVHeader.detect(["Name", "E-mail"], preferred: .flat))
    }

    func testSniffingNeedsACalendarHeader() {
        XCTAssertTrue(CSVFormat(.flat).sniff(Array("\u{FEFF}Betreff;Beginnt am;Beginnt um\r\n".utf8)))
        XCTAssertTrue(CSVFormat(.google).sniff(Array("Subject,Start Date,All Day Event\n".utf8)))
        XCTAssertFalse(CSVFormat(.outlook).sniff(Array("Subject,Start Date,All Day Event\n".utf8)))
        XCTAssertFalse(CSVFormat(.flat).sniff(Array("BEGIN:VCALENDAR\r\n".utf8)))
        XCTAssertFalse(CSVFormat(.flat).sniff(Array("name,email\nx,y\n".utf8)))
    }
}
