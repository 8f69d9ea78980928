#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes a trace (docs/formats.md §3) to a file or to standard output, buffered, with the
/// formatting done on a second thread.
///
/// `writeRecord` only copies the states into a row of a preallocated block (no lock); a
/// full block is handed to a writer thread (`RecordPipeline`), which formats each record
/// (shortest round-trip numbers), adds it to the digest and hands the lines to `write(2)`
/// once more than `flushThreshold` bytes (64 KiB) are buffered. The two threads meet once
/// per block (up to 32 records), not once per step, so the hand-off costs the same at any
/// step rate; on a machine with two cores the formatting of one block overlaps the physics
/// of the next, and the step loop waits only when every block is still in use. The bytes
/// written are the same as if it were done inline, in the same order. `flush`, `finish`
/// and the digest and size accessors hand over the part-filled block first.
///
/// A path ending in `.zst` is written as one zstd frame (level 1, with its checksum): the
/// writer thread hands the buffer to a compressor (`TraceByteSink`) instead of `write(2)`,
/// and `finish` closes the frame after the end line, so `zstd -dc` gives exactly the plain
/// trace of the same run.
///
/// Only whole lines ever enter the buffer and every flush writes the whole buffer
/// (looping over short writes and `EINTR`), so a trace never ends in a half-written line.
/// A regular file is written under a temporary name beside its path and renamed into place
/// by `finish` (see `TraceFile`), so an existing trace is replaced whole or not at all.
///
/// Errors from the system are thrown as `TraceWriteError`: after the first one the writer
/// is failed and every later call throws it again (writing to `/dev/full` throws
/// "No space left on device"), and `finish` removes the temporary file, leaving the path
/// as it was.
///
/// Use: `init` (writes the header), `writeRecord` for step 0, every `every`-th step and
/// the last step, then `finish` with how the run ended. One owner (the stepping loop)
/// drives it. A signal handler should only set a flag that the loop sees, then the loop
/// calls `finish(.interrupted(...))`.
public final class TraceWriter {
    /// The trace's header, as written.
    public let header: TraceHeader
    /// Where the trace goes: a file path, or `-` for standard output.
    public let path: String
    /// The buffer size at which lines are handed to the system.
    public let flushThreshold: Int

    private var file: TraceFile
    /// `file.temporaryPath`, fixed at creation (read by the watchdog without the writer's state).
    private let temporaryPath: String?
    private let pipeline: RecordPipeline
    private var finished = false
    /// The bodies and joints present: the header's, changed by the events written (the loop's own).
    public private(set) var presence: TracePresence
    /// `presence.valuesPerRecord(fields:)`, kept up to date by `writeEvent`, so a record does
    /// not compute it.
    private var valuesPerRecord: Int

    /// Creates the trace for `path` (a temporary file beside it, for a regular file) and
    /// writes its header line.
    ///
    /// - Parameters:
    ///   - path: a file path, or `-` for standard output (which then must carry
    ///     nothing else; the writer does not close it).
    ///   - header: the first line; its `bodies` and `fields` fix the size of every record.
    ///   - flushThreshold: buffered bytes that trigger a `write(2)`; small values are
    ///     for tests, the output bytes are the same whatever it is.
    /// - Throws: `TraceWriteError` when the file cannot be created.
    public init(path: String, header: TraceHeader, flushThreshold: Int = 64 * 1024) throws(TraceWriteError) {
        self.header = header
        self.path = path
        self.flushThreshold = max(1, flushThreshold)
        presence = TracePresence(header: header)
        valuesPerRecord = presence.valuesPerRecord(fields: header.fields.count)
        file = try TraceFile.open(path)
        temporaryPath = file.temporaryPath
        let sink: TraceByteSink
        do {
            sink = try TraceByteSink(fd: file.fd, compressed: TraceByteSink.compresses(path))
        } catch {
            file.discard()
            throw TraceWriteError(path: path, operation: "create", code: error.code)
        }
        // A compressed trace cannot be cut back to a whole line after a failed write; a
        // regular file is removed then anyway (see `finish`).
        let encoder = TraceEncoder(
            header: header, path: path, sink: sink,
            canCutBack: file.ownsDescriptor && !sink.isCompressed,
            flushThreshold: self.flushThreshold)
        encoder.appendHeader()
        if let failure = encoder.failure {
            file.discard()
            throw failure
        }
        // From here on the pipeline owns the encoder: it is reached only under its lock.
        pipeline = RecordPipeline(encoder: encoder, valuesPerRecord: header.valuesPerRecord)
    }

