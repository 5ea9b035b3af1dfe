import ExchangeData
import XCTest

/// The plain text EWS and Graph readers give DESCRIPTION from an HTML body: what a browser
/// shows, line by line.
final class ExchangeHTMLBodyTests: XCTestCase {
    func testOutlooksHTMLBodyBecomesTheTextABrowserShows() {
        let html = """
            <html><head><meta http-equiv="Content-Type" content="text/html; charset=utf-8"><style>p {margin: 0}</style>
            <title>ignored</title></head><body><div>Agenda:&nbsp;Q3 &amp; Q4</div>
            <ul><li>Budget</li><li>Hiring &#8211; two   roles</li></ul><p>See&#x20;you<br>Jane</p><!-- a comment --></body></html>
            """
        XCTAssertEqual(ExchangeHTMLBody.plainText(html), "Agenda: Q3 & Q4\nBudget\nHiring – two roles\nSee you\nJane")
    }

    func testUnknownEntitiesAndAStrayAmpersandStayAsWritten() {
        XCTAssertEqual(ExchangeHTMLBody.plainText("<p>R&D &bogus; 5 &lt; 6</p>"), "R&D &bogus; 5 < 6")
    }

    func testBlankLinesCollapseAndNoneAtEitherEnd() {
        XCTAssertEqual(ExchangeHTMLBody.plainText("<p></p><br><br><div>a</div><br><br><br><div>b</div><br>"), "a\n\nb")
    }
}
