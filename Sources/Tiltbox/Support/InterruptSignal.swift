#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Turns SIGINT (Ctrl-C) and SIGTERM into a flag the run loop polls between steps,
/// so a run can close its trace with an `interrupted` end line instead of dying mid-line.
@_spi(Tools) public enum InterruptSignal {
    private static let received = Atomic<Int32>(0)

    /// Installs the handlers. After this, Ctrl-C no longer kills the process: the run
    /// loop must poll `isRaised`.
    public static func install() {
        installSignalHandler([SIGINT, SIGTERM]) { signal in InterruptSignal.received.store(signal, ordering: .relaxed) }
        // A parent may have started us with these signals blocked (a blocked mask is
        // inherited across exec); unblock them so Ctrl-C and SIGTERM always arrive.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    }

    /// True once SIGINT or SIGTERM has arrived.
    public static var isRaised: Bool { received.load(ordering: .relaxed) != 0 }

    /// The signal that arrived, or 0.
    public static var signal: Int32 { received.load(ordering: .relaxed) }

    /// The exit status of a run this signal ended, as shells report a death by signal:
    /// 128 + the signal number, so 130 after SIGINT and 143 after SIGTERM (130 when none
    /// arrived, for a run stopped another way). The one place signal maps to status.
    public static var exitStatus: Int32 {
        let raised = signal
        return 128 + (raised == 0 ? SIGINT : raised)
    }
}
