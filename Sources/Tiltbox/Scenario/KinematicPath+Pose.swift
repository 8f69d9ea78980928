import Foundation

/// A kinematic path made ready to evaluate: a Bézier path's arc-length table is built
/// here, once (build one track per body when the world is built, not one per step).
///
/// Time runs from the start of the run. Semantics (docs/formats.md §5):
/// - Keyframes: before the first keyframe the first pose holds; between keyframes k and
///   k+1 the pose is `poseₖ + (poseₖ₊₁ − poseₖ)·curveₖ₊₁(u)` with `u = (t − tₖ)/(tₖ₊₁ − tₖ)`
///   (a spring takes `t − tₖ` in seconds); at a keyframe's time the pose is exactly the keyframe's.
/// - Bézier: the body starts at P0 at t = 0 and moves at constant speed `length / duration`
///   along the path (`PacedBezierPath`), reaching its end at `duration`. Its angle is the
///   body's own (`bodyAngle`) with rotation mode `none`, the tangent's direction with `auto`,
///   the tangent's plus π with `autoReverse`; the tangent angle is continuous along the path.
/// - Repeat, over the period (last keyframe time − first, or `duration`): `none` holds the
///   last pose; `loop` starts again from the first pose, and each cycle adds the whole
///   turns the angle made over one cycle (2π·round((θ_end − θ_start)/2π)), so a body that
///   spins or goes round a closed curve keeps turning instead of jumping back; `pingpong`
///   runs the path backwards after each forward pass (the pose at a time is the forward
///   pose mirrored in time: a body on a Bézier path reverses facing the same way).
public struct KinematicPathTrack: KinematicDriver {
    /// The path this track evaluates.
    public let path: KinematicPath
    /// The angle used with rotation mode `none` (the body's initial angle).
    public let bodyAngle: Double

    private enum Shape: Sendable {
        case keyframes([PoseKeyframe])
        case bezier(PacedBezierPath, rotationMode: PathRotationMode)
    }

    private let shape: Shape
    private let repeatMode: PathRepeat
    /// Time of the first pose.
    private let start: Double
    /// Time of the last pose.
    private let end: Double
    /// Angle added per completed `loop` cycle.
    private let turnPerCycle: Double
    /// Angle added to every pose: π for `autoReverse`, else 0.
    private let angleOffset: Double

    /// - Precondition: the path is valid as `FieldReader.kinematicPath` returns it (at least
    ///   one keyframe with strictly increasing times, or 1 + 3k Bézier points and a positive duration).
    public init(_ path: KinematicPath, bodyAngle: Double = 0) {
        self.path = path
        self.bodyAngle = bodyAngle
        switch path {
        case .keyframes(let keyframes, let repeatMode):
            precondition(!keyframes.isEmpty, "a keyframe path needs at least one keyframe")
            precondition(
                zip(keyframes, keyframes.dropFirst()).allSatisfy { $0.t < $1.t },
                "keyframe times must increase strictly")
            shape = .keyframes(keyframes)
            self.repeatMode = repeatMode
            start = keyframes[0].t
            end = keyframes[keyframes.count - 1].t
            turnPerCycle = Self.wholeTurns(from: keyframes[0].angle, to: keyframes[keyframes.count - 1].angle)
            angleOffset = 0
        case .bezier(let points, let duration, let rotationMode, let repeatMode):
            precondition(duration > 0, "a Bézier path needs a positive duration")
            let paced = PacedBezierPath(points: points)
            shape = .bezier(paced, rotationMode: rotationMode)
            self.repeatMode = repeatMode
            start = 0
            end = duration
            turnPerCycle =
                rotationMode == .none
                ? 0
                : Self.wholeTurns(
                    from: paced.tangentAngle(at: paced.place(atDistance: 0)),
                    to: paced.tangentAngle(at: paced.place(atDistance: paced.length)))
            angleOffset = rotationMode == .autoReverse ? Double.pi : 0
        }
    }

    /// 2π·round((b − a)/2π): the whole turns from angle `a` to angle `b`.
    private static func wholeTurns(from a: Double, to b: Double) -> Double {
        let turn = 2 * Double.pi
        return turn * ((b - a) / turn).rounded()
    }

    // MARK: - Poses

    /// The pose at `t` seconds from the start of the run.
    public func pose(at t: Double) -> BodyPose {
        let (local, cycles) = cycleTime(t)
        var pose = forwardPose(at: local)
        if cycles != 0 { pose.angle += cycles * turnPerCycle }
        if angleOffset != 0 { pose.angle += angleOffset }
        return pose
    }

