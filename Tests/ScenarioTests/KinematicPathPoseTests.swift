import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The pose a kinematic path gives over time: keyframes, repeats, the paced Bézier path
/// and the velocities `drive` derives from them. Expected values are written from the
/// semantics (docs/formats.md §5), not read back from the implementation.
@Suite struct KinematicPathPoseTests {
    static let platform: [PoseKeyframe] = [
        PoseKeyframe(t: 0.1, position: Vec2(100, 80), angle: 0.25),
        PoseKeyframe(t: 0.7, position: Vec2(-380.3, 80.1), angle: -1.1, curve: .easeInEaseOut),
        PoseKeyframe(t: 1.3, position: Vec2(17, -3), angle: 2, curve: .penner(.easeOutElastic)),
        PoseKeyframe(
            t: 2.9, position: Vec2(0.1, 0.2), angle: 0.3, curve: .spring(SpringCurve(stiffness: 400, damping: 40))),
    ]

    @Test(arguments: PathRepeat.allCases)
    func posesAtKeyframeTimesAreTheKeyframes(_ mode: PathRepeat) {
        let track = KinematicPath.keyframes(Self.platform, repeat: mode).track()
        for keyframe in Self.platform {
            let pose = track.pose(at: keyframe.t)
            #expect(pose == BodyPose(position: keyframe.position, angle: keyframe.angle), "t = \(keyframe.t)")
        }
    }

    @Test func beforeTheFirstKeyframeTheFirstPoseHolds() {
        let track = KinematicPath.keyframes(Self.platform, repeat: .loop).track()
        for t in [0, 0.05, 0.0999] {
            #expect(track.pose(at: t) == BodyPose(position: Vec2(100, 80), angle: 0.25))
        }
    }

    @Test func repeatNoneHoldsTheLastPose() {
        let track = KinematicPath.keyframes(Self.platform, repeat: .none).track()
        for t in [2.9, 3.0, 10, 1e6] {
            #expect(track.pose(at: t) == BodyPose(position: Vec2(0.1, 0.2), angle: 0.3))
        }
    }

    @Test func easeInEaseOutIsHalfwayAtTheMidpointAndSlowAtTheStart() {
        let path = KinematicPath.keyframes(
            [
                PoseKeyframe(t: 0, position: Vec2(0, 10), angle: 0),
                PoseKeyframe(t: 2, position: Vec2(200, 10), angle: 1, curve: .easeInEaseOut),
            ],
            repeat: .none)
        let middle = path.pose(at: 1)
        #expect(abs(middle.position.x - 100) < 1e-9)
        #expect(middle.position.y == 10)
        #expect(abs(middle.angle - 0.5) < 1e-12)
        // A quarter of the way in time, the ease-in has covered far less than a quarter.
        // Core Animation's curve (0.42, 0), (0.58, 1) at x = 0.25 gives y = 0.129161931...
        // (bisection on x(s) = 0.25 with the Bézier formulas, done outside this project).
        let quarter = path.pose(at: 0.5)
        #expect(abs(quarter.position.x - 200 * 0.1291619310473198) < 1e-9)
    }

    @Test func loopRepeatsWithThePeriodBetweenFirstAndLastKeyframe() {
        let track = KinematicPath.keyframes(Self.platform, repeat: .loop).track()
        let period = 2.9 - 0.1
        // Cycles are closed at their end (start + period is the last pose), so from just after the start.
        for t in stride(from: 0.137, through: 2.9, by: 0.037) {
            let first = track.pose(at: t)
            for cycle in 1...3 {
                let later = track.pose(at: t + Double(cycle) * period)
                #expect((later.position - first.position).length < 1e-9, "t = \(t), cycle \(cycle)")
                // 0.25 → 0.3 is no whole turn: the angle repeats too.
                #expect(abs(later.angle - first.angle) < 1e-9, "t = \(t), cycle \(cycle)")
            }
        }
        // Just after the end the path starts over from the first pose, not the last.
        let restart = track.pose(at: 2.9 + 1e-9)
        #expect((restart.position - Vec2(100, 80)).length < 1e-3)
    }

