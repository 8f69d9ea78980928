import ArgumentParser

/// Exit statuses of `tiltbox` (FORMATS.md §4).
enum ExitStatus {
    static let success: Int32 = 0
    /// Traces differ, or the simulation failed (a non-finite state, a write error).
    static let failure: Int32 = 1
    /// Bad input or usage.
    static let badInput: Int32 = 2
    /// Ctrl-C or SIGTERM.
    static let interrupted: Int32 = 130
}
