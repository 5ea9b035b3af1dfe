import Foundation

/// An HTTP Digest challenge (RFC 7616) and the answer to it, for servers that refuse Basic.
/// MD5 and MD5-sess with `qop=auth` (what Digest servers offer in practice); a challenge for
/// another algorithm is not taken, so the request fails as refused (exit 77) rather than
/// sending something the server cannot check.
struct DigestChallenge: Sendable, Equatable {
    var realm: String
    var nonce: String
    var opaque: String?
    var algorithm: String
    var qop: String?
    private let clientCounter = Counter()

    /// Reads a `WWW-Authenticate` header; nil when it is not a Digest challenge calport can answer.
    init?(header: String) {
        let trimmed = header.trimmingCharacters(in: .whitespaces)
        guard trimmed.lowercased().hasPrefix("digest ") else { return nil }
        var fields: [String: String] = [:]
        var rest = Substring(trimmed.dropFirst(7))
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "," }
            guard let equals = rest.firstIndex(of: "=") else { break }
            let name = rest[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            rest = rest[rest.index(after: equals)...]
            var value = ""
            if rest.first == "\"" {
                rest = rest.dropFirst()
                while let c = rest.first, c != "\"" {
                    if c == "\\" { rest = rest.dropFirst() }
                    if let d = rest.first { value.append(d) }
                    rest = rest.dropFirst()
                }
                rest = rest.dropFirst()
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                value = rest[..<end].trimmingCharacters(in: .whitespaces)
                rest = rest[end...]
            }
            fields[name] = value
        }
        guard let realm = fields["realm"], let nonce = fields["nonce"] else { return nil }
        let algorithm = (fields["algorithm"] ?? "MD5").uppercased()
        guard algorithm == "MD5" || algorithm == "MD5-SESS" else { return nil }
        self.realm = realm
        self.nonce = nonce
        self.opaque = fields["opaque"]
        self.algorithm = algorithm
        if let offered = fields["qop"] {
            let options = offered.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            guard options.contains("auth") else { return nil }
            qop = "auth"
        }
    }

    static func == (a: DigestChallenge, b: DigestChallenge) -> Bool {
        a.realm == b.realm && a.nonce == b.nonce && a.opaque == b.opaque && a.algorithm == b.algorithm && a.qop == b.qop
    }

    /// The `Authorization` header for one request (RFC 7616 §3.4), with a fresh client nonce.
    func authorization(method: String, uri: String, user: String, password: String, clientNonce: String? = nil) -> String {
        let cnonce = clientNonce ?? String(format: "%016llx", UInt64.random(in: 0...UInt64.max))
        let count = String(format: "%08x", clientCounter.next())
        var ha1 = MD5.hex("\(user):\(realm):\(password)")
        if algorithm == "MD5-SESS" { ha1 = MD5.hex("\(ha1):\(nonce):\(cnonce)") }
        let ha2 = MD5.hex("\(method):\(uri)")
        let response = qop == nil ? MD5.hex("\(ha1):\(nonce):\(ha2)") : MD5.hex("\(ha1):\(nonce):\(count):\(cnonce):auth:\(ha2)")
        var parts = [
            "username=\"\(user)\"", "realm=\"\(realm)\"", "nonce=\"\(nonce)\"", "uri=\"\(uri)\"", "response=\"\(response)\"",
            "algorithm=\(algorithm == "MD5-SESS" ? "MD5-sess" : "MD5")",
        ]
        if qop != nil { parts += ["qop=auth", "nc=\(count)", "cnonce=\"\(cnonce)\""] }
        if let opaque { parts.append("opaque=\"\(opaque)\"") }
        return "Digest " + parts.joined(separator: ", ")
    }

    /// The nonce count (`nc`), shared by the requests that answer one challenge.
    final class Counter: @unchecked Sendable {
        private let lock = NSLock()
        private var value: UInt32 = 0

        func next() -> UInt32 {
            lock.lock()
            defer { lock.unlock() }
            value &+= 1
            return value
        }
    }
}
