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

    /// Records one block holds.
    let recordsPerBlock: Int
    private let encoder: Mutex<TraceEncoder>
    private let values: Int
    /// Doubles per row: `t`, `gx`, `gy`, then the states.
    private let rowLength: Int
    private let rows: UnsafeMutableBufferPointer<Double>
    private let steps: UnsafeMutableBufferPointer<Int>
    /// Records in each queued block (set by the loop before it queues the block).
    private let blockCounts: UnsafeMutableBufferPointer<Int>

    // Owned by the loop (the single producer).
    private var filling = 0 // the block being filled
    private var filled = 0 // records in it so far

    // Guarded by `condition`.
    private let condition = NSCondition()
    private var first = 0 // the oldest queued block, possibly being formatted
    private var queued = 0 // blocks queued, including one being formatted
    private var stopping = false
    private var stopped = false
    private var failure: TraceWriteError?

    init(encoder: sending TraceEncoder, valuesPerRecord: Int) {
        self.encoder = Mutex(encoder)
        values = valuesPerRecord
        rowLength = 3 + valuesPerRecord
        recordsPerBlock = max(1, min(Self.maximumRecordsPerBlock, Self.blockBytes / (8 * rowLength)))
        rows = .allocate(capacity: Self.depth * recordsPerBlock * rowLength)
        steps = .allocate(capacity: Self.depth * recordsPerBlock)
        blockCounts = .allocate(capacity: Self.depth)
        blockCounts.initialize(repeating: 0)
        let thread = Thread { [self] in run() }
        thread.name = "tiltbox trace writer"
        thread.start()
    }

    deinit {
        rows.deallocate()
        steps.deallocate()
        blockCounts.deallocate()
    }

    /// Copies a record into the block being filled (no lock); hands the block to the
    /// writer thread when it is full, waiting only if no other block is free.
    ///
    /// - Throws: the writer thread's first write error, at the first hand-over after it.
    func submit(step: Int, t: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws(TraceWriteError) {
        let index = filling * recordsPerBlock + filled
        let row = rows.baseAddress! + index * rowLength
        row[0] = t
        row[1] = gravity.x
        row[2] = gravity.y
        if values > 0, let source = states.baseAddress {
            (row + 3).update(from: source, count: values)
        }
        steps[index] = step
        filled += 1
        if filled == recordsPerBlock {
            if let error = handOver() { throw error }
        }
    }

    /// Queues the block being filled (when it holds records) and moves to the next one,
    /// waiting until it is free. Returns the writer thread's failure, if any.
    private func handOver() -> TraceWriteError? {
        condition.lock()
        defer { condition.unlock() }
        if filled > 0 && !stopped {
            blockCounts[filling] = filled
            queued += 1
            filling = (filling + 1) % Self.depth
            filled = 0
            condition.broadcast()
            // The next block is free once fewer than `depth` are queued; the writer
            // thread formats every queued block, failed or not, so this ends.
            while queued == Self.depth && !stopped { condition.wait() }
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
            let block = BlockRecords(pipeline: self, block: first)
            condition.unlock()
            let error = encoder.withLock { encoder in
                block.forEach { step, t, gravity, states in
                    encoder.appendRecord(step: step, t: t, gravity: gravity, states: states)
                }
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

    /// The rows of one queued block, which the writer thread owns until it dequeues it
    /// (the ring's protocol, guarded by `condition`), so reading them outside the lock is safe.
    private struct BlockRecords: @unchecked Sendable {
        let rows: UnsafePointer<Double>
        let steps: UnsafePointer<Int>
        let count: Int
        let rowLength: Int

        init(pipeline: RecordPipeline, block: Int) {
            let start = block * pipeline.recordsPerBlock
            rows = UnsafePointer(pipeline.rows.baseAddress! + start * pipeline.rowLength)
            steps = UnsafePointer(pipeline.steps.baseAddress! + start)
            count = pipeline.blockCounts[block]
            rowLength = pipeline.rowLength
        }

        func forEach(_ body: (_ step: Int, _ t: Double, _ gravity: Vec2, _ states: UnsafeBufferPointer<Double>) -> Void)
        {
            for i in 0..<count {
                let row = rows + i * rowLength
                body(steps[i], row[0], Vec2(row[1], row[2]), UnsafeBufferPointer(start: row + 3, count: rowLength - 3))
            }
        }
    }
}