    deinit {
        // A writer dropped without `finish` (the caller threw past it) still leaves
        // whole lines behind, with no end line, where the trace was to be.
        pipeline.stop()
        if !finished {
            let flushed = pipeline.withEncoder { encoder in
                encoder.failure == nil && (try? encoder.flush()) != nil && (try? encoder.closeStream()) != nil
            }
            if flushed && !BatchParent.isGone {
                _ = file.publish()
            } else {
                file.discard()
            }
        }
    }

    // MARK: - State

    /// The digest of the records written so far, as the end line will show it
    /// (`fnv1a64:` and 16 hex digits). Waits for the writer thread to catch up.
    public var digest: String { digestValue.text }

    /// The digest of the records written so far, as a value. Waits for the writer thread.
    public var digestValue: TraceDigest {
        pipeline.drain()
        return pipeline.withEncoder { $0.digest }
    }

    /// The length of the trace so far in bytes, counting lines still in the buffer;
    /// after `finish` it is the size of the file. For a compressed trace (a path ending
    /// in `.zst`) it is the compressed bytes written so far, and after `finish` the size
    /// of the file as well. Waits for the writer thread.
    public var bytesWritten: Int {
        pipeline.drain()
        return pipeline.withEncoder { encoder in
            encoder.sink.isCompressed ? encoder.sink.bytesOut : encoder.flushedBytes + encoder.buffer.count
        }
    }

    /// Records written so far.
    public var recordCount: Int {
        pipeline.drain()
        return pipeline.withEncoder { $0.recordCount }
    }

    // MARK: - Writing

    /// Queues one record line, `{"step":N,"t":T,"g":[gx,gy],"s":[[x,y,angle,vx,vy,w],...]}`
    /// (with `"h":"fnv1a64:..."`, the record's own hash, instead of `"s"` when the header's
    /// `records` is `.hashes`), for the writer thread, which adds it to the digest.
    /// `states` is copied before this returns.
    ///
    /// - Parameters:
    ///   - step: the physics step number (0 before any step).
    ///   - t: simulated time in seconds (`step · dt`).
    ///   - gravity: the gravity used for this step, in units/s².
    ///   - states: every body's fields in header order, flat: `fields.count` values per
    ///     body present (`presence.bodies`: the header's `bodies`, changed by the events written).
    /// - Throws: the first write error, once the writer thread has met it.
    /// - Precondition: every value is finite. A run checks its states first and, at the
    ///   first non-finite one, ends the trace with `finish(.error(...))` instead.
    public func writeRecord(step: Int, t: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>)
        throws(TraceWriteError)
    {
        precondition(!finished, "TraceWriter: writeRecord after finish")
        precondition(
            states.count == valuesPerRecord,
            "TraceWriter: \(states.count) state values, the bodies present need \(presence.bodies.count) × \(header.fields.count)"
        )
        precondition(t.isFinite && gravity.isFinite, "TraceWriter: non-finite time or gravity at step \(step)")
        // JSON has no NaN or infinity: the run loop must stop (and end the trace with
        // `.error`) before recording a non-finite state. One tight pass checks them all.
        var finite = true
        for value in states where !value.isFinite { finite = false }
        if !finite, let bad = states.firstIndex(where: { !$0.isFinite }) {
            let perBody = header.fields.count
            preconditionFailure(
                "TraceWriter: non-finite \(header.fields[bad % perBody]) of body \(presence.bodies[bad / perBody]) at step \(step)"
            )
        }
        try pipeline.submit(step: step, t: t, gravity: gravity, states: states)
    }

    /// `writeRecord` for a run whose states are already checked (`RunSession` stops at the
    /// first value beyond `World.divergenceLimit` before recording it): the same record,
    /// without a second pass over the states on the stepping thread.
    func writeCheckedRecord(step: Int, t: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>)
        throws(TraceWriteError)
    {
        precondition(!finished, "TraceWriter: writeRecord after finish")
        precondition(states.count == valuesPerRecord, "TraceWriter: wrong number of state values")
        try pipeline.submit(step: step, t: t, gravity: gravity, states: states)
    }

