@_spi(Tools) import Tiltbox

/// How `run` and `test` show a run's expectations: one line per failure (FILE: expect[i]
/// ("name"): at t = T s (step N), ...), and a count of those that hold.
enum ExpectationLines {
    /// `expectations:   4 of 5 hold` (the summary's layout).
    static func count(_ results: [ExpectationResult]) -> String {
        let unreached = results.notReachedCount
        return "expectations:   \(results.holdingCount) of \(results.count) hold"
            + (unreached > 0 ? ", \(unreached) not reached (the run ended before their windows did)" : "")
    }

    /// Prints the count (unless `quiet`) and then each failure with `print`.
    static func print(
        _ results: [ExpectationResult], file: String, quiet: Bool, to print: (String) throws -> Void
    ) throws {
        guard !results.isEmpty else { return }
        if !quiet { try print(count(results)) }
        for result in results { if let line = result.line(file: file) { try print(line) } }
    }
}
