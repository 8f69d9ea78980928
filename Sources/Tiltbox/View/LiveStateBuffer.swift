import Synchronization

/// What the physics thread hands the drawing thread once per display frame: the states
/// of the last two steps, how far between them to draw, and the HUD's figures.
///
/// A value: the drawer gets its own copy (copy-on-write arrays), so nothing it reads can
/// change under it.
struct LiveFrame: Sendable {
    /// The states one step before `current` (equal to it at step 0), `BodyStateLayout.count` per crate.
    var previous: [Double] = []
    /// The states after `step` steps.
    var current: [Double] = []
    /// The step `current` is the state after; -1 before the run's first record.
    var step = -1
    /// Simulated time of `step`.
    var time: Double = 0
    /// The gravity the session applied for step `step` (the `g` its record has in a trace).
    var gravity: Vec2 = .zero
    /// Where to draw between `previous` (0) and `current` (1).
    var alpha: Double = 0
    var droppedTime: Double = 0
    var stepsInLastFrame = 0
    /// Wall-clock seconds of physics per frame (a running average).
    var physicsSecondsPerFrame: Double = 0
    var paused = false
    var finished = false
    /// Runs started so far (a restart makes a new one): the drawer repaints from scratch when it changes.
    var generation = 0
    /// Frames published so far; the drawer draws a frame once.
    var sequence = 0
}

/// The live view's state buffer: a `RecordSink` given the states after every step, and
/// the hand-off from the physics thread to the drawing thread.
///
/// The session's loop (the physics thread) records steps into a staging pair, then
/// `publish` copies that pair with the frame's figures into the latest frame in one
/// locked assignment; the drawer takes the latest frame with `latest()`. Both sides hold
/// a `Mutex` only to copy (arrays are copy-on-write), so the drawer never sees states from
/// two different frames mixed, and never holds up a step for longer than a copy.
final class LiveStateBuffer: RecordSink, Sendable {
    private struct Staging {
        var previous: [Double] = []
        var current: [Double] = []
        var step = -1
        var time: Double = 0
        var gravity: Vec2 = .zero
    }

    private let staging = Mutex(Staging())
    private let shared = Mutex(LiveFrame())

    init() {}

    /// Every step, so the view can draw between the last two.
    var recordsEveryStep: Bool { true }

    /// Keeps the state after `step` as the current one and the one before as previous.
    /// Step 0 (a new run) starts afresh; a step already held (the session's closing record
    /// of the step reached) changes nothing.
    func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
        staging.withLock { s in
            guard step != s.step else { return }
            if step == 0 || s.step < 0 || s.current.count != states.count {
                s.current = Array(states)
                s.previous = s.current
            } else {
                swap(&s.previous, &s.current)
                s.current.withUnsafeMutableBufferPointer { out in
                    _ = out.update(fromContentsOf: states)
                }
            }
            s.step = step
            s.time = time
            s.gravity = gravity
        }
    }

    /// Makes the states recorded so far, with `figures`' alpha and HUD figures, the latest
    /// frame (its `step`, `time`, `gravity`, states and `sequence` are the buffer's own).
    func publish(_ figures: LiveFrame) {
        staging.withLock { s in
            shared.withLock { latest in
                // The states are copied into the latest frame's own arrays, never shared with
                // the staging pair: the next step then updates the staging pair in place, so a
                // step allocates nothing (only a frame the drawer still holds is copied here).
                var frame = figures
                swap(&frame.previous, &latest.previous)
                swap(&frame.current, &latest.current)
                frame.step = s.step
                frame.time = s.time
                frame.gravity = s.gravity
                frame.sequence = latest.sequence + 1
                LiveStateBuffer.copy(s.previous, into: &frame.previous)
                LiveStateBuffer.copy(s.current, into: &frame.current)
                latest = frame
            }
        }
    }

    /// Makes `target` hold `source`'s values, in its own storage when it is not shared and
    /// already has the size.
    private static func copy(_ source: [Double], into target: inout [Double]) {
        guard target.count == source.count else {
            target = [Double](unsafeUninitializedCapacity: source.count) { buffer, count in
                _ = buffer.initialize(fromContentsOf: source)
                count = source.count
            }
            return
        }
        source.withUnsafeBufferPointer { from in
            target.withUnsafeMutableBufferPointer { to in _ = to.update(fromContentsOf: from) }
        }
    }

    /// The latest published frame.
    func latest() -> LiveFrame {
        shared.withLock { $0 }
    }
}