    @Test func pingpongRunsBackThenForwards() {
        let track = KinematicPath.keyframes(Self.platform, repeat: .pingpong).track()
        let end = 2.9, period = 2.8
        for x in stride(from: 0.0, through: 2.8, by: 0.031) {
            let forward = track.pose(at: end - x)
            let back = track.pose(at: end + x)
            #expect((back.position - forward.position).length < 1e-9, "x = \(x)")
            #expect(abs(back.angle - forward.angle) < 1e-9, "x = \(x)")
            // A full round trip later, the same again.
            let next = track.pose(at: end - x + 2 * period)
            #expect((next.position - forward.position).length < 1e-9, "x = \(x)")
        }
        #expect((track.pose(at: 0.1 + 2 * period).position - Vec2(100, 80)).length < 1e-9)
    }

    @Test func aLoopThatTurnsOnceKeepsTurning() {
        let track = KinematicPath.keyframes(
            [
                PoseKeyframe(t: 0, position: .zero, angle: 0),
                PoseKeyframe(t: 1, position: .zero, angle: 2 * Double.pi),
            ],
            repeat: .loop
        ).track()
        for cycle in 0..<5 {
            let angle = track.pose(at: Double(cycle) + 0.25).angle
            #expect(abs(angle - (Double(cycle) * 2 + 0.5) * Double.pi) < 1e-9, "cycle \(cycle)")
        }
        for n in [58, 59, 60, 61] { // up to, at and across the first wrap
            #expect(abs(track.drive(step: n, dt: 1.0 / 60).angularVelocity - 2 * Double.pi) < 1e-9, "n = \(n)")
        }
    }

