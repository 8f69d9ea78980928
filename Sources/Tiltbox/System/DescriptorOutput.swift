#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A `write(2)` that failed: the system's error number and how many bytes had gone out
/// before it.
@_spi(Tools) public struct DescriptorWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The `errno` value (`EPIPE` for a closed pipe, `ENOSPC` for a full device).
    public var code: Int32
    /// Bytes of the request written before the failure.
    public var written: Int

    public init(code: Int32, written: Int) {
        self.code = code
        self.written = written
    }

    /// True when the reader of a pipe or socket has gone away (`EPIPE`): tools end
    /// quietly then, as if killed by SIGPIPE.
    public var isClosedPipe: Bool { code == EPIPE }

    /// The system's text for `code`, such as "No space left on device".
    public var description: String { String(cString: strerror(code)) }
}

/// The one way Tiltbox writes bytes to a file descriptor: all of them, retrying short
/// writes and `EINTR`, and throwing on failure instead of trapping (unlike
/// `FileHandle.write(_:)`). With SIGPIPE ignored, a closed pipe arrives here as `EPIPE`.
@_spi(Tools) public enum DescriptorOutput {
    /// Writes every byte of `bytes` to `fd`.
    /// - Throws: `DescriptorWriteError` with the bytes written before the failure.
    public static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) throws(DescriptorWriteError) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = write(fd, base + written, bytes.count - written)
            if result < 0 && errno == EINTR { continue }
            if result <= 0 {
                // write(2) returning 0 for a non-empty request should not happen on files
                // or pipes; treat it as a full device rather than spin.
                throw DescriptorWriteError(code: result == 0 ? ENOSPC : errno, written: written)
            }
            written += result
        }
    }

    /// Writes `text` as UTF-8 to `fd`.
    public static func writeAll(_ fd: Int32, _ text: String) throws(DescriptorWriteError) {
        var text = text
        let result: Result<Void, DescriptorWriteError> = text.withUTF8 { utf8 in
            Result { () throws(DescriptorWriteError) in try writeAll(fd, UnsafeRawBufferPointer(utf8)) }
        }
        try result.get()
    }

    /// Writes `bytes` to `fd`.
    public static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws(DescriptorWriteError) {
        let result: Result<Void, DescriptorWriteError> = bytes.withUnsafeBytes { raw in
            Result { () throws(DescriptorWriteError) in try writeAll(fd, raw) }
        }
        try result.get()
    }
}
