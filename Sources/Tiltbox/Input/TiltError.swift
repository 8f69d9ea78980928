/// Why a tilt file could not be used, with where: the file, and a line (and column)
/// or a field path such as `keyframes[2].curve`.
///
/// `description` is one line, compiler style: `tilt/rock.csv:7: decreasing time 1.5 after 2.0`
/// or `tilt/wave.json: keyframes[2].curve: unknown curve 'easyIn'`. Files inside a zip
/// are named `archive.zip(inner/path.csv)`.
public struct TiltError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The file as the caller named it, or `archive.zip(entry)` for a file in a zip.
    public var file: String
    /// 1-based line, when the problem is on one line.
    public var line: Int?
    /// 1-based column, for JSON syntax errors.
    public var column: Int?
    /// The JSON field path (`keyframes[2].curve`), for keyframe files.
    public var path: String?
    /// What is wrong, in words.
    public var reason: String

    public init(file: String, line: Int? = nil, column: Int? = nil, path: String? = nil, reason: String) {
        self.file = file
        self.line = line
        self.column = column
        self.path = path
        self.reason = reason
    }

    public var description: String {
        var text = file
        if let line {
            text += ":\(line)"
            if let column { text += ":\(column)" }
        }
        if let path { text += ": \(path)" }
        return text + ": " + reason
    }
}