    @Test func driveSetsThePoseAndTheFiniteDifferenceVelocities() {
        let track = KinematicPath.keyframes(Self.platform, repeat: .pingpong).track()
        let dt = 1.0 / 60
        for n in [0, 1, 5, 17, 42, 100, 173, 174, 500] {
            let drive = track.drive(step: n, dt: dt)
            let now = track.pose(at: Double(n) * dt), next = track.pose(at: Double(n + 1) * dt)
            #expect(drive.position == now.position && drive.angle == now.angle, "n = \(n)")
            #expect(
                drive.velocity == Vec2((next.position.x - now.position.x) / dt, (next.position.y - now.position.y) / dt)
            )
            #expect(drive.angularVelocity == (next.angle - now.angle) / dt)
        }
        // On a linear segment the finite difference is the segment's own speed.
        let line = KinematicPath.keyframes(
            [
                PoseKeyframe(t: 0, position: Vec2(0, 0), angle: 0),
                PoseKeyframe(t: 2, position: Vec2(100, -50), angle: 3),
            ], repeat: .none)
        let drive = line.drive(step: 30, dt: dt)
        #expect((drive.velocity - Vec2(50, -25)).length < 1e-9)
        #expect(abs(drive.angularVelocity - 1.5) < 1e-9)
        #expect((drive.position - Vec2(25, -12.5)).length < 1e-9)
        // Held at the end: at rest.
        let parked = line.drive(step: 200, dt: dt)
        #expect(parked.velocity == .zero && parked.angularVelocity == 0)
    }

    // MARK: - Bézier paths

    /// A circle of radius `r` around `c` from four cubic segments, counter-clockwise from
    /// (c.x + r, c.y), with the standard control distance k·r, k = 0.5523.
    static func circle(_ c: Vec2, _ r: Double) -> [Vec2] {
        let k = 0.5523 * r
        return [
            Vec2(c.x + r, c.y),
            Vec2(c.x + r, c.y + k), Vec2(c.x + k, c.y + r), Vec2(c.x, c.y + r),
            Vec2(c.x - k, c.y + r), Vec2(c.x - r, c.y + k), Vec2(c.x - r, c.y),
            Vec2(c.x - r, c.y - k), Vec2(c.x - k, c.y - r), Vec2(c.x, c.y - r),
            Vec2(c.x + k, c.y - r), Vec2(c.x + r, c.y - k), Vec2(c.x + r, c.y),
        ]
    }

    /// `a − b` folded into [−π, π].
    static func angleDifference(_ a: Double, _ b: Double) -> Double {
        (a - b).remainder(dividingBy: 2 * Double.pi)
    }

    @Test func aBodyOnACircleStaysOnItAtConstantSpeedFacingAlongIt() {
        let centre = Vec2(200, 150), radius = 100.0, duration = 4.0, dt = 1.0 / 60
        let track = KinematicPath.bezier(
            points: Self.circle(centre, radius), duration: duration,
            rotationMode: .auto, repeat: .loop
        ).track()
        let steps = Int(3 * duration / dt) // three laps
        var previous: BodyPose?
        var stepLengths: [Double] = []
        for n in 0...steps {
            let pose = track.pose(at: Double(n) * dt)
            let offset = pose.position - centre
            #expect(abs(offset.length - radius) < 0.1, "n = \(n): \(offset.length) from the centre")
            // The tangent of a counter-clockwise circle points 90° ahead of the radius.
            let tangent = atan2(offset.y, offset.x) + Double.pi / 2
            // The k = 0.5523 curve's own tangent strays from the circle's by up to 1.3e-3 rad.
            #expect(abs(Self.angleDifference(pose.angle, tangent)) < 2e-3, "n = \(n)")
            if let previous {
                stepLengths.append((pose.position - previous.position).length)
                #expect(abs(pose.angle - previous.angle) < 0.05, "n = \(n): the angle jumped")
            }
            previous = pose
        }
        // One lap's chord length per step: 2πr / (duration / dt) along the arc.
        let expected = 2 * Double.pi * radius * dt / duration
        let worst = stepLengths.map { abs($0 - expected) }.max() ?? .infinity
        // Measured: at most 4.4e-4 from it, and 2.9e-4 between the shortest and longest step.
        #expect(worst < 1e-3, "a step strays \(worst) from \(expected)")
        let spread = (stepLengths.max() ?? 0) - (stepLengths.min() ?? 0)
        #expect(spread < 5e-4, "steps vary by \(spread)")
        // Three laps turn the body three whole turns, continuously.
        let start = track.pose(at: 0).angle, end = track.pose(at: 3 * duration).angle
        #expect(abs(end - start - 6 * Double.pi) < 1e-9)
        #expect(abs(start - Double.pi / 2) < 1e-12)
    }

    @Test func autoReverseIsAutoPlusPiAndNoneKeepsTheBodyAngle() {
        let points = Self.circle(Vec2(0, 0), 100)
        let auto = KinematicPath.bezier(points: points, duration: 3, rotationMode: .auto, repeat: .loop).track()
        let reverse = KinematicPath.bezier(points: points, duration: 3, rotationMode: .autoReverse, repeat: .loop)
            .track()
        let fixed = KinematicPath.bezier(points: points, duration: 3, rotationMode: .none, repeat: .loop)
            .track(bodyAngle: 0.7)
        for t in stride(from: 0.0, through: 7, by: 0.013) {
            let a = auto.pose(at: t), r = reverse.pose(at: t), f = fixed.pose(at: t)
            #expect(r.position == a.position && f.position == a.position)
            #expect(r.angle == a.angle + Double.pi, "t = \(t)")
            #expect(f.angle == 0.7, "t = \(t)")
        }
        #expect(fixed.drive(step: 10, dt: 0.01).angularVelocity == 0)
    }

    @Test func aBezierPathStartsAndEndsOnItsEndPoints() {
        let points = [
            Vec2(0.1, 0.3), Vec2(40, 90), Vec2(70, -20), Vec2(100.7, 10.9), Vec2(130, 40), Vec2(160, 0), Vec2(-5, 3.3),
        ]
        let track = KinematicPath.bezier(points: points, duration: 2.5, rotationMode: .auto, repeat: .none).track()
        #expect(track.pose(at: 0).position == points[0])
        #expect(track.pose(at: 2.5).position == points[6])
        #expect(track.pose(at: 100).position == points[6])
        // The end angle is the last segment's tangent, 3·(P2 − C2), and it holds.
        let end = points[6] - points[5]
        #expect(abs(Self.angleDifference(track.pose(at: 100).angle, atan2(end.y, end.x))) < 1e-12)
    }

    @Test func pacedMotionIsUniformWhereTheParameterIsNot() {
        // Control points bunched at the far end: the cubic's own parameter reaches x = 83.75
        // at u = ½. Paced, the body is halfway along the 100-unit line at half the duration.
        let points = [Vec2(0, 0), Vec2(90, 0), Vec2(100, 0), Vec2(100, 0)]
        let track = KinematicPath.bezier(points: points, duration: 1, rotationMode: .auto, repeat: .none).track()
        for fraction in [0.1, 0.25, 0.5, 0.75, 0.9] {
            // The chord table's linear step from distance to parameter errs most where the
            // parametric speed falls fastest (to 0 at u = 1): measured 0.014 here.
            #expect(abs(track.pose(at: fraction).position.x - 100 * fraction) < 0.05, "at \(fraction)")
        }
        // B′(1) = 0 here (C2 = P1): the last chord's direction stands in for the tangent.
        #expect(track.pose(at: 1).angle == 0)
    }

    @Test func aCuspTakesItsChordsDirection() {
        // B′(½) = 0.75·(1, 1) + 1.5·(−1, 0) + 0.75·(1, −1) = (0, 0): a cusp at u = ½.
        let paced = PacedBezierPath(points: [Vec2(0, 0), Vec2(1, 1), Vec2(0, 1), Vec2(1, 0)])
        let cusp = PacedBezierPath.Place(chord: 32, segment: 0, u: 0.5)
        #expect(paced.derivative(segment: 0, at: 0.5) == .zero)
        #expect(paced.tangentAngle(at: cusp) == paced.chordAngles[32])
        #expect(paced.tangentAngle(at: cusp).isFinite)
        let track = KinematicPath.bezier(points: paced.points, duration: 1, rotationMode: .auto, repeat: .none).track()
        for n in 0...1000 { #expect(track.pose(at: Double(n) / 1000).angle.isFinite) }
    }

    @Test func aZeroTangentAtTheEndsTakesTheChordsDirection() {
        // C1 = P0 and C2 = P1 with P0 above P1: B′ vanishes at both ends.
        let points = [Vec2(0, 10), Vec2(0, 10), Vec2(0, 0), Vec2(0, 0)]
        let track = KinematicPath.bezier(points: points, duration: 1, rotationMode: .auto, repeat: .pingpong).track()
        for t in [0, 0.5, 1, 1.5, 2] {
            let angle = track.pose(at: t).angle
            #expect(abs(Self.angleDifference(angle, -Double.pi / 2)) < 1e-12, "t = \(t): \(angle)")
        }
    }

    @Test func pingpongOnABezierRetracesTheForwardPass() {
        let track = KinematicPath.bezier(
            points: Self.circle(Vec2(0, 0), 50), duration: 2, rotationMode: .auto,
            repeat: .pingpong
        ).track()
        for x in stride(from: 0.0, through: 2, by: 0.07) {
            let forward = track.pose(at: 2 - x), back = track.pose(at: 2 + x)
            #expect((back.position - forward.position).length < 1e-9, "x = \(x)")
            #expect(abs(back.angle - forward.angle) < 1e-9, "x = \(x)")
        }
    }

    @Test func theArcLengthTableUsesSixtyFourChordsPerSegment() {
        let paced = PacedBezierPath(points: Self.circle(Vec2(0, 0), 100))
        #expect(PacedBezierPath.chordsPerSegment == 64)
        #expect(paced.cumulative.count == 4 * 64 + 1)
        // The length of the k = 0.5523 approximation is within 0.03% of the circle's.
        #expect(abs(paced.length - 2 * Double.pi * 100) < 0.2)
    }
}
