import Foundation
import Synchronization

/// Hands records from the stepping loop to a writer thread in batches: the loop copies
/// each record into a block of preallocated rows without taking a lock, and only a full
/// block (or `drain`/`stop`) is handed over, so the two threads meet once per block, not
/// once per step, and the hand-off cost does not depend on the step rate.
///
/// A small ring of blocks lets the loop fill one block while the writer thread formats
/// the others; the loop waits only when every block is still queued. The writer thread
/// takes blocks, and the records in them, in order, so the trace and its digest are
/// exactly what writing inline would give.
///
/// Records may differ in length (a timeline's spawns and removals change the bodies a record
/// lists), and event lines (`TraceEvent`) ride in the block before the record they precede, so
/// the writer thread writes them in the order they were submitted.
///
/// The pipeline owns the encoder behind a `Mutex`: the writer thread and the owner
/// (through `withEncoder`) can only reach it under the lock. The blocks are guarded by
/// `condition` and by who owns which block (the loop the one it fills, the writer thread
/// the queued ones), which the type system cannot see, hence `@unchecked Sendable` here only.
final class RecordPipeline: @unchecked Sendable {
    /// Blocks in the ring: the one being filled, the one being formatted and slack.
    static let depth = 4
    /// Records per block at most: at 120 Hz a block of a small scene holds 1/4 s of steps;
    /// the writer thread is woken once per block.
    static let maximumRecordsPerBlock = 32
    /// State bytes per block at most (large scenes hold fewer records per block, at least one).
    static let blockBytes = 256 * 1024
    /// Event lines per block at most: a block that reaches this many is handed over without
    /// waiting for a record, so events between two far-apart records are not all held.
    static let maximumEventsPerBlock = 256
    /// The most events one block held (for tests of the bound).
    private(set) var peakBlockEvents = 0

    /// Records one block holds at most (fewer when they are long: see `blockBytes`).
    let recordsPerBlock: Int
    private let encoder: Mutex<TraceEncoder>
    /// Doubles one block holds before it is handed over (at least one record's).
    private let blockValues: Int
    private let blocks: [RecordBlock]

    // Owned by the loop (the single producer).
    private var filling = 0 // the block being filled

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var first = 0 // the oldest queued block, possibly being formatted
    private var queued = 0 // blocks queued, including one being formatted
    private var stopping = false
    private var stopped = false
    private var failure: TraceWriteError?

    init(encoder: sending TraceEncoder, valuesPerRecord: Int) {
        self.encoder = Mutex(encoder)
        let rowLength = 3 + valuesPerRecord
        recordsPerBlock = max(1, min(Self.maximumRecordsPerBlock, Self.blockBytes / (8 * rowLength)))
        let perBlock = max(1, min(Self.maximumRecordsPerBlock, Self.blockBytes / (8 * rowLength)))
        let values = max(rowLength, Self.blockBytes / 8)
        blockValues = values
        blocks = (0..<Self.depth).map { _ in RecordBlock(capacity: min(values, perBlock * rowLength)) }
        let thread = Thread { [self] in run() }
        thread.name = "tiltbox trace writer"
        thread.start()
    }

