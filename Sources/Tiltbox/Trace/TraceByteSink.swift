#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a trace's formatted lines go: straight to the file descriptor, or, for a path
/// ending in `.zst`, through a zstd frame (level 1, with its content checksum) and then to
/// the descriptor. The trace encoder hands it whole lines on the writer thread, so the
/// compression runs there, off the physics thread.
///
/// A compressed trace is one frame: `close()` ends it, and is what the writer calls when
/// the trace ends, however it ends (complete, interrupted, an error end line, or a writer
/// dropped without `finish`), so the file decompresses whole, end line last.
/// `zstd -dc` of it gives exactly the bytes the plain trace of the same run holds.
final class TraceByteSink {
    /// The file descriptor the bytes go to.
    let fd: Int32
    /// Bytes handed to the descriptor so far (compressed bytes for a compressed trace).
    private(set) var bytesOut = 0
    private let compressor: ZstdCompressor?
    private var closed = false

    /// True when the trace at `path` is written compressed: a file path ending in `.zst`
    /// (standard output, `-`, always stays plain).
    static func compresses(_ path: String) -> Bool {
        path != "-" && path.hasSuffix(".zst")
    }

    /// A sink writing to `fd`, through zstd when `compressed`.
    /// - Throws: `ENOMEM` when zstd cannot allocate its context.
    init(fd: Int32, compressed: Bool) throws(DescriptorWriteError) {
        self.fd = fd
        if compressed {
            guard let compressor = ZstdCompressor() else { throw DescriptorWriteError(code: ENOMEM, written: 0) }
            self.compressor = compressor
        } else {
            compressor = nil
        }
    }

    /// True when the bytes go through zstd.
    var isCompressed: Bool { compressor != nil }

    /// Writes `bytes` (whole lines). For a plain trace the error's `written` counts the
    /// bytes of `bytes` that reached the descriptor; for a compressed one it is 0 (the
    /// compressed stream cannot be cut back to a line).
    func write(_ bytes: UnsafeRawBufferPointer) throws(DescriptorWriteError) {
        guard let compressor else {
            do {
                try DescriptorOutput.writeAll(fd, bytes)
            } catch {
                bytesOut += error.written
                throw error
            }
            bytesOut += bytes.count
            return
        }
        try compressor.compress(bytes, .continue, emit: emit)
    }

    /// Makes everything written so far readable from the file: a compressed trace's
    /// pending input is emitted as complete blocks (the frame stays open).
    func flush() throws(DescriptorWriteError) {
        guard let compressor, !closed else { return }
        try compressor.compress(UnsafeRawBufferPointer(start: nil, count: 0), .flush, emit: emit)
    }

    /// Ends a compressed trace's frame (a plain trace needs nothing). Called once the
    /// end line is written; later calls do nothing.
    func close() throws(DescriptorWriteError) {
        guard let compressor, !closed else { return }
        closed = true
        try compressor.compress(UnsafeRawBufferPointer(start: nil, count: 0), .end, emit: emit)
    }

    private func emit(_ chunk: UnsafeRawBufferPointer) throws(DescriptorWriteError) {
        do {
            try DescriptorOutput.writeAll(fd, chunk)
        } catch {
            bytesOut += error.written
            throw error
        }
        bytesOut += chunk.count
    }
}
