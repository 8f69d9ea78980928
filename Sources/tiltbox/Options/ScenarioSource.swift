@_spi(Tools) import Tiltbox

/// Where a command's scenario comes from: a file, or the built-in default.
struct ScenarioSource {
    var scenario: Scenario
    /// How messages name it: the path, or "built-in default".
    var label: String

    /// `overrides` (`--set`) are applied before validation.
    static func load(_ path: String?, overrides: [ScenarioOverride] = []) throws(InputError) -> ScenarioSource {
        if let path {
            return ScenarioSource(scenario: try ScenarioLoader.load(path: path, overrides: overrides), label: path)
        }
        return ScenarioSource(scenario: try BuiltInScenario.load(overrides: overrides),
                              label: "built-in default (\(BuiltInScenario.name))")
    }

    /// Prints `ScenarioLoader.warnings` on standard error (`validate` and `run`; the
    /// exit status is unchanged).
    func printWarnings() throws {
        try Self.printWarnings(for: scenario, label: label)
    }

    static func printWarnings(for scenario: Scenario, label: String) throws {
        for line in ScenarioLoader.warnings(for: scenario) { try Console.error("tiltbox: warning: \(label): \(line)") }
    }
}
