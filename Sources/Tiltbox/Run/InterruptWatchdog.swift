import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Ends a run that does not answer a signal because it is stuck inside one physics step.
///
/// `InterruptSignal`'s handler only sets a flag the run loop polls between steps; a step
/// that never returns (Chipmunk resolving a huge pile of overlapping crates) never polls
/// it. The watchdog is a thread that sleeps on a semaphore the handler posts. When a
/// signal arrives while a run is registered (`watch(_:)`) it gives the run loop
/// `patience` (one second) to acknowledge it (`RunWatch.acknowledge()`); if the loop has
/// not, the watchdog takes the run over (`RunWatch.takeOver()`): it closes the trace with
/// the `interrupted` end line over the records already handed to the writer, publishes it
/// as an interrupted run does, writes one line on standard error and ends the process with
/// `_exit(128 + signal)`. The stuck thread is never touched; the run loop, should its step
/// return, parks at its next hand-off (see `RunWatch`).
@_spi(Tools) public enum InterruptWatchdog {
    /// How long the run loop has to acknowledge a signal before the watchdog acts.
    public static let patience: Double = 1.0
    /// How long the watchdog waits for a trace write already under way (the loop inside
    /// the writer) before it gives up on the trace: it then removes the temporary file,
    /// leaving the path as it was, and exits all the same.
    public static let writePatience: Double = 5.0

    private static let started = Atomic<Bool>(false)
    // Written once (by `start()`, before any handler can post it), then used only through
    // `sem_post` and `sem_wait`, which are safe from any thread and from a signal handler.
    nonisolated(unsafe) private static let semaphore: UnsafeMutablePointer<sem_t> = {
        let semaphore = UnsafeMutablePointer<sem_t>.allocate(capacity: 1)
        sem_init(semaphore, 0, 0)
        return semaphore
    }()
    private static let current = Mutex<RunWatch?>(nil)
    private static let lastWords = Mutex<(@Sendable () -> Void)?>(nil)

    /// Sets what the watchdog does just before it ends the process (the live view puts
    /// the terminal back: input mode, cursor, main screen); nil for nothing.
    public static func beforeExit(_ action: (@Sendable () -> Void)?) {
        lastWords.withLock { $0 = action }
    }

    /// Starts the watchdog thread, once (`InterruptSignal.install()` calls it before it
    /// installs the handlers, so the semaphore exists before a handler can post it).
    static func start() {
        _ = semaphore
        guard !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { watchForever() }
        thread.name = "tiltbox interrupt watchdog"
        thread.start()
    }

    /// Wakes the watchdog. Async-signal-safe (`sem_post`); the handler's only call.
    static func wake() {
        sem_post(semaphore)
    }

    /// Registers `run` as the run the watchdog ends when it is stuck; replaces any other.
    static func watch(_ run: RunWatch) {
        current.withLock { $0 = run }
    }

    /// Unregisters `run` (when it is still the registered one).
    static func unwatch(_ run: RunWatch) {
        current.withLock { if $0 === run { $0 = nil } }
    }

    private static func watchForever() {
        while !InterruptSignal.isRaised {
            // EINTR (a handler ran on this thread) just loops to the flag.
            _ = sem_wait(semaphore)
        }
        // A loop that is not stuck acknowledges within a step's time; whatever it does,
        // `takeOver` afterwards finds it acknowledged (or finished and unregistered).
        usleep(useconds_t(patience * 1_000_000))
        guard let run = current.withLock({ $0 }) else { return } // no run in progress: the command polls the flag
        switch run.takeOver(waitingUpTo: writePatience) {
        case .acknowledged:
            return
        case .takenOver(let ending):
            end(run, ending)
        }
    }

    /// Closes the run's trace (or removes its temporary file), says so and exits.
    private static func end(_ run: RunWatch, _ ending: RunWatch.Ending) -> Never {
        lastWords.withLock { $0 }?()
        let name = InterruptSignal.signalName
        let step = ending.steps + 1
        var message: String
        if let writer = run.writer, ending.writerIsFree {
            if let error = writer.finishAbandoned(ending.end) {
                message = "tiltbox: \(name): step \(step) did not return within \(Int(patience)) s; \(error)"
            } else {
                let where_ = writer.path == "-" ? "" : " \(writer.path)"
                message =
                    "tiltbox: \(name): step \(step) did not return within \(Int(patience)) s; the trace\(where_) ends interrupted at step \(ending.steps)"
            }
        } else if let writer = run.writer {
            writer.discardAbandoned()
            message = "tiltbox: \(name): stuck writing the trace; \(writer.path) left as it was"
        } else {
            message = "tiltbox: \(name): step \(step) did not return within \(Int(patience)) s"
        }
        // The trace's path is the user's text: made inert, as every message is.
        message = InertText.escape(message) + "\n"
        _ = try? DescriptorOutput.writeAll(STDERR_FILENO, message)
        BatchParent.removeScratch()
        _exit(InterruptSignal.exitStatus)
    }
}
