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
    /// The live tilt source's name (`phyphox://HOST:PORT`, `standard input`), when there is one.
    var tiltSource: String?
    /// Seconds since its newest sample arrived (`nil` before the first).
    var sampleAge: Double?
    /// What to draw for the bodies `current` lists, once a timeline has changed them (docs/formats.md
    /// §8); `nil`: the scenario's own outline.
    var outline: SceneOutline?
    /// With `outline`, each body's place among all the bodies of the run (its colour stays when
    /// bodies before it are removed).
    var colourIndices: [Int]?
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
        /// The bodies present (ids and outlines, in the states' order) and the joints, followed
        /// through the run's events; `changed` until the next record (no blending across a change).
        var ids: [String] = []
        var serials: [Int] = []
        var nextSerial = 0
        var bodies: [SceneOutline.BodyOutline] = []
        var joints: [JointOutline] = []
        var followsEvents = false
        var changed = false
        var outline: SceneOutline?
    }

    private let staging = Mutex(Staging())
    private let shared = Mutex(LiveFrame())

    init() {}

    /// Every step, so the view can draw between the last two.
    var recordsEveryStep: Bool { true }

    /// Starts following the bodies of a new run of `scenario` (called before its session records).
    func begin(scenario: Scenario) {
        let outline = SceneOutline(scenario: scenario)
        staging.withLock { s in
            s.ids = scenario.bodyDefinitions.map(\.id)
            s.serials = Array(s.ids.indices)
            s.nextSerial = s.ids.count
            s.bodies = outline.bodies
            s.joints = outline.joints.map(\.outline)
            s.followsEvents = false
            s.changed = false
            s.outline = nil
        }
    }

    /// Follows a body or joint that came or went: the outline drawn from the next record on.
    func event(_ event: TraceEvent) throws {
        staging.withLock { s in
            switch event.change {
            case .spawn(let spawn):
                s.ids.append(spawn.body)
                s.serials.append(s.nextSerial)
                s.nextSerial += 1
                s.bodies.append(SceneOutline.BodyOutline(type: spawn.type, shapes: spawn.shapes))
            case .remove(let id, _):
                guard let index = s.ids.firstIndex(of: id) else { return }
                s.ids.remove(at: index)
                s.serials.remove(at: index)
                s.bodies.remove(at: index)
                s.joints.removeAll { $0.a == id || $0.b == id }
            case .joint(let joint):
                s.joints.append(joint)
            case .removeJoint(let id):
                s.joints.removeAll { $0.id == id }
            case .skipped, .collision:
                return
            }
            s.followsEvents = true
            s.changed = true
            var slot: [String: Int] = [:]
            for (i, id) in s.ids.enumerated() { slot[id] = i }
            let joints = s.joints.compactMap { joint -> SceneOutline.IndexedJoint? in
                func end(_ id: String) -> Int?? { id == "static" ? .some(nil) : slot[id].map { .some($0) } }
                guard let a = end(joint.a), let b = end(joint.b) else { return nil }
                return SceneOutline.IndexedJoint(joint, a: a, b: b)
            }
            s.outline = SceneOutline(bodies: s.bodies, joints: joints)
        }
    }

    /// Keeps the state after `step` as the current one and the one before as previous.
    /// Step 0 (a new run) starts afresh; a step already held (the session's closing record
    /// of the step reached) changes nothing.
    func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
        staging.withLock { s in
            guard step != s.step else { return }
            if step == 0 || s.step < 0 || s.current.count != states.count || s.changed {
                // A new run, or bodies that came or went: nothing to blend from.
                s.changed = false
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
                frame.outline = s.outline
                frame.colourIndices = s.outline == nil ? nil : s.serials
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