    /// Queues an event line (docs/formats.md §8, "Trace") to be written before the next record,
    /// and applies it to `presence`, so the records after it list the bodies present then.
    /// Event lines are not part of the digest.
    /// - Precondition: the event fits the bodies and joints present (a spawned id is new, a
    ///   removed body is present).
    public func writeEvent(_ event: TraceEvent) {
        precondition(!finished, "TraceWriter: writeEvent after finish")
        if case .spawn(let spawn) = event.change {
            precondition(!presence.contains(spawn.body), "TraceWriter: body \(spawn.body) spawned twice")
        }
        if case .remove(let id, _) = event.change {
            precondition(presence.contains(id), "TraceWriter: body \(id) removed but not present")
        }
        presence.apply(event)
        valuesPerRecord = presence.valuesPerRecord(fields: header.fields.count)
        pipeline.submit(event: event)
    }

    /// The most event lines the writer held at once in one block (for tests of the bound,
    /// `RecordPipeline.maximumEventsPerBlock`).
    var peakHeldEvents: Int { pipeline.peakBlockEvents }

    /// `writeRecord` for states held in an array (convenient in tests and tools).
    public func writeRecord(step: Int, t: Double, gravity: Vec2, states: [Double]) throws(TraceWriteError) {
        let result: Result<Void, TraceWriteError> = states.withUnsafeBufferPointer { pointer in
            Result { () throws(TraceWriteError) in
                try writeRecord(step: step, t: t, gravity: gravity, states: pointer)
            }
        }
        try result.get()
    }

    /// Writes the end line with the digest, flushes everything, closes the file and
    /// renames it into place:
    /// `{"end":"complete","steps":1200,"simTime":10,"droppedTime":0,"digest":"fnv1a64:..."}`
    /// (`"counters": {NAME: N}` when the run's rules count, an `error` end adds `"message"`).
    /// The writer accepts no records afterwards.
    /// On a write error the temporary file is removed and the path keeps what it held.
    public func finish(_ end: TraceEnd) throws(TraceWriteError) {
        precondition(!finished, "TraceWriter: finish called twice")
        finished = true
        pipeline.stop()
        do {
            try pipeline.withEncoder { (encoder) throws(TraceWriteError) in
                if let failure = encoder.failure { throw failure }
                encoder.appendEnd(end)
                try encoder.flush()
                try encoder.closeStream()
            }
        } catch {
            file.discard()
            throw error
        }
        // A batch child whose batch has died publishes nothing (see `BatchParent`).
        if BatchParent.isGone {
            file.discard()
            return
        }
        if let error = file.publish() {
            pipeline.withEncoder { $0.failure = error }
            throw error
        }
    }

    /// `finish` for the interrupt watchdog, on its own thread, once it has taken the run
    /// from a loop stuck in a step (`RunWatch.takeOver`): the loop is then outside every
    /// writer call and never makes another, so the watchdog is the owner. Hands over the
    /// records the loop had copied but not yet handed over, ends the trace with `end` and
    /// publishes it. Returns the error instead of throwing it (the caller only reports it).
    func finishAbandoned(_ end: TraceEnd) -> TraceWriteError? {
        guard !finished else { return nil }
        do { try finish(end) } catch { return error }
        return nil
    }

    /// Removes the temporary file of a trace the watchdog cannot finish (the loop is stuck
    /// inside a write), leaving the path as it was. Does not touch the pipeline or the
    /// descriptor, which the stuck thread may be using; the process ends right after.
    func discardAbandoned() {
        if let temporaryPath { unlink(temporaryPath) }
    }

    /// Hands every buffered line to the system now (for example before a long pause,
    /// so a reader following the file sees whole records). Never writes part of a line.
    /// A compressed trace's frame stays open, its blocks so far complete and readable.
    public func flush() throws(TraceWriteError) {
        pipeline.drain()
        try pipeline.withEncoder { (encoder) throws(TraceWriteError) in try encoder.flush(throughCompressor: true) }
    }
}

/// Formats a trace's lines into one reusable byte buffer, keeps the digest and hands whole
/// buffers to the byte sink (the file descriptor, or zstd then the descriptor). Not
/// `Sendable`: the `RecordPipeline` owns it behind a `Mutex`, so the writer thread and the
/// owner can only reach it under that lock.
final class TraceEncoder {
    let header: TraceHeader
    let path: String
    let sink: TraceByteSink
    let canCutBack: Bool
    let flushThreshold: Int
    var buffer: JSONLineBuffer
    var digest = TraceDigest()
    var flushedBytes = 0
    var recordCount = 0
    var failure: TraceWriteError?

