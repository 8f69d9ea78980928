/// The lines and cells of a CSV-like text, as the tilt readers need them: a header
/// line and data lines with their 1-based line numbers.
///
/// Blank lines and lines starting with `#` are skipped. The delimiter is guessed from
/// the header: a tab, else a semicolon, else a comma. Cells may be quoted with `"`
/// (`""` inside quotes is a quote). With a tab or semicolon delimiter a decimal comma
/// is accepted (`9,81`), as spreadsheet locales write it.
struct DelimitedText {
    /// A non-blank, non-comment line.
    struct Line {
        /// 1-based line number in the file.
        var number: Int
        var cells: [String]
    }

    let header: Line
    let delimiter: Character
    /// Data lines after the header, in file order.
    let rows: [Line]

    /// `nil` when the text has no header line (empty, or only blank and comment lines).
    init?(_ text: String) {
        var body = Substring(text)
        if body.first == "\u{FEFF}" { body = body.dropFirst() }
        // Split on bytes, not Characters: grapheme breaking is slow on large recordings.
        // Lines end in LF or CRLF; the CR is dropped with the cell trimming below.
        var header: (number: Int, text: Substring)?
        var rest: [(number: Int, text: Substring)] = []
        var number = 0
        for bytes in body.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            let first = bytes.first { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") && $0 != UInt8(ascii: "\r") }
            if first == nil || first == UInt8(ascii: "#") { continue }
            let line = Substring(bytes)
            if header == nil { header = (number, line) } else { rest.append((number, line)) }
        }
        guard let header else { return nil }
        let delimiter: Character = header.text.contains("\t") ? "\t" : header.text.contains(";") ? ";" : ","
        self.delimiter = delimiter
        self.header = Line(number: header.number, cells: Self.cells(of: header.text, delimiter: delimiter))
        self.rows = rest.map { Line(number: $0.number, cells: Self.cells(of: $0.text, delimiter: delimiter)) }
    }

    /// Splits one line into cells, unquoting and trimming spaces around each.
    static func cells(of line: Substring, delimiter: Character) -> [String] {
        if let byte = delimiter.asciiValue, !line.utf8.contains(UInt8(ascii: "\"")) {
            return line.utf8.split(separator: byte, omittingEmptySubsequences: false).map { trim(Substring($0)) }
        }
        var cells: [String] = []
        var cell = ""
        var inQuotes = false
        var index = line.startIndex
        while index < line.endIndex {
            let character = line[index]
            let next = line.index(after: index)
            if inQuotes {
                if character == "\"" {
                    if next < line.endIndex, line[next] == "\"" {
                        cell.append("\"")
                        index = line.index(after: next)
                        continue
                    }
                    inQuotes = false
                } else {
                    cell.append(character)
                }
            } else if character == "\"" {
                inQuotes = true
            } else if character == delimiter {
                cells.append(trim(Substring(cell)))
                cell = ""
            } else {
                cell.append(character)
            }
            index = next
        }
        cells.append(trim(Substring(cell)))
        return cells
    }

    private static func trim(_ cell: Substring) -> String {
        let isSpace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
        var bytes = cell.utf8[...]
        while let first = bytes.first, isSpace(first) { bytes = bytes.dropFirst() }
        while let last = bytes.last, isSpace(last) { bytes = bytes.dropLast() }
        return String(Substring(bytes))
    }
}
