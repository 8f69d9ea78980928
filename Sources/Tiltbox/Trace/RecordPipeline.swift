import Foundation
import Synchronization

/// Hands records from the stepping loop to a writer thread through a small ring of
/// preallocated slots, so formatting overlaps the next physics step.
///
/// The loop copies a record's states into a free slot and goes on; it waits only when
/// every slot is still being formatted. The writer thread takes slots in order, so the
/// trace and its digest are exactly what writing inline would give.
///
/// The pipeline owns the encoder behind a `Mutex`: the writer thread and the owner
/// (through `withEncoder`) can only reach it under the lock. The slot ring is guarded by
/// `condition`, which the type system cannot see, hence `@unchecked Sendable` here only.
final class RecordPipeline: @unchecked Sendable {
    /// Slots in the ring: enough to ride out a slow write, few enough to stay small
    /// (4 × 6 doubles × bodies).
    static let depth = 4

    private let encoder: Mutex<TraceEncoder>
    private let values: Int
    private let storage: UnsafeMutableBufferPointer<Double>
    private var steps = [Int](repeating: 0, count: depth)
    private var times = [Double](repeating: 0, count: depth)
    private var gravities = [Vec2](repeating: .zero, count: depth)
    private let condition = NSCondition()
    private var first = 0      // the oldest slot not yet formatted
    private var count = 0      // slots queued, the oldest possibly being formatted
    private var busy = false   // the writer thread is formatting `first`
    private var stopping = false
    private var stopped = false
    private var failure: TraceWriteError?

    init(encoder: sending TraceEncoder, valuesPerRecord: Int) {
        self.encoder = Mutex(encoder)
        values = valuesPerRecord
        storage = .allocate(capacity: max(valuesPerRecord, 1) * Self.depth)
        let thread = Thread { [self] in run() }
        thread.name = "tiltbox trace writer"
        thread.start()
    }

    deinit {
        storage.deallocate()
    }

    /// Copies a record into a free slot, waiting for one if all are in use.
    func submit(step: Int, t: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws(TraceWriteError) {
        condition.lock()
        defer { condition.unlock() }
        while count == Self.depth && failure == nil { condition.wait() }
        if let failure { throw failure }
        let slot = (first + count) % Self.depth
        if values > 0, let source = states.baseAddress {
            (storage.baseAddress! + slot * values).update(from: source, count: values)
        }
        steps[slot] = step
        times[slot] = t
        gravities[slot] = gravity
        count += 1
        condition.broadcast()
    }

    /// Runs `body` with the encoder, under its lock. Call `drain()` first to see every
    /// record submitted so far.
    func withEncoder<R: Sendable, E: Error>(_ body: (TraceEncoder) throws(E) -> R) throws(E) -> R {
        try encoder.withLock { (encoder) throws(E) -> R in try body(encoder) }
    }

    /// Waits until every queued record is formatted.
    func drain() {
        condition.lock()
        while (count > 0 || busy) && !stopped { condition.wait() }
        condition.unlock()
    }

    /// Formats what is queued, then ends the writer thread and waits for it.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while count == 0 && !stopping { condition.wait() }
            if count == 0 { break }
            let slot = first
            busy = true
            condition.unlock()
            let record = SlotRecord(step: steps[slot], t: times[slot], gravity: gravities[slot],
                                    states: UnsafeBufferPointer(start: storage.baseAddress! + slot * values, count: values))
            let error = encoder.withLock { encoder in
                encoder.appendRecord(step: record.step, t: record.t, gravity: record.gravity, states: record.states)
                return encoder.failure
            }
            condition.lock()
            busy = false
            if let error, failure == nil { failure = error }
            first = (first + 1) % Self.depth
            count -= 1
            condition.broadcast()
        }
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}

/// One queued record as the writer thread hands it to the encoder. Its `states` point
/// into the ring slot the thread owns while `busy` (the ring's protocol, guarded by
/// `condition`), so handing them across the lock is safe.
private struct SlotRecord: @unchecked Sendable {
    var step: Int
    var t: Double
    var gravity: Vec2
    var states: UnsafeBufferPointer<Double>
}
