import Foundation
import XCTest

@testable import CalDAVClient

/// The parts of the client that need no server: hashing and Digest answers against the RFCs'
/// own examples, .netrc, Retry-After and backoff, credentials' precedence.
final class CalDAVClientTests: XCTestCase {
    func testMD5MatchesRFC1321TestSuite() {
        XCTAssertEqual(MD5.hex(""), "d41d8cd98f00b204e9800998ecf8427e")
        XCTAssertEqual(MD5.hex("abc"), "900150983cd24fb0d6963f7d28e17f72")
        XCTAssertEqual(MD5.hex("message digest"), "f96b697d7cb7938d525a2f31aaf161d0")
        XCTAssertEqual(
            MD5.hex("12345678901234567890123456789012345678901234567890123456789012345678901234567890"), "57edf4a22be3c955ac49da2e2107b67a")
    }

    /// RFC 7616 §3.9.1: the MD5 example's challenge and its expected response.
    func testDigestAnswersRFC7616Example() throws {
        let challenge = try XCTUnwrap(
            DigestChallenge(
                header: #"Digest realm="http-auth@example.org", qop="auth, auth-int", algorithm=MD5, nonce="7ypf/xlj9XXwfDPEoM4URrv/xwf94BcCAzFZH4GiTo0v", opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#
            ))
        let header = challenge.authorization(
            method: "GET", uri: "/dir/index.html", user: "Mufasa", password: "Circle of Life",
            clientNonce: "f2/wE4q74E6zIJEtWaHKaf5wv/H5QzzpXusqGemxURZJ")
        XCTAssertTrue(header.contains(#"response="8ca523f5e9506fed4657c9700eebdbec""#), header)
        XCTAssertTrue(header.contains("nc=00000001"), header)
        XCTAssertTrue(header.contains(#"opaque="FQhe/qaU925kfnzjCev0ciny7QMkPqMAFRtzCUYo5tdS""#), header)
        XCTAssertNil(DigestChallenge(header: #"Digest realm="r", nonce="n", algorithm=SHA-256"#), "an algorithm calport cannot answer")
        XCTAssertNil(DigestChallenge(header: #"Basic realm="r""#))
    }

    func testNetrcMachineThenDefault() {
        let netrc = NetrcFile(text: "machine cal.example.org\n  login ana\n  password s3cret\ndefault login anon password guest\n")
        XCTAssertEqual(netrc.credentials(host: "CAL.example.org"), .password(user: "ana", password: "s3cret"))
        XCTAssertEqual(netrc.credentials(host: "other.example.org"), .password(user: "anon", password: "guest"))
    }

    func testCredentialsPrecedenceAndURLWarning() {
        let url = URL(string: "https://bo:pw@cal.example.org/dav/")!
        var warnings: [String] = []
        XCTAssertEqual(
            CalDAVCredentials.resolve(url: url, environment: ["CALPORT_TOKEN": "t0k", "CALPORT_USERNAME": "x"], netrcPath: "/nonexistent") {
                warnings.append($0)
            }, .bearer("t0k"))
        XCTAssertEqual(
            CalDAVCredentials.resolve(url: url, environment: [:], netrcPath: "/nonexistent") { warnings.append($0) },
            .password(user: "bo", password: "pw"))
        XCTAssertEqual(warnings.count, 1)
        XCTAssertFalse(warnings[0].contains("pw"))
        XCTAssertEqual(url.redacted, "https://cal.example.org/dav/")
        XCTAssertFalse(CalDAVCredentials.password(user: "bo", password: "pw").description.contains("pw"))
    }

    func testRetryAfterIsHonoredAndBackoffDoublesWithinBounds() {
        let policy = RetryPolicy(retries: 5, baseDelay: 1, maximumDelay: 20)
        XCTAssertEqual(policy.delay(attempt: 0, retryAfter: "3"), 3)
        XCTAssertEqual(policy.delay(attempt: 0, retryAfter: "3600"), 20, "Retry-After is bounded")
        for attempt in 0..<4 {
            let d = policy.delay(attempt: attempt, retryAfter: nil)
            XCTAssertTrue((0.75 * pow(2, Double(attempt)))...(1.25 * pow(2, Double(attempt))) ~= d, "\(attempt): \(d)")
        }
        XCTAssertEqual(policy.delay(attempt: 10, retryAfter: nil), 20)
        XCTAssertTrue(HTTPTransport.isRetryable(503) && HTTPTransport.isRetryable(429) && HTTPTransport.isRetryable(502))
        XCTAssertFalse(HTTPTransport.isRetryable(404) || HTTPTransport.isRetryable(412) || HTTPTransport.isRetryable(501))
    }
}
