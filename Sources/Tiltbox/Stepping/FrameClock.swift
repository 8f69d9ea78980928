#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The clock that feeds the accumulator: one frame duration (seconds) at a time.
///
/// Physics results never depend on the clock, only on the step count; the clock
/// decides how steps are grouped into frames (and so what a live view shows).
public protocol FrameClock {
    /// The duration of the next frame in seconds (finite, ≥ 0).
    mutating func nextFrameDuration() -> Double
}

/// Every frame lasts `1/hz` seconds: `steady:60`.
public struct SteadyClock: FrameClock, Sendable {
    /// Every frame's length in seconds, `1 / hz`.
    public let frameDuration: Double
    /// Creates a clock of `hz` frames per second.
    public init(hz: Double) { frameDuration = 1 / hz }
    /// `frameDuration`, every time.
    public mutating func nextFrameDuration() -> Double { frameDuration }
}

/// Frame durations spread uniformly over ±50 % around `1/hz` by a seeded SplitMix64:
/// `jitter:60:7`. The same seed gives the same frames on every machine.
public struct JitterClock: FrameClock, Sendable {
    /// The mean frame length in seconds, `1 / hz`.
    public let nominal: Double
    private var generator: SplitMix64

    /// Creates a clock of `hz` frames per second on average, its jitter drawn from `seed`.
    public init(hz: Double, seed: UInt64) {
        nominal = 1 / hz
        generator = SplitMix64(seed: seed)
    }

    /// The next frame length: `nominal × (0.5 + u)`, `u` uniform in [0, 1) from the generator.
    public mutating func nextFrameDuration() -> Double {
        nominal * (0.5 + generator.nextUnitInterval())
    }
}

/// Steady frames with one long frame, as when a phone call interrupts:
/// `stall:60:1:0.5` makes the first frame starting at or after 1 s last 0.5 s.
public struct StallClock: FrameClock, Sendable {
    /// The length of every frame but the stalled one, seconds (`1 / hz`).
    public let frameDuration: Double
    /// Clock time in seconds from which the next frame starting is the stalled one.
    public let stallAt: Double
    /// The stalled frame's length in seconds.
    public let stallDuration: Double
    private var elapsed: Double = 0
    private var stalled = false

    /// Creates a clock of `hz` frames per second whose first frame starting at or after
    /// `at` seconds lasts `duration` seconds.
    public init(hz: Double, at: Double, duration: Double) {
        frameDuration = 1 / hz
        stallAt = at
        stallDuration = duration
    }

    /// `stallDuration` once, for the first frame starting at or after `stallAt`; `frameDuration` otherwise.
    public mutating func nextFrameDuration() -> Double {
        let d: Double
        if !stalled && elapsed >= stallAt {
            stalled = true
            d = stallDuration
        } else {
            d = frameDuration
        }
        elapsed += d
        return d
    }
}

/// Frame durations read from a file, one per line, cycling when they run out: `file:PATH`.
public struct RecordedFrameClock: FrameClock, Sendable {
    /// The frame lengths in seconds, in file order.
    public let durations: [Double]
    private var index = 0

    /// `durations` must be non-empty, finite and non-negative with at least one positive value (checked by `FrameProfile.parse`).
    public init(durations: [Double]) {
        precondition(!durations.isEmpty)
        self.durations = durations
    }

    /// The next duration from the file, starting again at the first after the last.
    public mutating func nextFrameDuration() -> Double {
        defer { index = (index + 1) % durations.count }
        return durations[index]
    }
}

/// Paces frames on the monotonic clock at `fps`, like a display link, and reports each
/// frame's measured duration. Used by `--realtime` and the live view; the physics
/// still advances only in fixed steps.
public struct RealTimeClock: FrameClock {
    /// The frame period aimed at, seconds (`1 / fps`).
    public let targetInterval: Double
    private var last: Double?
    private var nextDeadline: Double = 0

    /// Creates a clock pacing frames at `fps` per second (60 by default).
    public init(fps: Double = 60) {
        targetInterval = 1 / fps
    }

    /// Seconds on the monotonic clock.
    public static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }

    /// Sleeps until the next frame is due, then returns the measured time since the previous
    /// call (0 on the first call). After a stall it starts a fresh cadence rather than
    /// hurrying to catch up.
    public mutating func nextFrameDuration() -> Double {
        guard let previous = last else {
            let t = RealTimeClock.now()
            last = t
            nextDeadline = t + targetInterval
            return 0
        }
        var now = RealTimeClock.now()
        if now < nextDeadline {
            let wait = nextDeadline - now
            var ts = timespec(tv_sec: Int(wait), tv_nsec: Int((wait - Double(Int(wait))) * 1e9))
            nanosleep(&ts, nil)
            now = RealTimeClock.now()
        }
        // Keep a steady cadence; after a long stall start afresh rather than bursting.
        nextDeadline = max(nextDeadline + targetInterval, now)
        last = now
        return now - previous
    }
}

/// SplitMix64 (Steele, Lea and Flood), written out so frame jitter never depends on a
/// library's random number generator.
struct SplitMix64: Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64-bit value of the sequence.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double in `[0, 1)` from the top 53 bits.
    public mutating func nextUnitInterval() -> Double {
        Double(next() >> 11) * 0x1.0p-53
    }
}
