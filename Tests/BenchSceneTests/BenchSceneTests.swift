import CReferencePile
import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The benchmark compares Tiltbox with a raw-Chipmunk twin of the same scene; these
/// tests prove the two are the same scene (bit-identical start, bit-identical states
/// after 120 steps), so the benchmark's ratios compare like with like. No timing here.
@Suite struct BenchSceneTests {
    init() {
        // Let Tiltbox create the process's first space: it silences Debian's debug banner.
        _ = World(scenario: BenchmarkPile.scenario(n: 1))
    }

    @Test func cratePositionsMatchTheCSceneBitForBit() {
        for n in [1, 7, 100, 1_000] {
            let positions = BenchmarkPile.positions(n: n)
            #expect(BenchmarkPile.worldSize(n: n).bitPattern == reference_pile_world_size(Int32(n)).bitPattern)
            for i in Set([0, 1, n / 2, n - 1]) where i < n {
                var xy = [0.0, 0.0]
                reference_pile_crate_position(Int32(n), BenchmarkPile.defaultSeed, Int32(i), &xy)
                #expect(positions[i].x.bitPattern == xy[0].bitPattern, "n=\(n) crate \(i) x")
                #expect(positions[i].y.bitPattern == xy[1].bitPattern, "n=\(n) crate \(i) y")
            }
        }
    }

    /// Runs `scenario` for `steps` steps under its constant gravity and hashes the final
    /// states as the C pile's `reference_pile_state_hash` does (FNV-1a 64 over the six fields).
    static func stateHash(of scenario: Scenario, afterSteps steps: Int) throws -> UInt64 {
        let session = RunSession(scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: steps)
        var clock = SteadyClock(hz: 60)
        #expect(try session.run(clock: &clock, shouldStop: { false }) == .complete)
        return session.withCurrentStates { states in
            var digest = TraceDigest()
            for value in states { digest.add(value) }
            return digest.value
        }
    }

    @Test func tiltboxAndTheCLoopEndIn120StepsWithTheSameStateHash() throws {
        let n = 100, steps = 120
        let scenario = BenchmarkPile.scenario(n: n)
        let swiftHash = try Self.stateHash(of: scenario, afterSteps: steps)

        let pile = try #require(reference_pile_new(Int32(n), BenchmarkPile.defaultSeed))
        defer { reference_pile_free(pile) }
        let startHash = reference_pile_state_hash(pile)
        reference_pile_step(pile, Int32(steps))
        let cHash = reference_pile_state_hash(pile)

        #expect(cHash != startHash, "the pile must move, or equal hashes prove nothing")
        #expect(swiftHash == cHash)
    }

    /// The C pile calls no space setter (Chipmunk's own defaults); Tiltbox reading the
    /// pile from a scenario file that sets none gets the same defaults and the same state.
    @Test func aScenarioFileThatSetsNothingEndsWithTheCPilesStateHash() throws {
        let n = 100, steps = 600
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("bench-pile-\(UUID().uuidString).json")
            .path
        try BenchmarkPile.scenarioJSON(n: n).write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        #expect(!BenchmarkPile.scenarioJSON(n: n).contains("collisionSlop"), "the file sets no space setting")
        let scenario = try ScenarioLoader.load(path: file)
        #expect(SpaceSettings.effective(for: scenario.world) == SpaceSettings.chipmunkDefaults)
        let swiftHash = try Self.stateHash(of: scenario, afterSteps: steps)
        let pile = try #require(reference_pile_new(Int32(n), BenchmarkPile.defaultSeed))
        defer { reference_pile_free(pile) }
        reference_pile_step(pile, Int32(steps))
        #expect(swiftHash == reference_pile_state_hash(pile))
    }

    @Test func aDifferentSeedGivesADifferentPile() throws {
        // The hash test can fail: a C scene off by one jitter draw ends elsewhere.
        let a = try #require(reference_pile_new(100, BenchmarkPile.defaultSeed))
        let b = try #require(reference_pile_new(100, BenchmarkPile.defaultSeed + 1))
        defer { reference_pile_free(a); reference_pile_free(b) }
        reference_pile_step(a, 120)
        reference_pile_step(b, 120)
        #expect(reference_pile_state_hash(a) != reference_pile_state_hash(b))
    }
}
