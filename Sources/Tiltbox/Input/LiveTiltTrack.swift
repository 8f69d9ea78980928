import Foundation

/// Gravity steered live from the keyboard, kept as the samples a Tiltbox CSV would
/// hold, so that replaying the written file reproduces the live run bit for bit.
///
/// The direction is an angle from straight down (positive pulls towards +x), turned
/// in whole `stepAngle` steps. Each change becomes a device-frame reading (in g, for
/// `orientation`) at a physics step time; lookups go through the very same
/// `SampledGravityTrack` a replay builds from the CSV, with the same orientation and g.
@_spi(Tools) public final class LiveTiltTrack: GravityTrack, @unchecked Sendable {
    /// One key press turns gravity by 5°.
    public static let stepAngle = Double.pi / 36

    public let orientation: Orientation
    /// World units per 1 g.
    public let g: Double
    /// The samples so far, sorted by time (one per change, the first at t = 0).
    public private(set) var samples: [TiltSample]
    /// Whole steps turned from the initial direction.
    public private(set) var turns = 0
    private let initialAngle: Double
    private var track: SampledGravityTrack
    private var stale = false
    private var latest = Vec2.zero
    /// Comment lines for the CSV, each written before the sample at its index (a gap in a
    /// live source, a restart of the phone's experiment).
    private var notes: [(beforeSample: Int, text: String)] = []
    // Single-threaded use (the live view's loop); the lock only keeps `Sendable` honest.
    private let lock = NSLock()

    /// Starts pointing the way `initialGravity` does.
    public init(initialGravity: Vec2, orientation: Orientation, g: Double) {
        self.orientation = orientation
        self.g = g
        let length = initialGravity.length
        initialAngle = length > 0 ? atan2(initialGravity.x, -initialGravity.y) : 0
        let first = TiltSample(t: 0, reading: Self.reading(angle: initialAngle, orientation: orientation))
        samples = [first]
        track = SampledGravityTrack(samples: [first], orientation: orientation, g: g)
        latest = SampledGravityTrack.worldValue(first.reading, orientation: orientation, g: g)
    }

    /// Starts at the device-frame `reading` (in g) of a live source: a stream of samples,
    /// rather than the keys, changes it (`apply`).
    public init(initialReading: Vec2, orientation: Orientation, g: Double) {
        self.orientation = orientation
        self.g = g
        initialAngle = 0
        let first = TiltSample(t: 0, reading: initialReading)
        samples = [first]
        track = SampledGravityTrack(samples: [first], orientation: orientation, g: g)
        latest = SampledGravityTrack.worldValue(first.reading, orientation: orientation, g: g)
    }

    /// Applies a live source's device-frame `reading` (in g) from simulated time `t` (a
    /// physics step time later than any already evaluated; a second change at the same `t`
    /// replaces the first).
    public func apply(reading: Vec2, at t: Double) {
        lock.lock()
        defer { lock.unlock() }
        place(TiltSample(t: t, reading: reading))
    }

    /// Adds a comment line to the CSV, after the samples so far.
    public func note(_ text: String) {
        lock.lock()
        defer { lock.unlock() }
        notes.append((samples.count, text))
    }

    /// The current angle from straight down, radians.
    public var angle: Double { initialAngle + Double(turns) * Self.stepAngle }

    /// Turns gravity by `steps` × 5°, taking effect at simulated time `t` (a physics step
    /// time later than any already evaluated). A second change at the same `t` replaces the first.
    public func turn(by steps: Int, at t: Double) {
        lock.lock()
        defer { lock.unlock() }
        turns += steps
        place(TiltSample(t: t, reading: Self.reading(angle: angle, orientation: orientation)))
    }

    /// Adds `sample`, or replaces the last one when it is at the same time. Call with the lock held.
    private func place(_ sample: TiltSample) {
        let t = sample.t
        if let last = samples.last, last.t == t, samples.count > 1 {
            samples[samples.count - 1] = sample
        } else if let last = samples.last, last.t == t {
            samples[0] = sample // still at t = 0: replace the starting direction
        } else {
            precondition(samples.last.map { $0.t < t } ?? true, "tilt changes go forward in time")
            samples.append(sample)
        }
        // The track is rebuilt only when a time before the last sample is looked up: a run
        // looks up each step's time once, at or after every change so far.
        stale = true
        latest = SampledGravityTrack.worldValue(sample.reading, orientation: orientation, g: g)
    }

    public func gravity(at t: Double) -> Vec2 {
        lock.lock()
        defer { lock.unlock() }
        // At or after the last sample, holding gives the last sample's world value, exactly
        // what the track (and a replay's) gives there.
        if let last = samples.last, t >= last.t { return latest }
        if stale {
            track = SampledGravityTrack(samples: samples, orientation: orientation, g: g)
            stale = false
        }
        return track.gravity(at: t)
    }

    /// The device-frame reading (in g) whose world direction is `angle` from straight down.
    static func reading(angle: Double, orientation: Orientation) -> Vec2 {
        let world = Vec2(sin(angle), -cos(angle))
        // Invert docs/formats.md §2's table (only swaps and sign changes, so exact).
        switch orientation {
        case .portrait: return world
        case .landscapeRight: return Vec2(-world.y, world.x)
        case .landscapeLeft: return Vec2(world.y, -world.x)
        case .portraitUpsideDown: return Vec2(-world.x, -world.y)
        }
    }

    /// The samples as a Tiltbox CSV (`t,x,y`, shortest round-trip numbers).
    public func csv(comment: String) -> String {
        lock.lock()
        defer { lock.unlock() }
        var text = comment.split(separator: "\n", omittingEmptySubsequences: false).map { "# \($0)\n" }.joined()
        text += "t,x,y\n"
        var pending = notes[...]
        for (index, s) in samples.enumerated() {
            while let next = pending.first, next.beforeSample <= index {
                text += "# \(next.text)\n"
                pending = pending.dropFirst()
            }
            text +=
                "\(NumberFormat.shortest(s.t)),\(NumberFormat.shortest(s.reading.x)),\(NumberFormat.shortest(s.reading.y))\n"
        }
        for next in pending { text += "# \(next.text)\n" }
        return text
    }
}
