/// A 1-based line and column in a text file.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    /// Line number, from 1.
    public var line: Int
    /// Column from 1, counted in UTF-8 bytes (characters, for ASCII text).
    public var column: Int

    /// Creates a location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// `LINE:COLUMN`, as error messages write it.
    public var description: String { "\(line):\(column)" }
}

/// A problem with a user's input file — a scenario, a tilt recording, a keyframe script,
/// a trace — located precisely enough to fix it: the file, the line (and column) when
/// known, and the field path (`crates[3].size[1]`, `keyframes[2].curve`).
///
/// Printed as one line, `FILE:LINE:COLUMN: PATH: REASON`, the form editors and CI logs
/// turn into links; parts that are not known are left out (`rock.csv:7: decreasing time`,
/// `wave.json: keyframes[2].curve: unknown curve 'easyIn'`). Files inside a zip are named
/// `archive.zip(inner/path.csv)`. Control characters from the file are shown escaped
/// (`\n`, `\e`). The command line exits with status 2 for these.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the caller named it, or `archive.zip(entry)` for a file in a zip.
    public var file: String
    /// 1-based line, when the problem is on one line.
    public var line: Int?
    /// 1-based column, when the problem is at one place on its line.
    public var column: Int?
    /// The field path (`crates[3].size[1]`), for structured files.
    public var path: String?
    /// What is wrong, in words.
    public var reason: String

    /// Creates an error; leave out what is not known and the one-line message omits it.
    public init(file: String, line: Int? = nil, column: Int? = nil, path: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.reason = reason
    }

    /// An error at a line and column of a JSON document (or nowhere in particular).
    public init(file: String, location: SourceLocation?, path: String? = nil, reason: String) {
        self.init(file: file, line: location?.line, column: location?.column, path: path, reason: reason)
    }

    /// The line and column, when both are known.
    public var location: SourceLocation? {
        guard let line, let column else { return nil }
        return SourceLocation(line: line, column: column)
    }

    /// The one-line message. The file, the field path and the reason (which may quote
    /// a key, an id or a cell from the file) pass through `InertText.escape`, so a file
    /// cannot split the message or send escape sequences to the user's terminal.
    public var description: String {
        var text = InertText.escape(file)
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        text += ": "
        if let path, !path.isEmpty { text += "\(InertText.escape(path)): " }
        return text + InertText.escape(reason)
    }
}
