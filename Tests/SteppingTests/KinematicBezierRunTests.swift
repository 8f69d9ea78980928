import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// A kinematic body riding a circle made of four cubic Béziers (control distance
/// k·r, k = 0.5523), run through `RunSession`: what Chipmunk records is the path's pose,
/// on the circle, at constant speed, facing along the tangent (`rotationMode: auto`).
@Suite struct KinematicBezierRunTests {
    static let text = #"""
        {"format": "tiltbox-scenario/1", "world": {"size": [480, 320]}, "duration": 8,
         "bodies": [{"id": "rider", "type": "kinematic", "position": [300, 160],
                     "shapes": [{"circle": {"radius": 5}}],
                     "path": {"duration": 4, "rotationMode": "auto", "repeat": "loop", "bezierPath": [
                       [300, 160], [300, 215.23], [255.23, 260], [200, 260], [144.77, 260], [100, 215.23], [100, 160],
                       [100, 104.77], [144.77, 60], [200, 60], [255.23, 60], [300, 104.77], [300, 160]]}}]}
        """#

    @Test func aBodyOnABezierCircleIsRecordedOnItAtConstantSpeedFacingAlongIt() throws {
        let scenario = try ScenarioLoader.parse(text: Self.text, file: "circle.json", baseDirectory: nil)
        let path = try #require(scenario.bodies[0].path)
        let track = KinematicPathTrack(path, bodyAngle: 0)
        let collector = KinematicBodyRunTests.Collector()
        let session = RunSession(scenario: scenario, track: ConstantGravity(scenario.world.gravity), sinks: [collector])
        var clock = SteadyClock(hz: 60)
        #expect(try session.run(clock: &clock) == .complete)
        #expect(collector.records.count == scenario.totalSteps + 1)
        let dt = scenario.timestep.dt
        let centre = Vec2(200, 160), radius = 100.0
        let stepLength = 2 * Double.pi * radius * dt / 4 // one lap in 4 s
        var fromPath = 0.0, fromCircle = 0.0, fromTangent = 0.0, fromStep = 0.0
        var previous: Vec2?
        for record in collector.records {
            let position = Vec2(record.states[BodyStateLayout.x], record.states[BodyStateLayout.y])
            let angle = record.states[BodyStateLayout.angle]
            let pose = track.pose(at: Double(record.step) * dt)
            fromPath = max(fromPath, (position - pose.position).length, abs(angle - pose.angle))
            let offset = position - centre
            fromCircle = max(fromCircle, abs(offset.length - radius))
            let tangent = atan2(offset.y, offset.x) + Double.pi / 2
            fromTangent = max(fromTangent, abs((angle - tangent).remainder(dividingBy: 2 * Double.pi)))
            if let previous { fromStep = max(fromStep, abs((position - previous).length - stepLength)) }
            previous = position
        }
        #expect(fromPath <= 1e-9, "recorded pose strays \(fromPath) from the path")
        #expect(fromCircle < 0.1, "strays \(fromCircle) from the circle")
        #expect(fromTangent < 2e-3, "faces \(fromTangent) rad away from the tangent")
        // The 64-chord table's linear step from distance to parameter moves a pose by up to
        // about 1e-3 along the path: measured 2.0e-3 on a 1.309 step (0.16 %).
        #expect(fromStep < 3e-3, "a step's length strays \(fromStep) from \(stepLength)")
        // Two laps: two whole turns, continuously (the angle never jumps back by 2π).
        let last = try #require(collector.records.last)
        #expect(abs(last.states[BodyStateLayout.angle] - (Double.pi / 2 + 4 * Double.pi)) < 1e-9)
    }
}
