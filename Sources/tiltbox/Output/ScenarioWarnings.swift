@_spi(Tools) import Tiltbox

/// How a command prints a scenario's warnings (`RunPlan.warnings`, `ScenarioLoader.warnings`).
enum ScenarioWarnings {
    /// Prints `warnings` on standard error, each after `label` (`validate` and `run`; the
    /// exit status is unchanged).
    static func print(_ warnings: [String], label: String) throws {
        for line in warnings { try Console.error("tiltbox: warning: \(label): \(line)") }
    }
}
