import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

/// Exit statuses of `tiltbox` (docs/formats.md §7).
enum ExitStatus {
    static let success: Int32 = 0
    /// Traces differ, or the simulation failed (a non-finite state, a write error).
    static let failure: Int32 = 1
    /// Bad input or usage.
    static let badInput: Int32 = 2
    /// A run stopped by a signal: 130 after Ctrl-C (SIGINT), 143 after SIGTERM
    /// (`InterruptSignal.exitStatus` is the one place that maps the signal received).
    static var interrupted: Int32 { InterruptSignal.exitStatus }
    /// An output pipe was closed: what a shell shows for a tool killed by SIGPIPE (128 + 13).
    static let closedPipe: Int32 = 141

    /// The status after `failure`: a closed pipe ends the command quietly with 141; any
    /// other write error prints one message on standard error (when that can be written)
    /// and gives 1.
    static func afterWriteFailure(_ failure: any OutputFailure) -> Int32 {
        if failure.isClosedPipe { return closedPipe }
        do {
            try Console.error("tiltbox: \(failure.message)")
        } catch {
            // Standard error cannot take the message either; the status still tells.
        }
        return ExitStatus.failure
    }

    /// Prints `lines` on standard error (each made inert and one line) and returns `status`;
    /// if standard error cannot be written, the status of that write failure instead.
    static func reporting(_ lines: String..., status: Int32) -> Int32 {
        do {
            for text in lines {
                var text = Substring(text)
                while text.hasSuffix("\n") { text = text.dropLast() }
                for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
                    try Console.error(String(line))
                }
            }
        } catch {
            return afterWriteFailure(error)
        }
        return status
    }
}

/// Output that could not be written: standard output or error, a trace, the live view's
/// terminal. `main` maps it to an exit status with `ExitStatus.afterWriteFailure`.
protocol OutputFailure: Error {
    /// The `errno` value of the failed write.
    var code: Int32 { get }
    /// One line for the user, without the `tiltbox: ` prefix.
    var message: String { get }
}

extension OutputFailure {
    /// True when the reader went away (`EPIPE`, with SIGPIPE ignored).
    var isClosedPipe: Bool { code == EPIPE }
}

extension TraceWriteError: OutputFailure {
    var message: String { description }
}

extension DescriptorWriteError: OutputFailure {
    /// Only the live view's terminal reaches the command line as a bare descriptor error.
    var message: String { "cannot write to the terminal: \(description)" }
}
