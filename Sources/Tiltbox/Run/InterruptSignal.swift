import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Turns SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal closed) and SIGQUIT (Ctrl-\) into a
/// flag the run loop polls between steps, so a run can close its trace with an
/// `interrupted` end line instead of dying mid-line. The exit status is 128 + the signal:
/// 130, 143, 129 and 131.
///
/// A run stuck inside one physics step never polls the flag: `InterruptWatchdog` (started by
/// `install()`) closes such a run's trace itself about a second after the signal and exits.
@_spi(Tools) public enum InterruptSignal {
    private static let received = Atomic<Int32>(0)

    /// The signals that end a command cleanly, in the order they are documented.
    public static let handled: [Int32] = [SIGINT, SIGTERM, SIGHUP, SIGQUIT]

    /// Installs the handlers and starts the watchdog. After this, Ctrl-C no longer kills
    /// the process: the run loop must poll `isRaised`.
    public static func install() {
        InterruptWatchdog.start()
        // A batch child also stops when its batch dies (`BatchParent`), as after SIGTERM.
        let signals = handled + (BatchParent.expected == nil ? [] : [BatchParent.deathSignal])
        // Every static the handler reads is initialized here, never first in the handler:
        // Swift initializes a static lazily (`swift_once`, which takes a lock), and a handler
        // that did so on a thread the signal interrupted inside another initialization would
        // wait for itself for ever. (A Ctrl-C early in a live view hung, about one run in
        // eight of the timing suites; a lazy static first read in this handler is the likely
        // cause, as the hang never reached the flag store that follows it.)
        _ = BatchParent.orphaned.load(ordering: .relaxed)
        _ = BatchParent.deathSignal
        _ = received.load(ordering: .relaxed)
        installSignalHandler(signals) { signal in
            // Only async-signal-safe work here: atomic stores and `sem_post`.
            var raised = signal
            if signal == BatchParent.deathSignal {
                BatchParent.orphaned.store(true, ordering: .relaxed)
                raised = SIGTERM
            }
            _ = InterruptSignal.received.compareExchange(expected: 0, desired: raised, ordering: .relaxed)
            InterruptWatchdog.wake()
        }
        // A parent may have started us with these signals blocked (a blocked mask is
        // inherited across exec); unblock them so Ctrl-C and SIGTERM always arrive.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for signal in signals { sigaddset(&unblock, signal) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// True once one of the `handled` signals has arrived.
    public static var isRaised: Bool { received.load(ordering: .relaxed) != 0 }

    /// The first signal that arrived, or 0.
    public static var signal: Int32 { received.load(ordering: .relaxed) }

    /// The exit status of a run this signal ended, as shells report a death by signal:
    /// 128 + the signal number, so 130 after SIGINT, 143 after SIGTERM, 129 after SIGHUP and
    /// 131 after SIGQUIT (130 when none arrived, for a run stopped another way). The one
    /// place signal maps to status.
    public static var exitStatus: Int32 {
        let raised = signal
        return 128 + (raised == 0 ? SIGINT : raised)
    }

    /// The signal's name for messages: `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGQUIT`.
    public static var signalName: String {
        switch signal {
        case SIGTERM: "SIGTERM"
        case SIGHUP: "SIGHUP"
        case SIGQUIT: "SIGQUIT"
        default: "SIGINT"
        }
    }
}
