internal import CProcessControl
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ties a child `tiltbox` that `batch` started to its parent, so the child dies with it.
///
/// `batch` starts each job as a child with `TILTBOX_BATCH_PARENT` set to its own process
/// id and `TILTBOX_BATCH_SCRATCH` to the job's scratch files (without extension). The
/// child's `tie()`, the first thing `main` does, asks the kernel for `deathSignal` (SIGUSR1)
/// when the parent dies (`prctl(PR_SET_PDEATHSIG)`) and then checks that the parent has not
/// died already (`getppid()`). Until `InterruptSignal.install()` handles it, SIGUSR1 ends the
/// child at once (nothing is written yet); afterwards it marks the child `orphaned` and
/// stops the run as SIGTERM does. A signal of its own, not SIGTERM: the batch sends its
/// children SIGTERM itself when it is interrupted, and then they publish as usual. And not
/// `getppid()` alone: when a multi-threaded parent dies, the kernel may first hand its
/// children to another of its dying threads, so for a moment they still see its pid. A child whose parent is gone (`isGone`) publishes nothing: its trace is
/// discarded instead of renamed into place (`TraceWriter.finish`), and `removeScratch()`
/// removes its files in the dead batch's scratch folder, and the folder once empty.
@_spi(Tools) public enum BatchParent {
    /// The environment variable holding the batch's process id.
    public static let parentVariable = "TILTBOX_BATCH_PARENT"
    /// The environment variable holding the job's scratch files' path without extension.
    public static let scratchVariable = "TILTBOX_BATCH_SCRATCH"
    /// The extensions of a job's scratch files (`N.stdout`, `N.stderr`, `N.summary.json`).
    public static let scratchExtensions = ["stdout", "stderr", "summary.json"]

    /// The signal the kernel sends a batch child when its batch dies.
    public static let deathSignal = SIGUSR1

    /// Set (by `InterruptSignal`'s handler) once `deathSignal` has arrived.
    static let orphaned = Atomic<Bool>(false)

    /// The batch's process id when this process is a batch child, else nil.
    public static let expected: pid_t? = {
        guard let text = getenv(parentVariable).map({ String(cString: $0) }), let pid = pid_t(text), pid > 1 else {
            return nil
        }
        return pid
    }()

    /// Asks for SIGTERM when the parent dies; exits 143 at once when it is already gone.
    /// Does nothing in a process `batch` did not start.
    public static func tie() {
        guard let expected else { return }
        _ = tiltbox_set_parent_death_signal(deathSignal)
        // The parent may have died before the request: then no signal will come.
        if getppid() != expected {
            removeScratch()
            _exit(128 + SIGTERM)
        }
    }

    /// True in a batch child whose batch has died: its outputs must not appear.
    public static var isGone: Bool {
        guard let expected else { return false }
        return orphaned.load(ordering: .relaxed) || getppid() != expected
    }

    /// Removes this child's scratch files and the scratch folder once empty, when the
    /// batch is gone (a living batch reads them, then removes the folder itself).
    public static func removeScratch() {
        guard isGone, let base = getenv(scratchVariable).map({ String(cString: $0) }), !base.isEmpty else { return }
        for suffix in scratchExtensions { unlink("\(base).\(suffix)") }
        if let slash = base.lastIndex(of: "/") {
            // Fails while another orphaned job still has files there; the last one removes it.
            rmdir(String(base[..<slash]))
        }
    }
}
