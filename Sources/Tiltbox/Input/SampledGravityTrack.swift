/// A gravity track made from recorded samples (a Tiltbox CSV or a phone recording).
///
/// Each device-frame reading (in g) is turned into world axes by the orientation
/// table of docs/formats.md §2 and scaled by `g` (world units per g) once, at creation.
/// Looking a time up is a binary search over the sample times: deterministic,
/// O(log n) and allocation-free. Before the first sample the first value applies,
/// after the last the last.
public struct SampledGravityTrack: GravityTrack {
    /// The samples as given, sorted by time.
    public let samples: [TiltSample]
    /// How the device was held: maps device-frame readings to world axes.
    public let orientation: Orientation
    /// World units per 1 g.
    public let g: Double
    /// How times between samples are read: the latest sample (`.hold`, the default) or a straight-line blend.
    public let interpolation: Interpolation
    /// `samples[i].reading` in world units/s².
    private let worldValues: [Vec2]

    /// - Precondition: `samples` is non-empty, its times are finite and non-decreasing,
    ///   and every world value is finite (loaders check files with `GravityBound` before
    ///   they get here).
    public init(samples: [TiltSample], orientation: Orientation, g: Double, interpolation: Interpolation = .hold) {
        precondition(!samples.isEmpty, "a sampled gravity track needs at least one sample")
        precondition(zip(samples, samples.dropFirst()).allSatisfy { $0.t <= $1.t }, "samples must be sorted by time")
        self.samples = samples
        self.orientation = orientation
        self.g = g
        self.interpolation = interpolation
        self.worldValues = samples.map { Self.worldValue($0.reading, orientation: orientation, g: g) }
    }

    /// A device reading in g as the track uses it, in world units/s²: turned by the
    /// orientation, scaled by g. Loaders check this very value (`GravityBound`).
    public static func worldValue(_ reading: Vec2, orientation: Orientation, g: Double) -> Vec2 {
        // `Vec2.zero +` turns −0 (Android's −v/9.80665 of a zero reading) into +0, so
        // traces print `0`, not `-0`; every other value is unchanged.
        Vec2.zero + orientation.worldVector(fromDevice: reading) * g
    }

    /// The value at `t` seconds, world units/s²: the sample at or before `t` (`.hold`), or a blend
    /// with the next one (`.linear`). The first value applies before the first sample (and for a NaN
    /// time), the last after the last.
    public func gravity(at t: Double) -> Vec2 {
        // Index of the latest sample at or before t (the last of equal times).
        let after = Self.firstIndex(in: samples, after: t)
        if after == 0 { return worldValues[0] }
        let index = after - 1
        guard interpolation == .linear, after < samples.count else { return worldValues[index] }
        let t0 = samples[index].t, t1 = samples[after].t
        let u = (t - t0) / (t1 - t0) // t1 > t0: `after` is the first sample later than t
        let a = worldValues[index], b = worldValues[after]
        return a + (b - a) * u
    }

    /// The first index whose time is greater than `t` (`count` if none; 0 for NaN).
    static func firstIndex(in samples: [TiltSample], after t: Double) -> Int {
        if t.isNaN { return 0 }
        var low = 0, high = samples.count
        while low < high {
            let mid = (low + high) / 2
            if samples[mid].t <= t { low = mid + 1 } else { high = mid }
        }
        return low
    }
}
