import Tiltbox

/// Where a command's scenario comes from: a file, or the built-in default.
struct ScenarioSource {
    var scenario: Scenario
    /// How messages name it: the path, or "built-in default".
    var label: String

    static func load(_ path: String?) throws(InputError) -> ScenarioSource {
        if let path {
            return ScenarioSource(scenario: try ScenarioLoader.load(path: path), label: path)
        }
        return ScenarioSource(scenario: try BuiltInScenario.load(), label: "built-in default (\(BuiltInScenario.name))")
    }
}
