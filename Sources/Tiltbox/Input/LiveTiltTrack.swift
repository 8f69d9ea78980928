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
    }

    /// The current angle from straight down, radians.
    public var angle: Double { initialAngle + Double(turns) * Self.stepAngle }

    /// Turns gravity by `steps` × 5°, taking effect at simulated time `t` (a physics step
    /// time later than any already evaluated). A second change at the same `t` replaces the first.
    public func turn(by steps: Int, at t: Double) {
        lock.lock()
        defer { lock.unlock() }
        turns += steps
        let sample = TiltSample(t: t, reading: Self.reading(angle: angle, orientation: orientation))
        if let last = samples.last, last.t == t, samples.count > 1 {
            samples[samples.count - 1] = sample
        } else if let last = samples.last, last.t == t {
            samples[0] = sample // still at t = 0: replace the starting direction
        } else {
            precondition(samples.last.map { $0.t < t } ?? true, "tilt changes go forward in time")
            samples.append(sample)
        }
        track = SampledGravityTrack(samples: samples, orientation: orientation, g: g)
    }

    public func gravity(at t: Double) -> Vec2 {
        lock.lock()
        defer { lock.unlock() }
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
        for s in samples {
            text +=
                "\(NumberFormat.shortest(s.t)),\(NumberFormat.shortest(s.reading.x)),\(NumberFormat.shortest(s.reading.y))\n"
        }
        return text
    }
}
