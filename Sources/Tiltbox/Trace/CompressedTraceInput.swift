#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The plain text of a zstd-compressed trace, a chunk at a time: what `TraceStream` reads
/// from a file (or bytes) starting with zstd's magic number, whatever its name.
///
/// Memory stays bounded: one chunk of compressed input, the chunk of output the caller
/// gives, and the decoder's window (at most 32 MiB, `ZstdDecompressor.maxWindowLog`).
/// A line that never ends is stopped by the line reader's own limits, however far the
/// frame would inflate. Errors are `InputError`s naming the file and the line being read:
/// corrupt data or a checksum mismatch, a window too large, and a stream cut off in the
/// middle of a frame (a truncated download, a copy that stopped).
final class CompressedTraceInput {
    private let decompressor: ZstdDecompressor
    /// Compressed bytes read; those from `position` to `inputEnd` are not yet consumed.
    private var input: [UInt8]
    private var position = 0
    private var inputEnd: Int
    /// Compressed bytes consumed so far, for locating an error.
    private var consumed = 0
    /// The last frame begun is complete and handed out: the stream may end here.
    private var atFrameEnd = false
    /// The last call filled the whole output: zstd may hold more without new input.
    private var outputFull = false

    /// Starts decoding with `pending`, the compressed bytes already read (at least the
    /// magic number).
    /// - Throws: when zstd cannot allocate its decoder.
    init(pending: [UInt8], file: String) throws(InputError) {
        guard let decompressor = ZstdDecompressor() else {
            throw InputError(file: file, reason: "cannot decompress: zstd could not allocate its decoder")
        }
        self.decompressor = decompressor
        input = pending
        inputEnd = pending.count
    }

    /// Decompresses into `output` and returns the bytes produced, 0 at the end of the
    /// stream. More compressed input is read from `fd` (`-1`: none beyond `pending`).
    ///
    /// - Parameter line: the line being read, to locate an error.
    /// - Throws: `InputError` at `file:line`.
    func read(into output: UnsafeMutableRawBufferPointer, from fd: Int32, file: String, line: Int) throws(InputError)
        -> Int
    {
        while true {
            if position < inputEnd || outputFull {
                let (start, end) = (position, inputEnd)
                let result: Result<ZstdDecompressor.Progress, ZstdDecompressor.Failure> = input.withUnsafeBytes { raw in
                    Result { () throws(ZstdDecompressor.Failure) in
                        try decompressor.decompress(UnsafeRawBufferPointer(rebasing: raw[start..<end]), into: output)
                    }
                }
                let progress: ZstdDecompressor.Progress
                switch result {
                case .success(let value): progress = value
                case .failure(let failure): throw InputError(file: file, line: line, reason: reason(for: failure))
                }
                position += progress.consumed
                consumed += progress.consumed
                atFrameEnd = progress.atFrameEnd
                outputFull = progress.produced == output.count
                if progress.produced > 0 { return progress.produced }
                if progress.consumed > 0 || outputFull { continue }
                if position < inputEnd {
                    // zstd always takes input when it has room for output; never spin.
                    throw InputError(
                        file: file, line: line,
                        reason: "corrupt zstd data after \(consumed) compressed bytes (zstd made no progress)")
                }
            }
            // Everything read is consumed: read on.
            let n = fd < 0 ? 0 : try readChunk(from: fd, file: file)
            if n == 0 {
                guard atFrameEnd else {
                    throw InputError(
                        file: file, line: line,
                        reason:
                            "the zstd data ends in the middle of a frame, after \(consumed) compressed bytes: the file is cut off"
                    )
                }
                return 0
            }
        }
    }

    /// Decompresses the whole file at `path`, when it is a zstd stream, and throws at the
    /// first damage: a corrupt block, a checksum that does not match, a cut-off frame.
    /// A plain file (or one that cannot be opened: its reader reports that) returns at
    /// once, and so does a line longer than any trace line can be (the reader refuses it
    /// at its own limit). `TraceStream` calls this first, so that damage is reported as
    /// damage (exit 2) and not as the divergence or syntax error a damaged record would
    /// show before the frame's checksum is reached. The error's line is the line of the plain text where the damage was
    /// found.
    static func checkWhole(path: String) throws(InputError) {
        var fd: Int32
        repeat { fd = Glibc.open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { return }
        defer { _ = Glibc.close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return }
        var magic = [UInt8](repeating: 0, count: 4)
        var have = 0
        while have < 4 {
            let n = magic.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress! + have, 4 - have) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            have += n
        }
        guard have == 4, ZstdDecompressor.startsStream(magic) else { return }
        let input = try CompressedTraceInput(pending: magic, file: path)
        let output = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 16)
        defer { output.deallocate() }
        var line = 1, lineLength = 0
        while true {
            let n = try input.read(into: output, from: fd, file: path, line: line)
            if n == 0 { return }
            var at = output.baseAddress!, left = n
            while let newline = memchr(at, 0x0A, left) {
                line += 1
                lineLength = 0
                left -= newline - at + 1
                at = newline + 1
            }
            lineLength += left
            // A line no trace can hold (a frame inflating to one endless line): the reader
            // refuses it at its own, tighter, limit; no need to inflate the rest here.
            if lineLength > TraceStream.maxHeaderLineBytes { return }
        }
    }

    private func readChunk(from fd: Int32, file: String) throws(InputError) -> Int {
        let chunk = 1 << 16
        if input.count != chunk { input = [UInt8](repeating: 0, count: chunk) }
        position = 0
        inputEnd = 0
        var n: Int
        repeat {
            n = input.withUnsafeMutableBytes { raw in Glibc.read(fd, raw.baseAddress!, chunk) }
        } while n < 0 && errno == EINTR
        if n < 0 { throw InputError(file: file, reason: String(cString: strerror(errno))) }
        inputEnd = n
        return n
    }

    private func reason(for failure: ZstdDecompressor.Failure) -> String {
        if failure.windowTooLarge {
            return "the zstd frame needs a window of more than \(1 << (ZstdDecompressor.maxWindowLog - 20)) MiB, "
                + "more than Tiltbox reads (compress without --long or --ultra)"
        }
        return "corrupt zstd data after \(consumed) compressed bytes (zstd: \(failure.reason))"
    }
}
