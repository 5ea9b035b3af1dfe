import CalendarModel

/// Reads RFC 4180 records from UTF-8 text one at a time: quoted cells with doubled quotes and
/// embedded line breaks, CRLF, LF or CR line ends, and a comma, semicolon or tab delimiter
/// detected from the header line.
///
/// Written here rather than taken from SwiftCSV or CSV.swift (both on this machine): SwiftCSV
/// parses a whole String in memory, and CSV.swift needs the text encoding before it starts and
/// stops at the first malformed record without saying where. calport needs to stream row by row
/// from bytes whose encoding is found from the BOM, to know each record's line for diagnostics,
/// and to recover after an unbalanced quote so that the rows after it are not lost.
final class CSVRecordReader {
    /// What `next()` finds.
    enum Item {
        case record(CSVRecord)
        /// A record that cannot be read; reading resumes on the line after the one it started on.
        case malformed(line: Int, row: Int, column: Int, message: String)
        /// Reading cannot go on: a record longer than `maximumRecordBytes` outside quotes, or
        /// unbalanced quotes that would have the rest read again and again.
        case unreadable(line: Int, message: String)
    }

    /// A quoted cell longer than this is taken for an unbalanced quote: it bounds the memory one
    /// record may hold, and no calendar cell is this long.
    static let maximumRecordBytes = 1 << 20
    /// How much the recoveries from unbalanced quotes may read again, in all.
    static let maximumRescannedBytes = 4 << 20
    private var rescanned = 0

    private let decoder: CSVTextDecoder
    private var buffer: [UInt8] = []
    private var position = 0
    private var exhausted = false
    private var line = 1
    private var row = 0
    /// The delimiter; found from the first line when not given.
    private(set) var delimiter: UInt8?

    init(decoder: CSVTextDecoder, delimiter: UInt8? = nil) {
        self.decoder = decoder
        self.delimiter = delimiter
    }

    /// The text encoding, known once reading has started.
    var encoding: CSVTextDecoder.Encoding? { decoder.encoding }

    /// Appends more text to the buffer; returns false at the end. Indices into the buffer stay
    /// valid: the consumed prefix is dropped only between records (`dropConsumed`).
    private func fill() throws -> Bool {
        if exhausted { return false }
        while true {
            let before = buffer.count
            guard try decoder.read(into: &buffer) else {
                exhausted = true
                return buffer.count > before
            }
            if buffer.count > before { return true }
        }
    }

    /// Drops the records already read once they add up to a chunk, so the buffer holds about one
    /// chunk plus the record being read.
    private func dropConsumed() {
        if position >= 64 * 1024 {
            buffer.removeFirst(position)
            position = 0
        }
    }

    private static let quote = UInt8(ascii: "\""), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")

