import Testing

@_spi(Tools) @testable import Tiltbox

/// Whatever the loader accepts must be safe to hand to Chipmunk, whose debug build
/// aborts the whole process on a failed assertion. These scenes sit at the limits.
@Suite struct ScenarioEngineTests {
    /// Steps `world` up to `steps` times, stopping at the first divergence as the stepper does.
    func run(_ scenario: Scenario, steps: Int) -> (steps: Int, diverged: WorldDivergence?) {
        let world = World(scenario: scenario)
        var buffer = [Double](repeating: 0, count: world.bodies.count * 6)
        for step in 0..<steps {
            world.step(dt: scenario.timestep.dt)
            let divergence = buffer.withUnsafeMutableBufferPointer { out in
                world.readStates(into: out)
                return world.firstDivergence(in: UnsafeBufferPointer(out))
            }
            if let divergence { return (step + 1, divergence) }
        }
        return (steps, nil)
    }

    @Test func formatsExampleRuns() throws {
        let scenario = try loadScenario(formatsExample)
        let result = run(scenario, steps: 240)
        #expect(result.diverged == nil)
    }

    @Test func extremeButValidValuesDoNotAbortTheEngine() throws {
        let text = scenarioText(
            world:
                #""size": [1000000, 1000000], "gravity": [1000000, -1000000], "iterations": 1000, "damping": 0, "collisionSlop": 100000"#,
            """
            "timestep": { "hz": 100000, "maxStepsPerFrame": 10000 },
              "duration": 0.01,
              "walls": { "radius": 100000, "friction": 1000, "elasticity": 1000 },
              "crates": [
                { "id": "speck", "position": [1, 1], "size": [0.001, 0.001], "mass": 1e-9,
                  "velocity": [-10000000, 10000000], "angularVelocity": 1000000, "angle": 1000000,
                  "friction": 1000, "elasticity": 1000 },
                { "id": "slab", "position": [500000, 500000], "size": [100000, 100000], "mass": 1e12,
                  "velocity": [10000000, -10000000], "angularVelocity": -1000000, "angle": -1000000,
                  "friction": 0, "elasticity": 0 },
                { "id": "near", "position": [500000, 500000], "size": [0.001, 100000], "mass": 1e-9 }
              ]
            """)
        let scenario = try loadScenario(text)
        _ = run(scenario, steps: 200)
    }

    @Test func smallestAllowedHashCellsRun() throws {
        let text = scenarioText(
            world: #""size": [480, 320], "spatialIndex": {"hash": {"cellSize": 0.5, "count": 1}}"#,
            """
            "walls": { "radius": 0 },
              "grids": [{ "origin": [20, 20], "columns": 4, "rows": 2, "spacing": [40, 40], "crate": { "size": [30, 30] } }]
            """)
        let scenario = try loadScenario(text)
        #expect(scenario.world.spatialIndex == .hash(cellSize: 0.5, count: 1))
        let result = run(scenario, steps: 60)
        #expect(result.diverged == nil)
    }
}
