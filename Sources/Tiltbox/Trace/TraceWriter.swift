#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a trace (FORMATS.md §3) to a file or to standard output, buffered.
///
/// Lines are built in one reusable byte buffer and handed to `write(2)` when the
/// buffer passes `flushThreshold` bytes (64 KiB by default), so a run makes one system
/// call per many records rather than one per record. Only whole lines ever enter the
/// buffer and every flush writes the whole buffer (looping over short writes and
/// `EINTR`), so a trace never ends in a half-written line, even when a later write fails.
///
/// The writer keeps the trace's `TraceDigest` as records go by. Errors from the system
/// are thrown as `TraceWriteError`; after the first one the writer is failed and every
/// later call throws it again (writing to `/dev/full` throws "No space left on device").
///
/// Use: `init` (writes the header), `writeRecord` for step 0, every `every`-th step and
/// the last step, then `finish` with how the run ended. Not thread-safe: one owner
/// (the stepping loop) drives it. A signal handler should only set a flag that the
/// loop sees, then the loop calls `finish(.interrupted(...))`.
public final class TraceWriter {
    /// The trace's header, as written.
    public let header: TraceHeader
    /// Where the trace goes: a file path, or `-` for standard output.
    public let path: String
    /// The buffer size at which lines are handed to the system.
    public let flushThreshold: Int

    private var fd: Int32
    private let ownsDescriptor: Bool
    private var buffer: JSONLineBuffer
    private var failure: TraceWriteError?
    private var finished = false
    private var digestState = TraceDigest()
    private var flushedBytes = 0

    /// Records written so far.
    public private(set) var recordCount = 0

