#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Installs `handler` for each of `signals` with `sigaction` (no flags, empty mask).
/// Handlers here only store into an atomic that a loop polls.
func installSignalHandler(_ signals: [Int32], _ handler: @convention(c) (Int32) -> Void) {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = handler // glibc's layout: Tiltbox runs on Linux
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    for signal in signals { sigaction(signal, &action, nil) }
}
