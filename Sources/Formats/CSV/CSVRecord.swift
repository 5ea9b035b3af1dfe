/// One record of a CSV file: its cells as UTF-8 bytes and the lines it spans.
struct CSVRecord {
    var fields: [[UInt8]]
    /// The 1-based physical line the record starts on.
    var line: Int
    /// The 1-based record number (the header is record 1).
    var row: Int
    /// A quote that closed in the middle of a cell (`"a"b`), kept literally; worth a warning.
    var strayQuoteColumn: Int?
}

extension CSVRecord {
    /// Windows-1252's characters for bytes 0x80–0x9F (the rest of the high half is Latin-1).
    private static let windows1252: [UInt32] = [
        0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x8D, 0x017D, 0x8F,
        0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
    ]

    /// A cell's text. Cells that are not UTF-8 are read as Windows-1252, the code page of
    /// Outlook's "Comma Separated Values" export on western systems; `wasRecoded` says so.
    static func text(_ bytes: [UInt8]) -> (text: String, wasRecoded: Bool) {
        if let text = String(validating: bytes, as: UTF8.self) { return (text, false) }
        var scalars = String.UnicodeScalarView()
        for b in bytes {
            let value = b >= 0x80 && b < 0xA0 ? windows1252[Int(b) - 0x80] : UInt32(b)
            scalars.append(Unicode.Scalar(value)!)
        }
        return (String(scalars), true)
    }
}
