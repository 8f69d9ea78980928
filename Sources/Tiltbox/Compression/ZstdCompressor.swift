internal import CZstd

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Compresses a byte stream into one zstd frame, piece by piece, with zstd's streaming
/// API (`ZSTD_compressStream2`), for traces written to a path ending in `.zst`.
///
/// The frame carries zstd's content checksum (`ZSTD_c_checksumFlag`), so `zstd -t` and
/// every reader catch a damaged file. Compressed bytes are handed out in chunks of
/// `ZSTD_CStreamOutSize()` (128 KiB) as they are produced; memory stays at the
/// context's (a few MiB at level 1) plus that chunk, whatever the length of the stream.
///
/// One owner at a time (the trace writer's thread, then its owner under the same lock).
final class ZstdCompressor {
    /// The compression level of traces: 1, zstd's fastest standard level, which keeps the
    /// writer thread ahead of the physics (a 10 s, 100-crate trace shrinks about 4×).
    static let traceLevel: Int32 = 1

    /// What `compress` asks of zstd after taking its input.
    enum Directive {
        /// Compress what it can; zstd may keep some input buffered for a better ratio.
        case `continue`
        /// Emit everything given so far as complete blocks: a reader can decompress
        /// it all, and the frame stays open.
        case flush
        /// Emit everything and close the frame (its checksum last).
        case end

        var zstd: ZSTD_EndDirective {
            switch self {
            case .continue: return ZSTD_e_continue
            case .flush: return ZSTD_e_flush
            case .end: return ZSTD_e_end
            }
        }
    }

    private let context: OpaquePointer
    private let output: UnsafeMutableRawBufferPointer

    /// A compression context at `level` with checksums on, or `nil` when zstd cannot
    /// allocate one.
    init?(level: Int32 = ZstdCompressor.traceLevel) {
        guard let context = ZSTD_createCCtx() else { return nil }
        guard ZSTD_isError(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)) == 0,
            ZSTD_isError(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1)) == 0
        else {
            ZSTD_freeCCtx(context)
            return nil
        }
        self.context = context
        output = .allocate(byteCount: ZSTD_CStreamOutSize(), alignment: 16)
    }

    deinit {
        ZSTD_freeCCtx(context)
        output.deallocate()
    }

    /// Compresses all of `input` and hands each chunk of compressed bytes to `emit`, in
    /// order. With `.flush` or `.end`, returns only once zstd has emitted everything.
    ///
    /// - Throws: what `emit` throws; an error of zstd itself (in practice only a failed
    ///   allocation) as `ENOMEM`, with nothing written.
    func compress(
        _ input: UnsafeRawBufferPointer, _ directive: Directive,
        emit: (UnsafeRawBufferPointer) throws(DescriptorWriteError) -> Void
    ) throws(DescriptorWriteError) {
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        while true {
            var target = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
            let remaining = ZSTD_compressStream2(context, &target, &source, directive.zstd)
            if ZSTD_isError(remaining) != 0 {
                // zstd fails here only when it cannot allocate memory (or on misuse).
                throw DescriptorWriteError(code: ENOMEM, written: 0)
            }
            if target.pos > 0 {
                try emit(UnsafeRawBufferPointer(start: output.baseAddress, count: target.pos))
            }
            let done = directive == .continue ? source.pos == source.size : remaining == 0
            if done { return }
        }
    }
}
