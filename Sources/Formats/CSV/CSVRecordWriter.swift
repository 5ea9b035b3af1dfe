import CalendarModel

/// Writes CSV records: CRLF line ends (RFC 4180 §2.1, and what Outlook and Excel expect), quotes
/// only where a cell needs them, an optional UTF-8 byte-order mark so Excel reads the file as
/// UTF-8, and cells that a spreadsheet would run as a formula neutralised.
struct CSVRecordWriter {
    /// The characters that make a spreadsheet treat a cell as a formula (OWASP "CSV injection").
    static let formulaStarts: Set<UInt8> = [UInt8(ascii: "="), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "@")]
    /// What neutralises a formula cell: an apostrophe, which spreadsheets show as text and the
    /// reader removes again.
    static let formulaGuard = UInt8(ascii: "'")

    private let sink: ByteSink
    private let delimiter: UInt8
    private var buffer: [UInt8] = []
    private var wroteBOM = false
    private let bom: Bool

    init(sink: ByteSink, delimiter: UInt8 = UInt8(ascii: ","), bom: Bool) {
        self.sink = sink
        self.delimiter = delimiter
        self.bom = bom
        buffer.reserveCapacity(64 * 1024)
    }

    /// Appends one record and flushes when enough has gathered.
    mutating func write(_ cells: [String]) throws {
        if bom && !wroteBOM {
            buffer.append(contentsOf: [0xEF, 0xBB, 0xBF])
            wroteBOM = true
        }
        for (index, cell) in cells.enumerated() {
            if index > 0 { buffer.append(delimiter) }
            append(cell)
        }
        buffer.append(contentsOf: [0x0D, 0x0A])
        if buffer.count >= 60 * 1024 { try flush() }
    }

    /// Writes what is buffered to the sink.
    mutating func flush() throws {
        if bom && !wroteBOM {
            buffer.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: 0)
            wroteBOM = true
        }
        guard !buffer.isEmpty else { return }
        try sink.write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }

    private mutating func append(_ cell: String) {
        var cell = cell
        cell.withUTF8 { append(bytes: $0) }
    }

    private mutating func append(bytes: UnsafeBufferPointer<UInt8>) {
        // Guarded cells (`'=x`) get one more guard too, so reading removes exactly one and gives
        // back what was written.
        let guarded = Self.looksLikeFormula(bytes)
        let needsQuotes = bytes.contains { $0 == delimiter || $0 == 0x22 || $0 == 0x0D || $0 == 0x0A }
            || (!guarded && bytes.first == 0x20) || bytes.last == 0x20
        if needsQuotes { buffer.append(0x22) }
        if guarded { buffer.append(Self.formulaGuard) }
        guard needsQuotes else {
            buffer.append(contentsOf: bytes)
            return
        }
        var rest = bytes[...]
        while let quote = rest.firstIndex(of: 0x22) {
            buffer.append(contentsOf: rest[...quote])
            buffer.append(0x22)
            rest = rest[(quote + 1)...]
        }
        buffer.append(contentsOf: rest)
        buffer.append(0x22)
    }

    /// Whether a cell, after any apostrophes, starts with a formula character.
    private static func looksLikeFormula<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool {
        guard let first = bytes.first(where: { $0 != formulaGuard }) else { return false }
        return formulaStarts.contains(first)
    }

    /// Undoes the formula guard on a cell read back: `'=x` → `=x`, `''=x` → `'=x`; other cells
    /// are left alone.
    static func removingFormulaGuard(_ text: String) -> String {
        guard text.utf8.first == formulaGuard, looksLikeFormula(text.utf8.dropFirst()) else { return text }
        return String(decoding: text.utf8.dropFirst(), as: UTF8.self)
    }
}
