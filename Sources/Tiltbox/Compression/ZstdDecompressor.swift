internal import CZstd

/// Decompresses a zstd stream piece by piece with zstd's streaming API
/// (`ZSTD_decompressStream`), in bounded memory: the trace readers' way into `.zst` files.
///
/// A stream is one or more frames back to back (as `cat a.zst b.zst` makes), skippable
/// frames included, like `zstd -dc` reads them. Memory is the decoding context plus the
/// frame's window, which is capped at `maxWindowLog` (32 MiB): a frame that asks for more
/// is refused before anything is allocated for it, however small the file. Checksums in a
/// frame are verified.
final class ZstdDecompressor {
    /// The largest window accepted, as a power of two: 2²⁵ bytes (32 MiB). Tiltbox writes
    /// level 1 frames (windows of 512 KiB and less); `zstd` up to level 20 stays within
    /// it, `--ultra -21`, `-22` and `--long` go beyond.
    static let maxWindowLog: Int32 = 25

    /// A failure of zstd while decoding.
    struct Failure: Error {
        /// zstd's own name for it ("Data corruption detected", "Restored data doesn't match checksum").
        var reason: String
        /// The frame needs a window beyond `maxWindowLog`.
        var windowTooLarge: Bool
    }

    /// What one call of `decompress` did.
    struct Progress {
        /// Input bytes consumed.
        var consumed: Int
        /// Output bytes produced.
        var produced: Int
        /// True when the last frame begun is complete (its checksum checked) and all of it
        /// has been handed out: the stream may end here.
        var atFrameEnd: Bool
    }

    /// True when `bytes` begin with a zstd frame's magic number (`28 B5 2F FD`) or a
    /// skippable frame's (`5? 2A 4D 18`): how readers tell a compressed file from a plain
    /// one whatever its name.
    static func startsStream(_ bytes: some Collection<UInt8>) -> Bool {
        guard bytes.count >= 4 else { return false }
        let b = Array(bytes.prefix(4))
        let magic = UInt32(b[0]) | UInt32(b[1]) << 8 | UInt32(b[2]) << 16 | UInt32(b[3]) << 24
        return magic == ZSTD_MAGICNUMBER || magic & ZSTD_MAGIC_SKIPPABLE_MASK == ZSTD_MAGIC_SKIPPABLE_START
    }

    private let context: OpaquePointer

    /// A decoding context with the window capped, or `nil` when zstd cannot allocate one.
    init?() {
        guard let context = ZSTD_createDCtx() else { return nil }
        guard ZSTD_isError(ZSTD_DCtx_setParameter(context, ZSTD_d_windowLogMax, Self.maxWindowLog)) == 0 else {
            ZSTD_freeDCtx(context)
            return nil
        }
        self.context = context
    }

    deinit {
        ZSTD_freeDCtx(context)
    }

    /// Decodes from `input` into `output` as far as either allows.
    /// - Throws: `Failure` for corrupt data, a checksum that does not match or a window
    ///   too large.
    func decompress(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) throws(Failure)
        -> Progress
    {
        var source = ZSTD_inBuffer(src: input.baseAddress, size: input.count, pos: 0)
        var target = ZSTD_outBuffer(dst: output.baseAddress, size: output.count, pos: 0)
        let hint = ZSTD_decompressStream(context, &target, &source)
        if ZSTD_isError(hint) != 0 {
            throw Failure(
                reason: String(cString: ZSTD_getErrorName(hint)),
                windowTooLarge: ZSTD_getErrorCode(hint) == ZSTD_error_frameParameter_windowTooLarge)
        }
        return Progress(consumed: source.pos, produced: target.pos, atFrameEnd: hint == 0)
    }
}