    init(header: TraceHeader, path: String, sink: TraceByteSink, canCutBack: Bool, flushThreshold: Int) {
        self.header = header
        self.path = path
        self.sink = sink
        self.canCutBack = canCutBack
        self.flushThreshold = flushThreshold
        // Room for the threshold plus one more line of a large scene, so steady
        // writing never reallocates.
        buffer = JSONLineBuffer(capacity: flushThreshold + 1024 + header.valuesPerRecord * 28)
    }

    func appendHeader() {
        header.append(to: &buffer)
        flushIfNeeded()
    }

    func appendRecord(step: Int, t: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) {
        guard failure == nil else { return }
        buffer.append("{\"step\":")
        buffer.append(integer: step)
        buffer.append(",\"t\":")
        buffer.append(number: t)
        buffer.append(",\"g\":")
        buffer.append(pair: gravity)
        if header.records == .hashes {
            buffer.append(",\"h\":")
            buffer.append(digest: digest.addRecordAndHash(gravity: gravity, states: states))
            buffer.append("}\n")
        } else {
            buffer.append(",\"s\":[")
            buffer.append(states: states, perBody: header.fields.count)
            buffer.append("]}\n")
            digest.addRecord(gravity: gravity, states: states)
        }
        recordCount += 1
        flushIfNeeded()
    }

    func appendEvent(_ event: TraceEvent) {
        guard failure == nil else { return }
        event.append(to: &buffer)
        flushIfNeeded()
    }

    func appendEnd(_ end: TraceEnd) {
        buffer.append("{\"end\":")
        buffer.append(string: end.kind.rawValue)
        buffer.append(",\"steps\":")
        buffer.append(integer: end.steps)
        buffer.append(",\"simTime\":")
        buffer.append(number: end.simTime)
        buffer.append(",\"droppedTime\":")
        buffer.append(number: end.droppedTime)
        buffer.append(",\"digest\":")
        buffer.append(string: digest.text)
        if !end.counters.isEmpty {
            buffer.append(",\"counters\":{")
            for (index, counter) in end.counters.enumerated() {
                if index > 0 { buffer.append(",") }
                buffer.append(string: counter.name)
                buffer.append(":")
                buffer.append(integer: counter.value)
            }
            buffer.append("}")
        }
        if end.kind == .error, let message = end.message {
            buffer.append(",\"message\":")
            buffer.append(string: TraceEnd.written(message))
        }
        buffer.append("}\n")
    }

    private func flushIfNeeded() {
        if buffer.count >= flushThreshold { try? flush() }
    }

    /// Writes the whole buffer; on failure records it, cuts the file back to its last
    /// whole line and throws. `throughCompressor` also has a compressed trace's pending
    /// input emitted as complete blocks.
    func flush(throughCompressor: Bool = false) throws(TraceWriteError) {
        if let failure { throw failure }
        let total = buffer.count
        let written: Result<Void, DescriptorWriteError> = buffer.withUnsafeBytes { raw in
            Result { () throws(DescriptorWriteError) in
                try sink.write(raw)
                if throughCompressor { try sink.flush() }
            }
        }
        if case .failure(let error) = written {
            let failed = TraceWriteError(path: path, operation: "write", code: error.code)
            failure = failed
            cutBackToWholeLine(written: error.written)
            throw failed
        }
        flushedBytes += total
        buffer.removeAll()
    }

    /// Ends a compressed trace's zstd frame, after the last `flush` (nothing for a plain
    /// trace); records and throws a failure like `flush`.
    func closeStream() throws(TraceWriteError) {
        if let failure { throw failure }
        do {
            try sink.close()
        } catch {
            let failed = TraceWriteError(path: path, operation: "write", code: error.code)
            failure = failed
            throw failed
        }
    }

    /// After a failed flush that wrote `written` bytes of the buffer, truncates the file
    /// to the end of the last whole line, so even a disk that fills up mid-write leaves
    /// no half-written line. Standard output (maybe a pipe) cannot be cut back.
    private func cutBackToWholeLine(written: Int) {
        guard canCutBack, written > 0 else { return }
        var keep = written
        while keep > 0 && buffer[keep - 1] != 0x0A { keep -= 1 }
        if keep < written {
            _ = ftruncate(sink.fd, off_t(flushedBytes + keep))
        }
        flushedBytes += keep
        buffer.removeFirst(keep)
    }
}
