import Foundation

/// Writes for people: messages on standard error, summaries on standard output,
/// and a self-erasing progress line when standard error is a terminal.
enum Console {
    static func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    static func out(_ text: String) {
        FileHandle.standardOutput.write(Data((text + "\n").utf8))
    }

    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
}

/// A one-line progress report on standard error for long headless runs, redrawn in
/// place at most five times a second and erased at the end.
struct ProgressLine {
    private let enabled: Bool
    private let startedAt: Double
    private var lastDraw: Double = 0
    private var drawn = false

    init(enabled: Bool, now: Double) {
        self.enabled = enabled
        self.startedAt = now
    }

    mutating func update(step: Int, of total: Int, simulatedTime: Double, now: Double) {
        guard enabled, now - lastDraw >= 0.2, now - startedAt >= 0.5 else { return }
        lastDraw = now
        drawn = true
        let percent = total > 0 ? 100 * Double(step) / Double(total) : 100
        let rate = Double(step) / max(now - startedAt, 1e-9)
        let text = String(format: "\r\u{1B}[K  step %d/%d (%.0f%%)  t = %.2f s  %.0f steps/s", step, total, percent, simulatedTime, rate)
        FileHandle.standardError.write(Data(text.utf8))
    }

    mutating func clear() {
        guard drawn else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        drawn = false
    }
}
