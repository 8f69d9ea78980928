/// Which records a film strip shows: evenly spaced times (the default, 8 panels),
/// explicit times (`--at`), or every S seconds (`--every`).
///
/// Each time picks the record nearest to it (the earlier one on a tie), so with
/// `--every K` traces a time between records shows the closest one recorded.
/// Times must lie within the trace's span; consecutive duplicates (two times nearest
/// the same record) are dropped, so every panel differs from the one before it.
@_spi(Tools) public enum RenderFrameSelection: Sendable, Equatable {
    /// `count` times evenly spaced from the first record's time to the last's.
    case evenly(count: Int)
    /// The given times, in the order given.
    case at([Double])
    /// The first record's time, then every `seconds` until the last record's time.
    case every(seconds: Double)

    /// Panels in the default film strip.
    public static let defaultPanelCount = 8
    /// The most panels one film strip may hold.
    public static let maxPanels = 1000

    /// The indices into `times` (the records' times, non-decreasing) of the records to draw.
    /// - Throws: `InputError` (file `--at` or `--every`) for a time outside the trace or
    ///   a selection of more than `maxPanels` panels.
    public func recordIndices(times: [Double]) throws(InputError) -> [Int] {
        guard let first = times.first, let last = times.last else { return [] }
        var wanted: [Double] = []
        switch self {
        case .evenly(let count):
            let n = max(1, min(count, Self.maxPanels))
            if times.count <= n {
                return Array(times.indices)
            }
            wanted = n == 1 ? [first] : (0..<n).map { first + (last - first) * Double($0) / Double(n - 1) }
        case .at(let list):
            guard list.count <= Self.maxPanels else {
                throw InputError(file: "--at", reason: "\(list.count) times; the limit is \(Self.maxPanels) panels")
            }
            // A little slack so that a time printed with fewer digits still matches the end.
            let slack = 1e-9 * max(1, abs(last))
            for t in list {
                guard t.isFinite, t >= first - slack, t <= last + slack else {
                    throw InputError(
                        file: "--at",
                        reason:
                            "\(NumberFormat.shortest(t)) is outside the trace's times, \(NumberFormat.shortest(first)) to \(NumberFormat.shortest(last)) s"
                    )
                }
            }
            wanted = list
        case .every(let seconds):
            guard seconds.isFinite, seconds > 0 else {
                throw InputError(file: "--every", reason: "must be a number of seconds > 0")
            }
            let span = last - first
            let count = (span / seconds + 1e-9).rounded(.down) + 1
            guard count <= Double(Self.maxPanels) else {
                throw InputError(
                    file: "--every",
                    reason:
                        "\(NumberFormat.shortest(seconds)) s over \(NumberFormat.shortest(span)) s gives \(NumberFormat.shortest(count)) panels; the limit is \(Self.maxPanels)"
                )
            }
            wanted = (0..<Int(count)).map { first + Double($0) * seconds }
        }
        var indices: [Int] = []
        for t in wanted {
            let index = Self.nearest(t, in: times)
            if indices.last != index { indices.append(index) }
        }
        return indices
    }

    /// The index of the time in `times` (non-decreasing, non-empty) nearest to `t`; the
    /// earlier on a tie.
    public static func nearest(_ t: Double, in times: [Double]) -> Int {
        RecordTimes.nearest(t, in: times)
    }
}
