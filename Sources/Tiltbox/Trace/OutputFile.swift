#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A whole output file (an SVG film strip, an HTML player, a recorded tilt CSV) could not
/// be written: the path, what failed and the system's reason.
@_spi(Tools) public struct OutputFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    /// `create`, `write`, `close` or `rename`.
    public var operation: String
    /// The `errno` value.
    public var code: Int32

    public var description: String {
        "cannot \(operation == "write" ? "write" : "\(operation) the file for") \(path): \(String(cString: strerror(code)))"
    }
}

/// Writes whole output files the way traces are written (`TraceFile`): under a temporary
/// name beside the path, `.NAME.tiltbox-XXXXXX`, renamed into place only once complete,
/// so the path holds the old file or the complete new one, never part of one. Devices
/// and FIFOs (`/dev/full`, `/dev/stdout`) are written directly.
@_spi(Tools) public enum OutputFile {
    /// Writes `bytes` to `path`.
    ///
    /// - Parameters:
    ///   - bytes: the whole content of the file.
    ///   - path: where the file is put (`-` is a file named `-`, not standard output).
    ///   - shouldPublish: asked once the bytes are written, before the rename; when
    ///     it says no (the command was interrupted), the temporary file is removed, the path
    ///     keeps what it held, and `write` returns `false`.
    /// - Returns: `true` when the file was put in place.
    /// - Throws: `OutputFileError`; the temporary file is removed and the path left as it was.
    @discardableResult
    public static func write(_ bytes: [UInt8], to path: String, shouldPublish: () -> Bool = { true })
        throws(OutputFileError) -> Bool
    {
        var file: TraceFile
        do {
            // `-` is a file named `-` here, as it always was for these options, not standard output.
            file = try TraceFile.open(path == "-" ? "./-" : path)
        } catch {
            throw OutputFileError(path: path, operation: "create", code: error.code)
        }
        do {
            try DescriptorOutput.writeAll(file.fd, bytes)
        } catch {
            file.discard()
            throw OutputFileError(path: path, operation: "write", code: error.code)
        }
        // A batch child whose batch has died publishes nothing (see `BatchParent`).
        guard shouldPublish(), !BatchParent.isGone else {
            file.discard()
            return false
        }
        if let error = file.publish() {
            throw OutputFileError(path: path, operation: error.operation, code: error.code)
        }
        return true
    }
}
