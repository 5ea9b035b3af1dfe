import Foundation

/// Base64 for BINARY values (RFC 4648), tolerant of the line breaks some producers leave in.
enum Base64 {
    static func decode(_ text: String) -> [UInt8]? {
        let cleaned = text.filter { !$0.isWhitespace }
        return Data(base64Encoded: cleaned).map { [UInt8]($0) }
    }

    static func encode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
    }
}
