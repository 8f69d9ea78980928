import ArgumentParser
import Tiltbox

/// Exit statuses of `tiltbox` (FORMATS.md §7).
enum ExitStatus {
    static let success: Int32 = 0
    /// Traces differ, or the simulation failed (a non-finite state, a write error).
    static let failure: Int32 = 1
    /// Bad input or usage.
    static let badInput: Int32 = 2
    /// A run stopped by a signal: 130 after Ctrl-C (SIGINT), 143 after SIGTERM.
    static var interrupted: Int32 { InterruptSignal.exitStatus }
}
