/// The record nearest a time, among records whose times are known (a trace read back) or
/// computed (`step · dt` for every step of a run, before any trace exists).
@_spi(Tools) public enum RecordTimes {
    /// The index of the time in `times` (non-decreasing, non-empty) nearest to `t`; the
    /// earlier on a tie. `times` may be computed on demand (a lazy map over steps): it is
    /// read at about log₂(count) places.
    public static func nearest<Times: RandomAccessCollection>(_ t: Double, in times: Times) -> Int
    where Times.Element == Double, Times.Index == Int {
        var lo = times.startIndex, hi = times.endIndex - 1
        // Find the first index with times[i] >= t.
        while lo < hi {
            let mid = (lo + hi) / 2
            if times[mid] < t { lo = mid + 1 } else { hi = mid }
        }
        if lo > times.startIndex, t - times[lo - 1] <= times[lo] - t { return lo - 1 }
        return lo
    }
}