    /// Copies a record into the block being filled (no lock); hands the block to the
    /// writer thread when it is full, waiting only if no other block is free.
    ///
    /// - Throws: the writer thread's first write error, at the first hand-over after it.
    func submit(step: Int, t: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws(TraceWriteError) {
        var block = blocks[filling]
        if !block.records.isEmpty && block.used + 3 + states.count > blockValues {
            if let error = handOver() { throw error }
            block = blocks[filling]
        }
        block.append(step: step, t: t, gravity: gravity, states: states)
        if block.records.count == recordsPerBlock || block.used >= blockValues {
            if let error = handOver() { throw error }
        }
    }

    /// Queues an event line for the writer thread, before the next record submitted; hands the
    /// block over once it holds `maximumEventsPerBlock` events (a write error is thrown at the
    /// next record or at `finish`, as the writer thread keeps it).
    func submit(event: TraceEvent) {
        let block = blocks[filling]
        block.events.append((before: block.records.count, event: event))
        peakBlockEvents = max(peakBlockEvents, block.events.count)
        if block.events.count >= Self.maximumEventsPerBlock { _ = handOver() }
    }

    /// Queues the block being filled (when it holds records or events) and moves to the next
    /// one, waiting until it is free. Returns the writer thread's failure, if any.
    private func handOver() -> TraceWriteError? {
        condition.lock()
        defer { condition.unlock() }
        if !blocks[filling].isEmpty && !stopped {
            queued += 1
            filling = (filling + 1) % Self.depth
            condition.broadcast()
            // The next block is free once fewer than `depth` are queued; the writer
            // thread formats every queued block, failed or not, so this ends.
            while queued == Self.depth && !stopped { condition.wait() }
            // Free now: the writer thread is done with it.
            blocks[filling].reset()
        }
        return failure
    }

    /// Runs `body` with the encoder, under its lock. Call `drain()` first to see every
    /// record submitted so far.
    func withEncoder<R: Sendable, E: Error>(_ body: (TraceEncoder) throws(E) -> R) throws(E) -> R {
        try encoder.withLock { (encoder) throws(E) -> R in try body(encoder) }
    }

    /// Hands over the partly filled block and waits until every record is formatted.
    /// Called by the owner (the loop's thread).
    func drain() {
        _ = handOver()
        condition.lock()
        while queued > 0 && !stopped { condition.wait() }
        condition.unlock()
    }

    /// Formats every record submitted, then ends the writer thread and waits for it.
    /// Calling it again does nothing.
    func stop() {
        drain()
        condition.lock()
        stopping = true
        condition.broadcast()
        while !stopped { condition.wait() }
        condition.unlock()
    }

    private func run() {
        condition.lock()
        while true {
            while queued == 0 && !stopping { condition.wait() }
            if queued == 0 { break }
            let block = blocks[first]
            condition.unlock()
            let error = encoder.withLock { encoder in
                block.forEach(
                    record: { step, t, gravity, states in
                        encoder.appendRecord(step: step, t: t, gravity: gravity, states: states)
                    }, event: { encoder.appendEvent($0) })
                return encoder.failure
            }
            condition.lock()
            if let error, failure == nil { failure = error }
            first = (first + 1) % Self.depth
            queued -= 1
            condition.broadcast()
        }
        stopped = true
        condition.broadcast()
        condition.unlock()
    }
}

/// One block of the ring: records laid out one after another (`t`, `gx`, `gy`, then the
/// states) and the events that come before each. Owned by the loop while it fills it and by the
/// writer thread while it is queued (the ring's protocol, guarded by the pipeline's
/// `condition`), never by both, hence `@unchecked Sendable`.
private final class RecordBlock: @unchecked Sendable {
    struct Entry {
        var step: Int
        var start: Int
        var count: Int
    }

    private(set) var values: UnsafeMutablePointer<Double>
    private(set) var capacity: Int
    private(set) var used = 0
    private(set) var records: [Entry] = []
    /// Each event with the number of records of this block written before it.
    var events: [(before: Int, event: TraceEvent)] = []

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        values = .allocate(capacity: self.capacity)
        records.reserveCapacity(RecordPipeline.maximumRecordsPerBlock)
    }

    deinit { values.deallocate() }

    var isEmpty: Bool { records.isEmpty && events.isEmpty }

    func reset() {
        used = 0
        records.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
    }

    func append(step: Int, t: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) {
        let needed = 3 + states.count
        if used + needed > capacity {
            // A long record (bodies spawned): grow, keeping what the block holds.
            let grown = max(capacity * 2, used + needed)
            let moved = UnsafeMutablePointer<Double>.allocate(capacity: grown)
            moved.moveInitialize(from: values, count: used)
            values.deallocate()
            values = moved
            capacity = grown
        }
        let row = values + used
        row[0] = t
        row[1] = gravity.x
        row[2] = gravity.y
        if let source = states.baseAddress, states.count > 0 {
            (row + 3).update(from: source, count: states.count)
        }
        records.append(Entry(step: step, start: used, count: states.count))
        used += needed
    }

    func forEach(
        record: (_ step: Int, _ t: Double, _ gravity: Vec2, _ states: UnsafeBufferPointer<Double>) -> Void,
        event: (TraceEvent) -> Void
    ) {
        var nextEvent = 0
        for (i, entry) in records.enumerated() {
            while nextEvent < events.count && events[nextEvent].before <= i {
                event(events[nextEvent].event)
                nextEvent += 1
            }
            let row = values + entry.start
            record(entry.step, row[0], Vec2(row[1], row[2]), UnsafeBufferPointer(start: row + 3, count: entry.count))
        }
        while nextEvent < events.count {
            event(events[nextEvent].event)
            nextEvent += 1
        }
    }
}
