import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What a running `RunSession` shares with the `InterruptWatchdog`, and the hand-off rule
/// that keeps the two from both finishing the trace.
///
/// The run loop owns the trace writer; the watchdog may take it only while the loop is
/// not inside a writer call. One atomic state decides, by compare-and-exchange:
///
/// - `running` → `writing` (the loop, around every writer call) → `running`;
/// - `running` → `acknowledged` (the loop, once it has seen the signal or is finishing:
///   from then on the watchdog leaves the run alone);
/// - `running` → `takenOver` (the watchdog, after its patience): from then on the loop
///   never touches the writer again; it parks at its next hand-off (`pause()` for ever)
///   until the watchdog ends the process.
///
/// The exchanges order memory (acquire and release), so the watchdog sees every record
/// the loop handed over, including the part-filled block the loop owned. The step counter
/// and dropped time are published before each step, for the end line the watchdog writes.
final class RunWatch: @unchecked Sendable {
    // `@unchecked`: `writer` is reached by the watchdog only after `takeOver` won the
    // state, when the loop can no longer reach it; everything else is atomic or immutable.
    private enum State: Int {
        case running, writing, acknowledged, takenOver
    }

    private let state = Atomic<Int>(State.running.rawValue)
    private let stepsTaken = Atomic<Int>(0)
    private let droppedBits = Atomic<UInt64>(0)
    private let dt: Double
    /// The run's trace writer, if it writes one. Held here so it lives until the watchdog is done.
    let writer: TraceWriter?

    init(dt: Double, writer: TraceWriter?) {
        self.dt = dt
        self.writer = writer
    }

    // MARK: - The run loop's side

    /// Publishes the progress the end line reports if the watchdog ends the run during the
    /// next step: `steps` taken so far and the dropped frame time.
    func willStep(stepsTaken steps: Int, droppedTime: Double) {
        stepsTaken.store(steps, ordering: .relaxed)
        droppedBits.store(droppedTime.bitPattern, ordering: .relaxed)
    }

    /// Runs `body`, a writer call, marked as such; parks for ever if the watchdog has taken over.
    func writing<R>(_ body: () throws -> R) rethrows -> R {
        let (exchanged, original) = state.compareExchange(
            expected: State.running.rawValue, desired: State.writing.rawValue, ordering: .acquiringAndReleasing)
        if !exchanged && original == State.takenOver.rawValue { Self.park() }
        defer {
            if exchanged {
                _ = state.compareExchange(
                    expected: State.writing.rawValue, desired: State.running.rawValue,
                    ordering: .acquiringAndReleasing)
            }
        }
        return try body()
    }

    /// The loop has seen the signal, or is finishing: the watchdog will not act. Parks for
    /// ever if the watchdog has taken over already.
    func acknowledge() {
        let (exchanged, original) = state.compareExchange(
            expected: State.running.rawValue, desired: State.acknowledged.rawValue, ordering: .acquiringAndReleasing)
        if !exchanged && original == State.takenOver.rawValue { Self.park() }
    }

    /// The watchdog ends the process; this thread waits for that without touching anything.
    private static func park() -> Never {
        while true { pause() }
    }

    // MARK: - The watchdog's side

    /// True once the loop has acknowledged the signal (or is finishing).
    var isAcknowledged: Bool { state.load(ordering: .acquiring) == State.acknowledged.rawValue }

    /// How the watchdog is to end the run.
    struct Ending {
        /// The end line: `interrupted` at the steps taken.
        var end: TraceEnd
        /// Steps taken before the stuck one.
        var steps: Int
        /// False when the loop stayed inside a writer call past the watchdog's patience:
        /// the writer cannot be finished, only its temporary file removed.
        var writerIsFree: Bool
    }

    /// What `takeOver` found.
    enum Outcome {
        case acknowledged
        case takenOver(Ending)
    }

    /// Takes the run from the loop unless it has acknowledged; waits up to `seconds` for a
    /// writer call under way to end first.
    func takeOver(waitingUpTo seconds: Double) -> Outcome {
        let deadline = RealTimeClock.now() + seconds
        var writerIsFree = true
        while true {
            let (exchanged, original) = state.compareExchange(
                expected: State.running.rawValue, desired: State.takenOver.rawValue, ordering: .acquiringAndReleasing)
            if exchanged { break }
            if original == State.acknowledged.rawValue { return .acknowledged }
            if original == State.writing.rawValue && RealTimeClock.now() >= deadline {
                // Stuck writing (a pipe nobody reads): take it all the same, and leave the writer alone.
                state.store(State.takenOver.rawValue, ordering: .releasing)
                writerIsFree = false
                break
            }
            usleep(10_000)
        }
        let steps = stepsTaken.load(ordering: .relaxed)
        let dropped = Double(bitPattern: droppedBits.load(ordering: .relaxed))
        let simTime = Double(steps) * dt
        return .takenOver(
            Ending(
                end: TraceEnd(outcome: .interrupted, steps: steps, simTime: simTime, droppedTime: dropped),
                steps: steps, writerIsFree: writerIsFree))
    }
}
