import Foundation

/// Which of Tiltbox's own JSON formats a file is, told by its `format` key, so that a file
/// given where another kind belongs is named as what it is ("this is a Tiltbox trace, not
/// a scenario") rather than reported as a syntax error at its second line.
@_spi(Tools) public enum TiltboxFileKind: Sendable, Equatable {
    case scenario
    case trace
    case tiltKeyframes
    case batchManifest

    /// The kind whose `format` value is `format` (`tiltbox-trace/1` …), or `nil`.
    public init?(format: String) {
        if format.hasPrefix("tiltbox-scenario/") {
            self = .scenario
        } else if format.hasPrefix("tiltbox-trace/") {
            self = .trace
        } else if format.hasPrefix("tiltbox-tilt/") {
            self = .tiltKeyframes
        } else if format.hasPrefix("tiltbox-batch/") {
            self = .batchManifest
        } else {
            return nil
        }
    }

    /// What to call it in a message: "a Tiltbox trace".
    public var name: String {
        switch self {
        case .scenario: return "a Tiltbox scenario"
        case .trace: return "a Tiltbox trace"
        case .tiltKeyframes: return "a tilt keyframes file (give it with --tilt)"
        case .batchManifest: return "a batch manifest"
        }
    }

    /// The kind of the document in `bytes`: the `format` of its first line when that is a
    /// JSON object (a trace's header), else of the whole text parsed as one JSON object
    /// (a pretty-printed scenario), looked at only when it is at most `maxWholeBytes` long.
    public static func of(_ bytes: UnsafeBufferPointer<UInt8>, maxWholeBytes: Int = 16 << 20) -> TiltboxFileKind? {
        let end = bytes.firstIndex(of: 0x0A) ?? bytes.count
        if let kind = kind(of: UnsafeBufferPointer(rebasing: bytes[0..<end])) { return kind }
        guard end < bytes.count, bytes.count <= maxWholeBytes else { return nil }
        return kind(of: bytes)
    }

    private static func kind(of text: UnsafeBufferPointer<UInt8>) -> TiltboxFileKind? {
        guard let node = try? JSONParser.parse(utf8: text), let format = node["format"]?.stringValue else { return nil }
        return TiltboxFileKind(format: format)
    }

    /// The kind of the Tiltbox JSON file at `path`: `nil` for anything else (CSV, a
    /// folder, a zip, a file that does not parse) and for what is not a regular file or is
    /// larger than `maxWholeBytes` (a FIFO is never opened, so this cannot block).
    public static func ofFile(atPath path: String, maxWholeBytes: Int = 16 << 20) -> TiltboxFileKind? {
        guard let size = try? RegularFile.size(of: path), size <= UInt64(maxWholeBytes),
            let data = try? Data(contentsOf: URL(fileURLWithPath: path)), data.count <= maxWholeBytes
        else { return nil }
        return data.withUnsafeBytes { raw in of(raw.bindMemory(to: UInt8.self), maxWholeBytes: maxWholeBytes) }
    }
}