    /// Detects the delimiter from the header line: whichever of comma, semicolon and tab occurs
    /// most often outside quotes (comma on a tie or when none does).
    private func detectDelimiter() throws {
        let start = position
        var i = position
        var inQuotes = false
        var counts: [UInt8: Int] = [UInt8(ascii: ","): 0, UInt8(ascii: ";"): 0, UInt8(ascii: "\t"): 0]
        scan: while true {
            if i >= buffer.count {
                guard try fill() else { break scan }
                continue
            }
            // The header's record is refused as too long when it is read; no need to look further.
            if i - start > Self.maximumRecordBytes { break scan }
            let c = buffer[i]
            if c == Self.quote {
                inQuotes.toggle()
            } else if !inQuotes {
                if c == Self.cr || c == Self.lf { break scan }
                if counts[c] != nil { counts[c]! += 1 }
            }
            i += 1
        }
        position = start
        let order: [UInt8] = [UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "\t")]
        delimiter = order.max { counts[$0]! < counts[$1]! || (counts[$0]! == counts[$1]! && order.firstIndex(of: $0)! > order.firstIndex(of: $1)!) }
    }

    /// The next record, a malformed record, or nil at the end of the input.
    func next() throws -> Item? {
        if delimiter == nil { try detectDelimiter() }
        let delimiter = self.delimiter!
        while true {
            dropConsumed()
            let recordStart = position
            let startLine = line
            var fields: [[UInt8]] = []
            var field: [UInt8] = []
            var inQuotes = false
            var quoted = false
            var afterClosingQuote = false
            var strayQuoteColumn: Int?
            var sawAnything = false
            var linesInRecord = 0
            var i = position

            func byte(at index: inout Int) throws -> UInt8? {
                while index >= buffer.count {
                    guard try fill() else { return nil }
                }
                return buffer[index]
            }

            while true {
                // A record this long outside quotes (a 1 GB line) would be held whole: refused.
                if !inQuotes && i - recordStart > Self.maximumRecordBytes {
                    let message = "row \(row + 1) is longer than \(Self.maximumRecordBytes >> 20) MiB; no calendar's row is"
                    return .unreadable(line: startLine, message: message)
                }
                guard let c = try byte(at: &i) else {
                    // End of input.
                    if inQuotes {
                        return try unbalanced(recordStart, startLine, column: fields.count + 1, scanned: i - recordStart)
                    }
                    position = i
                    if !sawAnything { return nil }
                    fields.append(field)
                    row += 1
                    line = startLine + linesInRecord + 1
                    return .record(CSVRecord(fields: fields, line: startLine, row: row, strayQuoteColumn: strayQuoteColumn))
                }
                sawAnything = true
                if inQuotes {
                    if c == Self.quote {
                        var j = i + 1
                        let next = try byte(at: &j)
                        if next == Self.quote {
                            field.append(Self.quote)
                            i = j + 1
                        } else if let next, next != delimiter && next != Self.cr && next != Self.lf && linesInRecord > 0 {
                            // A quote closing in mid-cell after the cell crossed a line break: the
                            // quote that opened it was never closed on its own line, and this one
                            // opens the next record. Resume there rather than swallow it.
                            return try unbalanced(recordStart, startLine, column: fields.count + 1, scanned: i - recordStart)
                        } else {
                            inQuotes = false
                            afterClosingQuote = true
                            i += 1
                        }
                        continue
                    }
                    if c == Self.lf {
                        linesInRecord += 1
                    } else if c == Self.cr {
                        var j = i + 1
                        if try byte(at: &j) != Self.lf { linesInRecord += 1 }
                    }
                    // The bytes up to the next quote or line end (of those buffered) go in at once.
                    let run = Self.plainRun(in: buffer, from: i + 1, isSpecial: { $0 == Self.quote || $0 == Self.cr || $0 == Self.lf })
                    field.append(contentsOf: buffer[i..<run])
                    i = run
                    if i - recordStart > Self.maximumRecordBytes {
                        return try unbalanced(recordStart, startLine, column: fields.count + 1, scanned: i - recordStart)
                    }
                    continue
                }
                if c == delimiter {
                    fields.append(field)
                    field = []
                    quoted = false
                    afterClosingQuote = false
                    i += 1
                    continue
                }
                if c == Self.cr || c == Self.lf {
                    i += 1
                    if c == Self.cr {
                        var j = i
                        if try byte(at: &j) == Self.lf { i = j + 1 }
                    }
                    fields.append(field)
                    position = i
                    line = startLine + linesInRecord + 1
                    row += 1
                    return .record(CSVRecord(fields: fields, line: startLine, row: row, strayQuoteColumn: strayQuoteColumn))
                }
                if c == Self.quote && field.isEmpty && !quoted {
                    inQuotes = true
                    quoted = true
                    i += 1
                    continue
                }
                if afterClosingQuote || c == Self.quote {
                    // `"a"b` or `a"b`: not RFC 4180; the characters are kept as they stand.
                    if strayQuoteColumn == nil { strayQuoteColumn = fields.count + 1 }
                }
                let run = Self.plainRun(in: buffer, from: i + 1) { $0 == delimiter || $0 == Self.quote || $0 == Self.cr || $0 == Self.lf }
                field.append(contentsOf: buffer[i..<run])
                i = run
            }
        }
    }

    /// Where the run of ordinary bytes from `start` ends: at the first special byte, or the end of
    /// what is buffered. Cells are copied a run at a time rather than a byte at a time.
    private static func plainRun(in buffer: [UInt8], from start: Int, isSpecial: (UInt8) -> Bool) -> Int {
        buffer.withUnsafeBufferPointer { bytes in
            var i = start
            while i < bytes.count && !isSpecial(bytes[i]) { i += 1 }
            return i
        }
    }

    /// Reports a quote that never closes and resumes on the line after the one the record began on,
    /// so that every later record is read with the right quoting.
    private func unbalanced(_ recordStart: Int, _ startLine: Int, column: Int, scanned: Int) throws -> Item {
        // Each recovery reads again from the line after the record's first: a file of records
        // that each run on in quotes would be read once per line (5 MB took minutes).
        rescanned += scanned
        if rescanned > Self.maximumRescannedBytes {
            let message = "quotes that never close: more than \(Self.maximumRescannedBytes >> 20) MiB read again to recover"
            return .unreadable(line: startLine, message: message)
        }
        var i = recordStart
        while i < buffer.count && buffer[i] != Self.cr && buffer[i] != Self.lf { i += 1 }
        // No line end in what was read: the line goes on (a 1 GB one), and so does its number.
        let lineEnds = i < buffer.count
        if lineEnds {
            if buffer[i] == Self.cr && i + 1 < buffer.count && buffer[i + 1] == Self.lf { i += 1 }
            i += 1
        }
        position = i
        line = lineEnds ? startLine + 1 : startLine
        row += 1
        return .malformed(line: startLine, row: row, column: column, message: "a quote opened in this cell never closes; reading resumes on the next line")
    }
}
