import Foundation

/// What a crashed child said before it died, without the Swift runtime's backtrace.
///
/// On a crash (SIGABRT from a Chipmunk assertion, SIGSEGV, a trap) Swift's backtracer
/// appends its report to standard error: `*** Signal 6: Backtracing from 0x...`, a banner
/// (`*** Program crashed: Aborted at ...`, `💣 Program crashed: ...` in colour), thread and
/// frame lists, registers, and `Backtrace took 0.01s`. None of it says what went wrong; the child's own last line before it does (a
/// Chipmunk `Aborting due to Chipmunk error: ...` report, a Swift `Fatal error: ...`).
enum CrashReport {
    /// The last non-blank line of `stderr` before the backtracer's banner (or of the
    /// whole text when there is none), trimmed; nil when there is no such line.
    static func lastMeaningfulLine(of stderr: String) -> String? {
        let lines = stderr.split(separator: "\n", omittingEmptySubsequences: true)
        let said = lines.firstIndex(where: isBacktraceBanner).map { lines[..<$0] } ?? lines[...]
        return said.lazy.reversed()
            .map { String($0).trimmingCharacters(in: .whitespaces) }
            .first { !$0.isEmpty }
    }

    /// The first line of a Swift backtrace report: `*** Signal 6: Backtracing from 0x...`,
    /// or the `Program crashed: ` banner when that line is missing.
    private static func isBacktraceBanner(_ line: Substring) -> Bool {
        (line.hasPrefix("*** Signal ") && line.contains(": Backtracing from ")) || line.contains("Program crashed: ")
    }
}