    /// Creates (or truncates) the trace at `path` and writes its header line.
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
        // Room for the threshold plus one more line of a large scene, so steady
        // writing never reallocates.
        self.buffer = JSONLineBuffer(capacity: self.flushThreshold + 1024 + header.valuesPerRecord * 28)
        if path == "-" {
            fd = STDOUT_FILENO
            ownsDescriptor = false
        } else {
            var opened: Int32
            repeat {
                opened = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            } while opened < 0 && errno == EINTR
            guard opened >= 0 else {
                throw TraceWriteError(path: path, operation: "create", code: errno)
            }
            fd = opened
            ownsDescriptor = true
        }
        header.append(to: &buffer)
        try flushIfNeeded()
    }

    deinit {
        // A writer dropped without `finish` (the caller threw past it) still leaves
        // whole lines behind: flush what is buffered, ignore errors, close.
        if !finished {
            if failure == nil { try? flush() }
            _ = closeDescriptor()
        }
    }

    // MARK: - State

    /// The digest of the records written so far, as the end line will show it
    /// (`fnv1a64:` and 16 hex digits).
    public var digest: String { digestState.text }

    /// The digest of the records written so far, as a value.
    public var digestValue: TraceDigest { digestState }

    /// The length of the trace so far in bytes, counting lines still in the buffer;
    /// after `finish` it is the size of the file.
    public var bytesWritten: Int { flushedBytes + buffer.count }

    // MARK: - Writing

    /// Writes one record line, `{"step":N,"t":T,"g":[gx,gy],"s":[[x,y,angle,vx,vy,w],...]}`,
    /// and adds it to the digest.
    ///
    /// - Parameters:
    ///   - step: the physics step number (0 before any step).
    ///   - t: simulated time in seconds (`step · dt`).
    ///   - gravity: the gravity used for this step, in units/s².
    ///   - states: every body's fields in header order, flat: `fields.count` values per
    ///     body, `bodies.count` bodies.
    /// - Precondition: every value is finite. A run checks its states first and, at the
    ///   first non-finite one, ends the trace with `finish(.error(...))` instead.
    public func writeRecord(step: Int, t: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws(TraceWriteError) {
        precondition(!finished, "TraceWriter: writeRecord after finish")
        precondition(states.count == header.valuesPerRecord,
                     "TraceWriter: \(states.count) state values, the header needs \(header.valuesPerRecord)")
        precondition(t.isFinite && gravity.isFinite, "TraceWriter: non-finite time or gravity at step \(step)")
        if let failure { throw failure }
        let perBody = header.fields.count
        // JSON has no NaN or infinity: the run loop must stop (and end the trace with
        // `.error`) before recording a non-finite state. One tight pass checks them all.
        if let bad = states.firstIndex(where: { !$0.isFinite }) {
            preconditionFailure("TraceWriter: non-finite \(header.fields[bad % perBody]) of body \(header.bodies[bad / perBody]) at step \(step)")
        }
        buffer.append("{\"step\":")
        buffer.append(integer: step)
        buffer.append(",\"t\":")
        buffer.append(number: t)
        buffer.append(",\"g\":")
        buffer.append(pair: gravity)
        buffer.append(",\"s\":[")
        buffer.append(states: states, perBody: perBody)
        buffer.append("]}\n")
        digestState.addRecord(gravity: gravity, states: states)
        recordCount += 1
        try flushIfNeeded()
    }

    /// `writeRecord` for states held in an array (convenient in tests and tools).
    public func writeRecord(step: Int, t: Double, gravity: Vec2, states: [Double]) throws(TraceWriteError) {
        let result: Result<Void, TraceWriteError> = states.withUnsafeBufferPointer { pointer in
            Result { () throws(TraceWriteError) in
                try writeRecord(step: step, t: t, gravity: gravity, states: pointer)
            }
        }
        try result.get()
    }

    /// Writes the end line with the digest, flushes everything and closes the file:
    /// `{"end":"complete","steps":1200,"simTime":10,"droppedTime":0,"digest":"fnv1a64:..."}`
    /// (an `error` end adds `"message"`). The writer accepts no records afterwards.
    public func finish(_ end: TraceEnd) throws(TraceWriteError) {
        precondition(!finished, "TraceWriter: finish called twice")
        finished = true
        if let failure {
            _ = closeDescriptor()
            throw failure
        }
        buffer.append("{\"end\":")
        buffer.append(string: end.kind.name)
        buffer.append(",\"steps\":")
        buffer.append(integer: end.steps)
        buffer.append(",\"simTime\":")
        buffer.append(number: end.simTime)
        buffer.append(",\"droppedTime\":")
        buffer.append(number: end.droppedTime)
        buffer.append(",\"digest\":")
        buffer.append(string: digestState.text)
        if case .error(let message) = end.kind {
            buffer.append(",\"message\":")
            buffer.append(string: message)
        }
        buffer.append("}\n")
        let flushed = Result { () throws(TraceWriteError) in try flush() }
        let closeError = closeDescriptor()
        try flushed.get()
        if let closeError { throw closeError }
    }

    /// Hands every buffered line to the system now (for example before a long pause,
    /// so a reader following the file sees whole records). Never writes part of a line.
    public func flush() throws(TraceWriteError) {
        if let failure { throw failure }
        var written = 0
        let total = buffer.count
        while written < total {
            let result = buffer.withUnsafeBytes { raw in
                write(fd, raw.baseAddress! + written, total - written)
            }
            if result < 0 && errno == EINTR { continue }
            if result <= 0 {
                // write(2) returning 0 for a non-empty request should not happen on
                // files or pipes; treat it as a full device rather than spin.
                let code = result == 0 ? ENOSPC : errno
                let error = TraceWriteError(path: path, operation: "write", code: code)
                failure = error
                cutBackToWholeLine(written: written)
                throw error
            }
            written += result
        }
        flushedBytes += total
        buffer.removeAll()
    }

    /// After a failed flush that wrote `written` bytes of the buffer, truncates the file
    /// to the end of the last whole line, so even a disk that fills up mid-write leaves
    /// no half-written line. Standard output (maybe a pipe) cannot be cut back.
    private func cutBackToWholeLine(written: Int) {
        guard ownsDescriptor, written > 0 else { return }
        var keep = written
        while keep > 0 && buffer[keep - 1] != 0x0A { keep -= 1 }
        if keep < written {
            _ = ftruncate(fd, off_t(flushedBytes + keep))
        }
        flushedBytes += keep
        buffer.removeFirst(keep)
    }

    private func flushIfNeeded() throws(TraceWriteError) {
        if buffer.count >= flushThreshold { try flush() }
    }

    /// Closes the file (never standard output) and returns the error close reported.
    private func closeDescriptor() -> TraceWriteError? {
        guard ownsDescriptor, fd >= 0 else { return nil }
        // Linux: the descriptor is released even when close reports EINTR; do not retry.
        let result = close(fd)
        let code = errno
        fd = -1
        guard result < 0, code != EINTR else { return nil }
        let error = TraceWriteError(path: path, operation: "close", code: code)
        if failure == nil { failure = error }
        return error
    }
}
