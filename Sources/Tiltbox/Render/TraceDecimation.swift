/// Which records of a long trace to keep so that (frames × bodies) stays under a cap:
/// every k-th record from the first, with the smallest such k, plus the last record
/// always. At least the first and the last are kept, whatever the cap.
@_spi(Tools) public struct TraceDecimation: Sendable, Equatable {
    /// The cap the HTML player uses: 500 000 body-frames, 1.5 million numbers
    /// (x, y, angle), about 10 MB of page at worst.
    public static let defaultMaxBodyFrames = 500_000

    /// Indices of the kept records, increasing, first and last included.
    public var indices: [Int]
    /// Keep every `stride`-th record (1: all of them).
    public var stride: Int

    /// - Parameters:
    ///   - recordCount: records in the trace.
    ///   - bodies: bodies per record.
    ///   - maxBodyFrames: the cap on kept records × bodies.
    public init(recordCount: Int, bodies: Int, maxBodyFrames: Int = TraceDecimation.defaultMaxBodyFrames) {
        guard recordCount > 0 else {
            indices = []
            stride = 1
            return
        }
        let maxFrames = max(2, maxBodyFrames / max(1, bodies))
        if recordCount <= maxFrames {
            stride = 1
            indices = Array(0..<recordCount)
            return
        }
        // ceil((n − 1) / k) + 1 frames (the last added when k does not land on it) must be ≤ maxFrames.
        var k = max(1, (recordCount - 1 + (maxFrames - 2)) / max(1, maxFrames - 1))
        while (recordCount - 1 + k - 1) / k + 1 > maxFrames { k += 1 }
        stride = k
        var kept = Array(Swift.stride(from: 0, to: recordCount, by: k))
        if kept.last != recordCount - 1 { kept.append(recordCount - 1) }
        indices = kept
    }
}