    /// The body's state before physics step `n` (t = n·dt): position and angle from
    /// `pose(at: t)`, velocity (position(t + dt) − position(t)) / dt and angular velocity
    /// (angle(t + dt) − angle(t)) / dt, so contacts see the path's speed. t + dt is computed
    /// as (n + 1)·dt, the next step's own time, so the two steps agree on the pose between them.
    public func drive(step n: Int, dt: Double) -> KinematicDrive {
        let now = pose(at: Double(n) * dt)
        let next = pose(at: Double(n + 1) * dt)
        return KinematicDrive(
            position: now.position, angle: now.angle,
            velocity: Vec2((next.position.x - now.position.x) / dt, (next.position.y - now.position.y) / dt),
            angularVelocity: (next.angle - now.angle) / dt)
    }

    /// `t` folded into the first pass, [start, end], by the repeat mode, and the number of
    /// whole `loop` cycles completed. During the first pass `t` is used as it is, so the
    /// poses at the keyframe times are exact. Cycles are closed at their end: with `loop`,
    /// start + k·period (k ≥ 1) is the end of cycle k, the last pose, and the first pose
    /// follows just after it.
    private func cycleTime(_ t: Double) -> (local: Double, cycles: Double) {
        guard t > start else { return (start, 0) } // also NaN
        guard t > end else { return (t, 0) }
        let period = end - start
        let elapsed = t - start
        switch repeatMode {
        case .none:
            return (end, 0)
        case .loop:
            let phase = elapsed.truncatingRemainder(dividingBy: period) // fmod: exact
            let cycles = ((elapsed - phase) / period).rounded()
            return phase == 0 ? (end, cycles - 1) : (start + phase, cycles)
        case .pingpong:
            let phase = elapsed.truncatingRemainder(dividingBy: 2 * period)
            return (phase <= period ? start + phase : start + (2 * period - phase), 0)
        }
    }

    /// The pose of the first pass at `local` ∈ [start, end].
    private func forwardPose(at local: Double) -> BodyPose {
        switch shape {
        case .keyframes(let keyframes):
            return Self.keyframePose(keyframes, at: local)
        case .bezier(let paced, let rotationMode):
            let place = paced.place(atDistance: paced.length * (local / end))
            let position = paced.position(at: place)
            // autoReverse adds π in `pose(at:)`, after the loop turns, so it is auto + π exactly.
            let angle = rotationMode == .none ? bodyAngle : paced.tangentAngle(at: place)
            return BodyPose(position: position, angle: angle)
        }
    }

    private static func keyframePose(_ keyframes: [PoseKeyframe], at t: Double) -> BodyPose {
        // The first keyframe after t.
        var low = 0, high = keyframes.count
        while low < high {
            let mid = (low + high) / 2
            if keyframes[mid].t <= t { low = mid + 1 } else { high = mid }
        }
        if low == 0 { return BodyPose(position: keyframes[0].position, angle: keyframes[0].angle) }
        let from = keyframes[low - 1]
        if low == keyframes.count || from.t == t { return BodyPose(position: from.position, angle: from.angle) }
        let to = keyframes[low]
        let u = (t - from.t) / (to.t - from.t) // to.t > t > from.t
        let s = to.curve.value(progress: u, seconds: t - from.t)
        return BodyPose(
            position: from.position + (to.position - from.position) * s,
            angle: from.angle + (to.angle - from.angle) * s)
    }
}

extension KinematicPath {
    /// This path ready to evaluate (`KinematicPathTrack`); `bodyAngle` is the angle kept
    /// with rotation mode `none`.
    public func track(bodyAngle: Double = 0) -> KinematicPathTrack {
        KinematicPathTrack(self, bodyAngle: bodyAngle)
    }

    /// The pose at `t` seconds. Builds the track on every call: a driver calling it every
    /// step should keep a `KinematicPathTrack` instead.
    public func pose(at t: Double, bodyAngle: Double = 0) -> BodyPose {
        track(bodyAngle: bodyAngle).pose(at: t)
    }

    /// The body's state before physics step `n` (`KinematicPathTrack.drive(step:dt:)`).
    public func drive(step n: Int, dt: Double, bodyAngle: Double = 0) -> KinematicDrive {
        track(bodyAngle: bodyAngle).drive(step: n, dt: dt)
    }
}
