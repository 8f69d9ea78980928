import Foundation

/// The lines and cells of a CSV-like text, as the tilt readers need them: a header
/// line, then data lines read one at a time, each with its 1-based line number and the
/// column of every cell.
///
/// Blank lines and lines starting with `#` are skipped. The delimiter is guessed from
/// the header: a tab, else a semicolon, else a comma. Cells may be quoted with `"`
/// (`""` inside quotes is a quote). With a tab or semicolon delimiter a decimal comma
/// is accepted (`9,81`), as spreadsheet locales write it.
///
/// Memory: the bytes are held once and rows are split only as they are visited, so a
/// reader keeps what it makes of a row (a sample), not the row; a line has at most
/// `maxCellsPerLine` cells, so a line of 64 million commas fails at its 1 025th cell
/// instead of making 64 million strings.
struct DelimitedText {
    /// A non-blank, non-comment line.
    struct Line {
        /// 1-based line number in the file.
        var number: Int
        var cells: [String]
        /// 1-based column (in bytes) where each cell's text starts.
        var columns: [Int]
    }

    /// The most cells one line may have. Tilt recordings have a handful of columns.
    static let maxCellsPerLine = 1024

    let header: Line
    let delimiter: Character
    private let bytes: [UInt8]
    private let delimiterByte: UInt8
    private let file: String
    /// Where the line after the header starts, and its number.
    private let bodyStart: Int
    private let bodyLineNumber: Int

    /// Splits off the header; `nil` when the text has no header line (empty, or only
    /// blank and comment lines).
    /// - Throws: `InputError` for a header line with more than `maxCellsPerLine` cells.
    static func read(_ data: Data, file: String) throws(InputError) -> DelimitedText? {
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        var cursor = LineCursor(position: 0, number: 0)
        guard let header = cursor.nextContentLine(in: bytes) else { return nil }
        let delimiter: UInt8 =
            Self.find(0x09, in: bytes, header.range) != nil
            ? 0x09
            : Self.find(UInt8(ascii: ";"), in: bytes, header.range) != nil ? UInt8(ascii: ";") : UInt8(ascii: ",")
        let line = try split(bytes, header.range, number: header.number, delimiter: delimiter, file: file)
        return DelimitedText(
            header: line, delimiter: Character(UnicodeScalar(delimiter)), bytes: bytes,
            delimiterByte: delimiter, file: file, bodyStart: cursor.position,
            bodyLineNumber: cursor.number)
    }

    /// Calls `body` with each data line after the header, in file order.
    func forEachRow(_ body: (Line) throws(InputError) -> Void) throws(InputError) {
        var cursor = LineCursor(position: bodyStart, number: bodyLineNumber)
        while let line = cursor.nextContentLine(in: bytes) {
            try body(try Self.split(bytes, line.range, number: line.number, delimiter: delimiterByte, file: file))
        }
    }

    /// The first data line after the header, if any.
    func firstRow() throws(InputError) -> Line? {
        var cursor = LineCursor(position: bodyStart, number: bodyLineNumber)
        guard let line = cursor.nextContentLine(in: bytes) else { return nil }
        return try Self.split(bytes, line.range, number: line.number, delimiter: delimiterByte, file: file)
    }

    // MARK: - Lines

    /// Walks the lines of the bytes, skipping blank and comment lines.
    private struct LineCursor {
        var position: Int
        /// The number of the line last returned (0 before the first).
        var number: Int

        mutating func nextContentLine(in bytes: [UInt8]) -> (number: Int, range: Range<Int>)? {
            while position < bytes.count {
                let start = position
                let stop = DelimitedText.find(0x0A, in: bytes, start..<bytes.count) ?? bytes.count
                position = stop + 1
                number += 1
                var first = start
                while first < stop && (bytes[first] == 0x20 || bytes[first] == 0x09 || bytes[first] == 0x0D) {
                    first += 1
                }
                if first == stop || bytes[first] == UInt8(ascii: "#") { continue }
                return (number, start..<stop)
            }
            return nil
        }
    }

    // MARK: - Cells

    /// Splits one line into cells, unquoting and trimming spaces around each.
    private static func split(_ bytes: [UInt8], _ range: Range<Int>, number: Int, delimiter: UInt8, file: String)
        throws(InputError) -> Line
    {
        let quote = UInt8(ascii: "\"")
        var cells: [String] = []
        var columns: [Int] = []
        var cell: [UInt8] = []
        var cellStart = range.lowerBound
        var inQuotes = false
        func finish(at index: Int) throws(InputError) {
            guard cells.count < maxCellsPerLine else {
                throw InputError(
                    file: file, line: number, column: index - range.lowerBound + 1,
                    reason: "more than \(maxCellsPerLine) cells on one line")
            }
            var first = 0
            while first < cell.count && isSpace(cell[first]) { first += 1 }
            var last = cell.count
            while last > first && isSpace(cell[last - 1]) { last -= 1 }
            cells.append(String(decoding: cell[first..<last], as: UTF8.self))
            var column = cellStart
            while column < index && isSpace(bytes[column]) { column += 1 }
            columns.append(column - range.lowerBound + 1)
            cell.removeAll(keepingCapacity: true)
        }
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if inQuotes {
                if byte == quote {
                    if index + 1 < range.upperBound, bytes[index + 1] == quote {
                        cell.append(quote)
                        index += 2
                        continue
                    }
                    inQuotes = false
                } else {
                    cell.append(byte)
                }
            } else if byte == quote {
                inQuotes = true
            } else if byte == delimiter {
                try finish(at: index)
                cellStart = index + 1
            } else {
                cell.append(byte)
            }
            index += 1
        }
        try finish(at: range.upperBound)
        return Line(number: number, cells: cells, columns: columns)
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0D }

    /// The index of the first `byte` in `bytes[range]`, found with `memchr`: a line of
    /// tens of megabytes is scanned at memory speed in every build, not byte by byte.
    static func find(_ byte: UInt8, in bytes: [UInt8], _ range: Range<Int>) -> Int? {
        guard !range.isEmpty else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> Int? in
            guard let base = buffer.baseAddress,
                let hit = memchr(base + range.lowerBound, Int32(byte), range.count)
            else { return nil }
            return base.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }
}
