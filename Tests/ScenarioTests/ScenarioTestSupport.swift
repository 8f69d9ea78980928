import Testing

@_spi(Tools) @testable import Tiltbox

/// Parses scenario text as if it were the file `file`.
func loadScenario(_ text: String, file: String = "Scenarios/test.json", base: String? = "Scenarios") throws(InputError)
    -> Scenario
{
    try ScenarioLoader.parse(text: text, file: file, baseDirectory: base)
}

/// The error a scenario text produces, or `nil` when it loads.
func loadError(_ text: String, file: String = "Scenarios/test.json") -> InputError? {
    do {
        _ = try loadScenario(text, file: file)
        return nil
    } catch {
        return error
    }
}

/// A scenario with `world` inside its world object (line 3) and `extra` starting on line 4:
///
///     1 {
///     2   "format": "tiltbox-scenario/1",
///     3   "world": { WORLD },
///     4   EXTRA
///     5 }
func scenarioText(world: String = #""size": [480, 320]"#, _ extra: String = "") -> String {
    var text = "{\n  \"format\": \"tiltbox-scenario/1\",\n  \"world\": { \(world) }"
    if !extra.isEmpty { text += ",\n  \(extra)" }
    return text + "\n}\n"
}
