/// A problem with a user's input file, located precisely enough to fix it:
/// the file, the line and column when known, and the field path (`crates[3].size[1]`).
///
/// Printed as one line, `FILE:LINE:COLUMN: PATH: REASON`, the form editors and CI logs
/// turn into links. The command line exits with status 2 for these.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var location: SourceLocation?
    public var path: String?
    public var reason: String

    public init(file: String, location: SourceLocation? = nil, path: String? = nil, reason: String) {
        self.file = file
        self.location = location
        self.path = path
        self.reason = reason
    }

    public var description: String {
        var text = file
        if let location { text += ":\(location.line):\(location.column)" }
        text += ": "
        if let path, !path.isEmpty { text += "\(path): " }
        return text + reason
    }
}
