import Foundation
@_spi(Tools) import Tiltbox

/// Writes for people and data for pipes: messages on standard error, summaries and data
/// on standard output, and a self-erasing progress line when standard error is a terminal.
///
/// Every write can fail and throws `ConsoleWriteError` (never `FileHandle.write(_:)`, which
/// traps). `main` ends a command whose output pipe was closed quietly with status 141, and
/// any other write error with status 1 and one message (docs/formats.md §7).
enum Console {
    /// Standard output or standard error.
    enum Stream: Sendable {
        case output, error

        var descriptor: Int32 { self == .output ? STDOUT_FILENO : STDERR_FILENO }
        var name: String { self == .output ? "standard output" : "standard error" }
    }

    /// Writes `text` as one line on standard error, control characters escaped
    /// (`InertText`) so a message is always one line and cannot drive the terminal.
    static func error(_ text: String) throws(ConsoleWriteError) {
        try write(InertText.escape(text) + "\n", to: .error)
    }

    /// Writes `text` as one line on standard output, control characters escaped.
    static func out(_ text: String) throws(ConsoleWriteError) {
        try write(InertText.escape(text) + "\n", to: .output)
    }

    /// Writes `text` exactly as given (data such as CSV rows, help text, or the progress
    /// line's own terminal codes).
    static func write(_ text: String, to stream: Stream) throws(ConsoleWriteError) {
        do {
            try DescriptorOutput.writeAll(stream.descriptor, text)
        } catch {
            throw ConsoleWriteError(stream: stream, code: error.code)
        }
    }

    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) != 0 }
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) != 0 }
}

/// Standard output or standard error could not be written.
struct ConsoleWriteError: Error, OutputFailure {
    var stream: Console.Stream
    var code: Int32
    var message: String { "cannot write to \(stream.name): \(String(cString: strerror(code)))" }
}

/// A one-line progress report on standard error for long headless runs, redrawn in
/// place at most five times a second and erased at the end.
///
/// Drawing happens in the run's frame callback, which cannot throw: the first write
/// error stops the drawing and is kept for `finish()` to throw once the run is over.
struct ProgressLine {
    private let enabled: Bool
    private let startedAt: Double
    private var lastDraw: Double = 0
    private var drawn = false
    private var failure: ConsoleWriteError?

    init(enabled: Bool, now: Double) {
        self.enabled = enabled
        self.startedAt = now
    }

    /// Draws the line when it is enabled and due; `now` (the clock) is read only then, so a
    /// run without a progress line reads no clock per frame.
    mutating func update(step: Int, of total: Int, simulatedTime: Double, now readClock: () -> Double) {
        guard enabled, failure == nil else { return }
        let now = readClock()
        guard now - lastDraw >= 0.2, now - startedAt >= 0.5 else { return }
        lastDraw = now
        drawn = true
        let percent = total > 0 ? 100 * Double(step) / Double(total) : 100
        let rate = Double(step) / max(now - startedAt, 1e-9)
        let text = String(
            format: "\r\u{1B}[K  step %d/%d (%.0f%%)  t = %.2f s  %.0f steps/s", step, total, percent, simulatedTime,
            rate)
        do { try Console.write(text, to: .error) } catch { failure = error }
    }

    /// Erases the line, if one was drawn.
    mutating func clear() throws(ConsoleWriteError) {
        guard drawn, failure == nil else { return }
        drawn = false
        try Console.write("\r\u{1B}[K", to: .error)
    }

    /// Erases the line and throws the first write error met while drawing, if any.
    mutating func finish() throws(ConsoleWriteError) {
        if let failure { throw failure }
        try clear()
    }
}
