import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// A lone crate under constant gravity, far from every wall, against a plain Swift replay
/// of Chipmunk's integration order and against the closed form.
@Suite struct FreeFallTests {
    static let gravity = Vec2(3.25, -980)
    static let start = Vec2(1000, 900_000)
    static let startVelocity = Vec2(12.5, 40)

    static func scenario(damping: Double = 1) -> Scenario {
        Scenario(
            name: "free-fall", world: WorldSettings(size: Vec2(2000, 1_000_000), gravity: gravity, damping: damping),
            walls: WallSettings(box: false),
            crates: [CrateSpec(id: "a", position: start, velocity: startVelocity, angularVelocity: 0.5)])
    }

    /// Chipmunk's `cpBodyUpdatePosition` then `cpBodyUpdateVelocity`, written out:
    /// the position moves with the old velocity, then the velocity is damped by
    /// `damping^dt` and gains `gravity·dt`.
    static func replay(steps: Int, dt: Double, damping: Double = 1) -> (Vec2, Vec2, Double) {
        var p = start, v = startVelocity, a = 0.0
        let w = 0.5
        let d = pow(damping, dt)
        for _ in 0..<steps {
            p = Vec2(p.x + (v.x + 0) * dt, p.y + (v.y + 0) * dt)
            a = a + (w + 0) * dt
            v = Vec2(v.x * d + (gravity.x + 0) * dt, v.y * d + (gravity.y + 0) * dt)
        }
        return (p, v, a)
    }

    @Test(arguments: [1, 10, 1200])
    func crateFollowsChipmunkIntegrationOrderBitForBit(steps: Int) {
        let world = World(scenario: Self.scenario())
        let dt = 1.0 / 120
        for _ in 0..<steps { world.step(dt: dt) }
        let state = world.bodies[0].state
        let (p, v, a) = Self.replay(steps: steps, dt: dt)
        #expect(state.position.x.bitPattern == p.x.bitPattern)
        #expect(state.position.y.bitPattern == p.y.bitPattern)
        #expect(state.velocity.x.bitPattern == v.x.bitPattern)
        #expect(state.velocity.y.bitPattern == v.y.bitPattern)
        #expect(state.angle.bitPattern == a.bitPattern)
        #expect(state.angularVelocity == 0.5)
    }

    @Test func dampingIsAppliedAsDampingToThePowerDt() {
        let world = World(scenario: Self.scenario(damping: 0.8))
        let dt = 1.0 / 120
        for _ in 0..<10 { world.step(dt: dt) }
        let (p, v, _) = Self.replay(steps: 10, dt: dt, damping: 0.8)
        #expect(world.bodies[0].state.velocity.y.bitPattern == v.y.bitPattern)
        #expect(world.bodies[0].state.position.y.bitPattern == p.y.bitPattern)
    }

    @Test(arguments: [1, 10, 1200])
    func crateMatchesClosedFormWithinOnePartPerBillion(steps: Int) {
        let world = World(scenario: Self.scenario())
        let dt = 1.0 / 120
        for _ in 0..<steps { world.step(dt: dt) }
        let state = world.bodies[0].state
        let n = Double(steps)
        // Position advanced with the old velocity: p_n = p0 + n·v0·dt + g·dt²·n(n−1)/2.
        let px = Self.start.x + n * Self.startVelocity.x * dt + Self.gravity.x * dt * dt * n * (n - 1) / 2
        let py = Self.start.y + n * Self.startVelocity.y * dt + Self.gravity.y * dt * dt * n * (n - 1) / 2
        let vy = Self.startVelocity.y + Self.gravity.y * n * dt
        func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-9 * max(abs(b), 1) }
        #expect(close(state.position.x, px))
        #expect(close(state.position.y, py))
        #expect(close(state.velocity.y, vy))
    }
}
