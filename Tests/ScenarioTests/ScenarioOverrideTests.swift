import Testing

@_spi(Tools) @testable import Tiltbox

/// `--set PATH=JSON` applied to the parsed scenario before validation (`ScenarioOverride`).
@Suite struct ScenarioOverrideTests {
    private func overrides(_ arguments: [String]) throws(InputError) -> [ScenarioOverride] {
        var parsed: [ScenarioOverride] = []
        for argument in arguments { parsed.append(try ScenarioOverride(argument: argument)) }
        return parsed
    }

    private func builtIn(_ arguments: String...) throws -> Scenario {
        try BuiltInScenario.load(overrides: overrides(arguments))
    }

    /// The message of the error the overrides give, or `nil` when the scenario loads.
    private func error(_ arguments: String...) -> String? {
        do {
            _ = try BuiltInScenario.load(overrides: overrides(arguments))
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test func aValueReplacesTheOneInTheFile() throws {
        let scenario = try builtIn("world.gravity=[0,-500]", "crates[2].size=[10,12]")
        #expect(scenario.world.gravity == Vec2(0, -500))
        #expect(scenario.crates[2].size == Vec2(10, 12))
        #expect(scenario.crates[1].size == Vec2(60, 30))
    }

    @Test func aWildcardAppliesToEveryElement() throws {
        let scenario = try builtIn("crates[*].friction=0.3")
        #expect(scenario.crates.count == 6)
        #expect(scenario.crates.allSatisfy { $0.friction == 0.3 })
    }

    @Test func aMissingObjectAndKeyAreAdded() throws {
        // The built-in scenario has no "timestep".
        let scenario = try builtIn("timestep.hz=240")
        #expect(scenario.timestep.hz == 240)
        #expect(scenario.timestep.maxStepsPerFrame == TimestepSettings().maxStepsPerFrame)
    }

    @Test func laterOverridesWin() throws {
        let scenario = try builtIn("crates[*].friction=0.3", "crates[0].friction=0.9")
        #expect(scenario.crates.map(\.friction) == [0.9, 0.3, 0.3, 0.3, 0.3, 0.3])
    }

    @Test func aValueTheLoaderRefusesNamesTheSetAndTheField() {
        #expect(error("crates[*].friction=-1")?.hasPrefix("--set crates[*].friction=-1: crates[0].friction: ") == true)
        #expect(error("world.size=[0,0]")?.hasPrefix("--set world.size=[0,0]: world.size") == true)
    }

    @Test func badPathsAreRefusedNamingTheSet() {
        #expect(
            error("crates[*].frction=1")?.hasPrefix(
                #"--set crates[*].frction=1: unknown key "frction" in crates[0] (did you mean "friction"?)"#) == true)
        #expect(
            error("crates[9].size=[1,1]")
                == "--set crates[9].size=[1,1]: index 9 is out of range: crates has 6 elements")
        #expect(error("world[*]=1") == "--set world[*]=1: world is an object, not an array: [*] cannot apply")
        #expect(
            error("crates.friction=1")
                == #"--set crates.friction=1: crates is an array, not an object with a key "friction""#)
        #expect(
            error("segments[0].radius=1")
                == "--set segments[0].radius=1: segments is not in the scenario: there is no array to index")
        #expect(
            error("world.gravity")
                == "--set world.gravity: expected PATH=JSON, such as world.gravity=[0,-500] or 'crates[*].friction=0.3'"
        )
        #expect(
            error("crates[x].size=1")?.hasPrefix(
                #"--set crates[x].size=1: bad path "crates[x].size": [x] is not an index or [*]"#) == true)
        #expect(error("name=pile")?.hasPrefix("--set name=pile: the value is not JSON") == true)
    }

    @Test func mergingReplacesThePathAndAppendsTheRest() throws {
        let header = try overrides(["timestep.hz=240", "world.gravity=[0,-500]"])
        let given = try overrides(["world.gravity=[0,-400]", "crates[*].friction=0.3"])
        let merged = ScenarioOverride.merged(header, given)
        #expect(
            merged.map(\.argument) == [
                "--set timestep.hz=240", "--set world.gravity=[0,-400]", "--set crates[*].friction=0.3",
            ])
    }

    @Test func theValueIsKeptAsCompactJSON() throws {
        let override = try ScenarioOverride(argument: "world.gravity=[ 0 , -500.50 ]")
        #expect(override.json == "[0,-500.5]")
        #expect(override.path == "world.gravity")
    }
}
