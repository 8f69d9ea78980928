import Foundation

/// A Tiltbox CSV streamed on a file descriptor (`--tilt -`: standard input), as a live
/// gravity source: read on a thread of its own, each good row posted to the feed as it
/// arrives (`TiltStreamParser` checks the rows). The end of the stream holds the last
/// sample for the rest of the run.
@_spi(Tools) public final class StreamTiltSource: Sendable {
    /// How messages and the HUD name standard input.
    public static let label = "standard input"
    /// The longest line read; a longer one is a bad row.
    public static let maxLineBytes = 64 * 1024

    /// The feed the rows go to.
    public let feed = LiveTiltFeed(label: StreamTiltSource.label)
    private let descriptor: Int32
    private let orientation: Orientation
    private let g: Double

    /// A source reading `descriptor`, checking readings as a run in `orientation` with `g`
    /// units per g uses them.
    public init(descriptor: Int32 = STDIN_FILENO, orientation: Orientation, g: Double) {
        self.descriptor = descriptor
        self.orientation = orientation
        self.g = g
    }

    /// Starts reading on a thread of its own.
    public func start() {
        let thread = Thread { [self] in readRows() }
        thread.name = "tiltbox-stdin"
        thread.start()
    }

    private func readRows() {
        var parser = TiltStreamParser(orientation: orientation, g: g)
        var pending: [UInt8] = []
        var skippingLongLine = false
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var lines = 0
        func handle(_ line: ArraySlice<UInt8>) {
            lines += 1
            switch parser.feed(Substring(String(decoding: line, as: UTF8.self))) {
            case .skipped: break
            case .sample(let sample): feed.post([sample], now: RealTimeClock.now())
            case .bad(let line, let reason): feed.badRow(line: line, reason: reason)
            }
        }
        while !feed.isStopped {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 {
                if !pending.isEmpty && !skippingLongLine { handle(pending[...]) }
                feed.notice(
                    kind: "end",
                    "the stream ended after \(lines) line\(lines == 1 ? "" : "s"); gravity held at the last sample")
                return
            }
            var start = 0
            for i in 0..<n where chunk[i] == 10 {
                if skippingLongLine {
                    skippingLongLine = false
                    lines += 1
                    _ = parser.feed("# (a line too long)")
                    feed.badRow(line: lines, reason: "longer than \(Self.maxLineBytes) bytes")
                } else {
                    pending += chunk[start..<i]
                    handle(pending[...])
                }
                pending.removeAll(keepingCapacity: true)
                start = i + 1
            }
            if !skippingLongLine { pending += chunk[start..<n] }
            if pending.count > Self.maxLineBytes {
                pending.removeAll()
                skippingLongLine = true
            }
        }
    }
}
