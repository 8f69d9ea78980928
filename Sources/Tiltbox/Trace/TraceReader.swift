internal import CFileSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a trace file (docs/formats.md §3) back into a `Trace`, validating it as it goes.
///
/// The file is split on newlines and each line parsed on its own with `JSONParser`, so
/// an error names the file's line: `t.jsonl:5:48: s: record has 3 bodies, header lists 4`.
/// Checks: the first line is a `tiltbox-trace/1` header; each record has the header's
/// body and field counts, numbers where numbers belong and increasing step numbers;
/// nothing follows the end line; and (unless disabled) the end line's digest matches the
/// records, which catches a trace edited or damaged after it was written.
/// Keys a reader does not know are ignored, so optional keys can be added later.
/// A trace without an end line is returned with `end == nil`; the caller decides
/// whether that is an error (`tiltbox diff` reports it as a divergence).
///
/// `read` holds the whole trace in memory; `TraceStream` reads the same file one record
/// at a time, with the same checks and messages (`diff` and `verify` use it).
public enum TraceReader {
    /// Reads and validates the trace at `path`.
    /// - Parameters:
    ///   - path: the trace file.
    ///   - verifyDigest: check the end line's digest against the records.
    /// - Throws: `InputError` naming the file and, for content problems, the line.
    public static func read(path: String, verifyDigest: Bool = true) throws(InputError) -> Trace {
        try collect(TraceStream(path: path, verifyDigest: verifyDigest))
    }

    /// Parses trace text held in memory; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String, verifyDigest: Bool = true) throws(InputError) -> Trace {
        try collect(TraceStream(bytes: bytes, file: file, verifyDigest: verifyDigest))
    }

    /// Parses trace text from UTF-8 bytes; `file` names it in errors.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, file: String, verifyDigest: Bool = true)
        throws(InputError) -> Trace
    {
        try parse(Array(bytes), file: file, verifyDigest: verifyDigest)
    }

    private static func collect(_ stream: TraceStream) throws(InputError) -> Trace {
        var records: [TraceRecord] = []
        var events: [TraceEventLine] = []
        while let record = try stream.next() {
            for event in stream.events { events.append(TraceEventLine(event: event, beforeRecord: records.count)) }
            records.append(record)
        }
        for event in stream.events { events.append(TraceEventLine(event: event, beforeRecord: records.count)) }
        return Trace(header: stream.header, records: records, end: stream.end, events: events)
    }
}

/// A trace read one record at a time: memory for one line, whatever the file's length.
///
/// The header is read when the stream is made; `next()` returns the records in order and
/// `nil` after the last one, when `end` holds the end line (or stays `nil` for a trace
/// without one). Checks and messages are `TraceReader`'s. Hostile files fail early: a
/// control character (a NUL of `/dev/zero`) ends the read at its line and column, and a
/// line longer than a record of the header's bodies can be (`maxRecordLineBytes`) or,
/// before the header, than `maxHeaderLineBytes`, is refused when that many bytes have
/// been read, not after reading the rest of the file.
public final class TraceStream {
    /// The longest header line read: 64 MiB (a header lists every body id, size and mass).
    public static let maxHeaderLineBytes = 64 << 20

    /// The longest record line: room for every value in shortest form (at most 24
    /// characters and a comma each), twice over for spaces, plus 4 KiB.
    public static func maxRecordLineBytes(for header: TraceHeader) -> Int {
        maxRecordLineBytes(bodies: header.bodies.count, fields: header.fields.count)
    }

    /// The longest record line of `bodies` bodies of `fields` values each (see above).
    static func maxRecordLineBytes(bodies: Int, fields: Int) -> Int {
        4096 + 2 * bodies * (fields * 25 + 3)
    }

    /// The longest event line: a spawned body's shapes are bounded by what a scenario may hold (16 MiB).
    public static let maxEventLineBytes = 16 << 20

    /// The longest end line (1 MiB): the rules' counters are written on it, and the loader
    /// refuses a scenario whose counters could make it longer (`ScenarioLimits.maxCounterBytes`).
    public static let maxEndLineBytes = ScenarioLimits().maxEndLineBytes

    /// The file as named in errors.
    public let file: String
    /// The header, read and checked when the stream was opened.
    public let header: TraceHeader
    /// The end line, once `next()` has returned `nil` (still `nil` for a truncated trace).
    public private(set) var end: TraceEndLine?
    /// The event lines (docs/formats.md §8) read just before the record `next()` returned
    /// last (or, once it returned `nil`, before the end line), in file order.
    public private(set) var events: [TraceEvent] = []
    /// The bodies and joints present at the record `next()` returned last: the header's,
    /// changed by every event read so far. A record's states follow `presence.bodies`.
    public private(set) var presence: TracePresence

    private var lines: LineSource
    private var parser: TraceLineReader
    private var digest = TraceDigest()
    private let verifyDigest: Bool
    private var lastStep: Int?
    private var finished = false

    /// Opens the trace at `path` and reads its header. A file whose first line is not a
    /// trace header is named as what it is when it is another of Tiltbox's kinds ("this
    /// is a Tiltbox scenario, not a trace").
    ///
    /// A zstd-compressed trace is first decompressed whole without being kept
    /// (`CompressedTraceInput.checkWhole`), so a damaged block or a checksum that does not
    /// match is reported as such, at its line, before any record is returned (and not as
    /// the divergence or syntax error the damaged text would show first).
    public convenience init(path: String, verifyDigest: Bool = true) throws(InputError) {
        do {
            try CompressedTraceInput.checkWhole(path: path)
            try self.init(lines: LineSource.open(path), file: path, verifyDigest: verifyDigest)
        } catch  where (error.line ?? 1) <= 1 {
            if let kind = TiltboxFileKind.ofFile(atPath: path), kind != .trace {
                throw InputError(file: path, reason: "this is \(kind.name), not a trace")
            }
            throw error
        }
    }

    /// The header of the trace at `path`, reading no further than the header line (a
    /// compressed trace is decompressed only that far and not checked whole): what
    /// `batch` needs to know which files a golden names before any job runs.
    public static func header(path: String) throws(InputError) -> TraceHeader {
        try TraceStream(lines: LineSource.open(path), file: path, verifyDigest: false).header
    }

    /// Reads trace text held in memory; `file` names it in errors.
    public convenience init(bytes: [UInt8], file: String, verifyDigest: Bool = true) throws(InputError) {
        try self.init(lines: LineSource(bytes: bytes, file: file), file: file, verifyDigest: verifyDigest)
    }

    private init(lines: LineSource, file: String, verifyDigest: Bool) throws(InputError) {
        self.lines = lines
        self.file = file
        self.verifyDigest = verifyDigest
        var parser = TraceLineReader(file: file)
        var header: TraceHeader?
        while header == nil {
            guard
                let node = try Self.nextNode(
                    &self.lines, &parser, maxBytes: Self.maxHeaderLineBytes,
                    options: Self.headerParsing)
            else {
                throw InputError(file: file, reason: "empty file: a trace starts with a tiltbox-trace/1 header line")
            }
            header = try TraceHeader.read(node, lines: parser)
        }
        self.parser = parser
        self.header = header!
        presence = TracePresence(header: header!)
    }

    deinit { lines.close() }

    /// The next record, or `nil` after the last (then `end` is set when the trace has one).
    public func next() throws(InputError) -> TraceRecord? {
        events.removeAll()
        return try nextRecord()
    }

    private var lastEventStep: Int?
    /// `presence.bodies`, made again only after an event (not once per record).
    private var presentBodies: [String] = []
    private var presentBodiesStale = true

    /// Reads lines until the next record (or the end of the file): event lines and the end line
    /// are taken in a loop, not by recursion, so thousands of events between two records (a
    /// timeline's spawns at one step) cost no stack.
    private func nextRecord() throws(InputError) -> TraceRecord? {
        while !finished {
            let limit = Self.maxRecordLineBytes(bodies: presence.bodyCount, fields: header.fields.count)
            guard
                let node = try Self.nextNode(
                    &lines, &parser, maxBytes: limit, options: JSONParser.Options(),
                    longLineMaxBytes: max(limit, Self.maxEventLineBytes, Self.maxEndLineBytes))
            else {
                finished = true
                lines.close()
                return nil
            }
            if end != nil {
                throw parser.error(at: node, reason: "text after the end line")
            }
            guard node.objectMembers != nil else {
                throw parser.error(
                    at: node, reason: "expected a record or the end line (an object), got \(node.value.typeName)")
            }
            if node["end"] != nil {
                let endLine = try parser.endLine(node)
                // A hash trace's digest covers the states it does not hold: it cannot be checked here.
                if verifyDigest && header.records == .states && endLine.digest != digest.text {
                    throw parser.error(
                        at: node["digest"], path: "digest",
                        reason:
                            "\(endLine.digest) does not match the records (\(digest.text)): the trace was changed after it was written"
                    )
                }
                end = endLine
                // Nothing may follow the end line: read on to prove it.
                continue
            }
            if let eventNode = node["event"] {
                try takeEvent(node, eventNode)
                continue
            }
            if presentBodiesStale {
                presentBodies = presence.bodies
                presentBodiesStale = false
            }
            let record = try parser.record(node, header: header, bodies: presentBodies, previousStep: lastStep)
            if let lastEventStep, record.step < lastEventStep {
                throw parser.error(
                    at: node["step"], path: "step",
                    reason:
                        "record of step \(record.step) after an event of step \(lastEventStep) (an event comes before the first record that shows it)"
                )
            }
            record.states.withUnsafeBufferPointer { digest.addRecord(gravity: record.gravity, states: $0) }
            lastStep = record.step
            return record
        }
        return nil
    }

    /// Checks an event line against what is present and the step order, applies it and keeps it.
    private func takeEvent(_ node: JSONNode, _ eventNode: JSONNode) throws(InputError) {
        let event = try parser.event(node, present: presence)
        // An event comes after the records of earlier steps and the events before it.
        if let lastStep, event.step <= lastStep {
            throw parser.error(
                at: node["step"] ?? eventNode, path: "step",
                reason: "event of step \(event.step) after the record of step \(lastStep) "
                    + "(an event comes before the first record that shows it)")
        }
        if let lastEventStep, event.step < lastEventStep {
            throw parser.error(
                at: node["step"] ?? eventNode, path: "step",
                reason:
                    "event of step \(event.step) after an event of step \(lastEventStep) (events come in step order)"
            )
        }
        lastEventStep = event.step
        presence.apply(event)
        presentBodiesStale = true
        events.append(event)
    }

    /// The next non-blank line parsed, `nil` at the end of the file.
    /// The deepest nesting read in a header line. A header's own structure is 6 levels deep
    /// (`shapes[b][s].vertices[v]`), a scenario override recorded in `source.overrides` a few more.
    public static let maxHeaderDepth = 32

    /// How a header line is parsed: nesting capped at `maxHeaderDepth`, and the values of
    /// top-level keys the reader does not know checked as JSON but not kept, so an ignored
    /// key costs no memory however large it is (up to `maxHeaderLineBytes`).
    private static let headerParsing = JSONParser.Options(
        maxDepth: maxHeaderDepth, keptTopLevelKeys: Set(TraceHeader.keys.map(\.name)))

    private static func nextNode(
        _ lines: inout LineSource, _ parser: inout TraceLineReader, maxBytes: Int, options: JSONParser.Options,
        longLineMaxBytes: Int? = nil
    )
        throws(InputError) -> JSONNode?
    {
        while true {
            guard
                let line = try lines.nextLine(
                    maxBytes: maxBytes, longLineMaxBytes: longLineMaxBytes ?? maxBytes, file: parser.file)
            else { return nil }
            parser.lineNumber = lines.lineNumber
            let parsed: Result<JSONNode, JSONSyntaxError>? = lines.withLine(line) { bytes in
                // The JSON layer skips a byte order mark; a trace, written by Tiltbox, never has one.
                if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
                    return .failure(
                        JSONSyntaxError(
                            location: SourceLocation(line: 1, column: 1),
                            reason: "a byte order mark (U+FEFF): a trace has none"))
                }
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return nil }
                return Result { () throws(JSONSyntaxError) in try JSONParser.parse(utf8: bytes, options: options) }
            }
            switch parsed {
            case nil: continue
            case .success(let node)?: return node
            case .failure(let error)?:
                if !line.hasNewline {
                    throw parser.error(
                        at: nil,
                        reason: "the last line is cut off (the writer stopped in the middle of it): \(error.reason)")
                }
                throw InputError(
                    file: parser.file, location: SourceLocation(line: lines.lineNumber, column: error.location.column),
                    reason: error.reason)
            }
        }
    }
}

// MARK: - Lines

/// The lines of a trace, from a file read in 64 KiB chunks or from bytes in memory.
/// Holds at most one line (and one chunk) at a time. Input that starts with zstd's magic
/// number (a `.zst` trace, whatever its name) is decompressed as it is read
/// (`CompressedTraceInput`), in chunks of the same size.
private struct LineSource {
    struct Line {
        var range: Range<Int>
        var hasNewline: Bool
    }

    private var fd: Int32 = -1
    private var buffer: [UInt8]
    /// What each `read(2)` fills before its bytes join `buffer`.
    private var scratch: [UInt8] = []
    /// Where the next line starts in `buffer`.
    private var start = 0
    /// How far `buffer` has been checked for a newline and control characters.
    private var scanned = 0
    private var atEnd: Bool
    /// The number of the line last returned.
    private(set) var lineNumber = 0
    /// Set once the input's first bytes showed a zstd stream.
    private var compressed: CompressedTraceInput?
    /// Whether the first bytes of a file have been looked at for zstd's magic number.
    private var sniffed = false

    /// Bytes in memory: plain trace text, or a zstd stream of it.
    init(bytes: [UInt8], file: String) throws(InputError) {
        if ZstdDecompressor.startsStream(bytes) {
            compressed = try CompressedTraceInput(pending: bytes, file: file)
            buffer = []
            atEnd = false
        } else {
            buffer = bytes
            atEnd = true
        }
        sniffed = true
    }

    private init(fd: Int32) {
        self.fd = fd
        buffer = []
        atEnd = false
    }

    static func open(_ path: String) throws(InputError) -> LineSource {
        func failure(_ code: Int32) -> InputError {
            InputError(file: path, reason: String(cString: strerror(code)))
        }
        var fd: Int32
        repeat { fd = Glibc.open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw failure(errno) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { let code = errno; _ = Glibc.close(fd); throw failure(code) }
        if (info.st_mode & S_IFMT) == S_IFDIR { _ = Glibc.close(fd); throw failure(EISDIR) }
        var system = statfs()
        if fstatfs(fd, &system) == 0 {
            do throws(InputError) { try RegularFile.refuseKernelFileSystem(system, path: path) } catch {
                _ = Glibc.close(fd)
                throw error
            }
        }
        return LineSource(fd: fd)
    }

    mutating func close() {
        if fd >= 0 { _ = Glibc.close(fd); fd = -1 }
    }

    func withLine<R>(_ line: Line, _ body: (UnsafeBufferPointer<UInt8>) -> R) -> R {
        buffer.withUnsafeBufferPointer { all in body(UnsafeBufferPointer(rebasing: all[line.range])) }
    }

    /// The next line (without its newline), `nil` at the end of the input.
    /// - Throws: at a control character (JSON allows none, not even in strings) or once
    ///   the line passes `maxBytes` (`longLineMaxBytes` for a line that starts as an event line,
    ///   `{"event"`, or as the end line, `{"end"`, as the writer writes them).
    mutating func nextLine(maxBytes: Int, longLineMaxBytes: Int, file: String) throws(InputError) -> Line? {
        // Drop the lines already returned once they are most of the buffer, so it
        // holds about one line and one chunk, without moving bytes on every line.
        if start > 0, start >= buffer.count / 2 {
            buffer.removeSubrange(0..<start)
            scanned -= start
            start = 0
        }
        while true {
            let maxBytes = startsLongLine() ? longLineMaxBytes : maxBytes
            // Find the first newline or control character in what is not yet scanned,
            // looking no further than the line's limit.
            let stop = min(buffer.count, start + maxBytes + 1)
            let found: Int? = buffer.withUnsafeBufferPointer { bytes in
                var i = scanned
                while i < stop {
                    if bytes[i] < 0x20 && bytes[i] != 0x09 && bytes[i] != 0x0D { return i }
                    i += 1
                }
                return nil
            }
            if let found {
                let byte = buffer[found]
                if byte == 0x0A {
                    lineNumber += 1
                    let line = Line(range: start..<found, hasNewline: true)
                    scanned = found + 1
                    start = scanned
                    return line
                }
                throw InputError(
                    file: file, line: lineNumber + 1, column: found - start + 1,
                    reason: "control character 0x\(String(byte, radix: 16)) where a trace has JSON text")
            }
            scanned = stop
            if scanned - start > maxBytes {
                throw InputError(
                    file: file, line: lineNumber + 1,
                    reason:
                        "line longer than \(maxBytes) bytes, more than any \(lineNumber == 0 ? "header" : "record of this trace") can be"
                )
            }
            if atEnd {
                guard start < buffer.count else { return nil }
                lineNumber += 1
                let line = Line(range: start..<buffer.count, hasNewline: false)
                start = buffer.count
                return line
            }
            try fill(file: file)
        }
    }

    private static let longLineStarts = [Array(#"{"event""#.utf8), Array(#"{"end""#.utf8)]

    /// Whether the line being read starts with `{"event"` or `{"end"` (only known once that much
    /// is buffered).
    private func startsLongLine() -> Bool {
        Self.longLineStarts.contains { prefix in
            guard buffer.count - start >= prefix.count else { return false }
            for i in 0..<prefix.count where buffer[start + i] != prefix[i] { return false }
            return true
        }
    }

    private mutating func fill(file: String) throws(InputError) {
        let chunk = 1 << 16
        if scratch.isEmpty { scratch = [UInt8](repeating: 0, count: chunk) }
        if !sniffed { try sniff(file: file) }
        var n: Int
        if let compressed {
            let fd = self.fd, line = lineNumber + 1
            let result: Result<Int, InputError> = scratch.withUnsafeMutableBytes { raw in
                Result { () throws(InputError) in try compressed.read(into: raw, from: fd, file: file, line: line) }
            }
            n = try result.get()
        } else {
            n = try readChunk(file: file)
        }
        if n == 0 {
            atEnd = true
            close()
            return
        }
        buffer.append(contentsOf: scratch[0..<n])
    }

    /// Reads the file's first four bytes (or all of a shorter file) into `buffer` and,
    /// when they are zstd's magic number, hands them to a decoder instead.
    private mutating func sniff(file: String) throws(InputError) {
        sniffed = true
        while buffer.count < 4 {
            let n = try readChunk(file: file)
            if n == 0 { break }
            buffer.append(contentsOf: scratch[0..<n])
        }
        if ZstdDecompressor.startsStream(buffer) {
            compressed = try CompressedTraceInput(pending: buffer, file: file)
            buffer = []
        }
    }

    private mutating func readChunk(file: String) throws(InputError) -> Int {
        var n: Int
        repeat {
            n = scratch.withUnsafeMutableBytes { raw in readBytes(fd, raw.baseAddress!, raw.count) }
        } while n < 0 && errno == EINTR
        if n < 0 { throw InputError(file: file, reason: String(cString: strerror(errno))) }
        return n
    }
}

/// `read(2)`, under a name that `TraceReader.read(path:)` does not shadow.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

// MARK: - Records and the end line

extension TraceLineReader {
    // MARK: Records

    func record(_ node: JSONNode, header: TraceHeader, bodies present: [String], previousStep: Int?)
        throws(InputError) -> TraceRecord
    {
        guard let stepNode = node["step"] else {
            throw error(at: node, reason: "expected a record (with \"step\") or the end line (with \"end\")")
        }
        let step = try integer(stepNode, "step", minimum: 0)
        if let previousStep, step <= previousStep {
            throw error(at: stepNode, path: "step", reason: "step \(step) does not follow step \(previousStep)")
        }
        let t = try number(try member(node, "t"), "t")
        let gravity = try pair(try member(node, "g"), "g")
        if header.records == .hashes {
            let hashNode = try member(node, "h")
            let text = try string(hashNode, "h")
            guard let hash = TraceDigest.value(ofText: text) else {
                throw error(
                    at: hashNode, path: "h",
                    reason: "expected \"fnv1a64:\" and 16 lowercase hex digits, got \"\(text)\"")
            }
            return TraceRecord(step: step, t: t, gravity: gravity, states: [], hash: hash)
        }
        let statesNode = try member(node, "s")
        let bodies = try array(statesNode, "s")
        guard bodies.count == present.count else {
            throw error(
                at: statesNode, path: "s",
                reason: present == header.bodies
                    ? "record has \(bodies.count) bodies, header lists \(header.bodies.count)"
                    : "record has \(bodies.count) bodies, \(present.count) are present (the header's, with the events before it)"
            )
        }
        let perBody = header.fields.count
        var states: [Double] = []
        states.reserveCapacity(bodies.count * perBody)
        for (b, body) in bodies.enumerated() {
            let values = try array(body, "s[\(b)]")
            guard values.count == perBody else {
                throw error(
                    at: body, path: "s[\(b)]",
                    reason: "body \"\(present[b])\" has \(values.count) values, header lists \(perBody) fields")
            }
            for (f, value) in values.enumerated() {
                guard let number = value.numberValue else {
                    throw error(
                        at: value, path: "s[\(b)][\(f)]", reason: "expected a number, got \(value.value.typeName)")
                }
                guard number.isFinite else {
                    throw error(at: value, path: "s[\(b)][\(f)]", reason: "must be a finite number")
                }
                states.append(number)
            }
        }
        return TraceRecord(step: step, t: t, gravity: gravity, states: states)
    }

    // MARK: End line

    func endLine(_ node: JSONNode) throws(InputError) -> TraceEndLine {
        let kindNode = try member(node, "end")
        let kindText = try string(kindNode, "end")
        guard let kind = TraceEndLine.Kind(rawValue: kindText) else {
            throw error(
                at: kindNode, path: "end",
                reason: "unknown end \"\(kindText)\" (expected complete, interrupted or error)")
        }
        let digestNode = try member(node, "digest")
        let digest = try string(digestNode, "digest")
        guard TraceDigest.value(ofText: digest) != nil else {
            throw error(
                at: digestNode, path: "digest",
                reason: "expected \"fnv1a64:\" and 16 lowercase hex digits, got \"\(digest)\"")
        }
        var message: String?
        if let messageNode = node["message"] { message = try string(messageNode, "message") }
        var line = TraceEndLine(
            kind: kind,
            steps: try integer(try member(node, "steps"), "steps", minimum: 0),
            simTime: try number(try member(node, "simTime"), "simTime"),
            droppedTime: try number(try member(node, "droppedTime"), "droppedTime"),
            digest: digest,
            message: message)
        if let countersNode = node["counters"] {
            guard case .object(let members) = countersNode.value else {
                throw error(
                    at: countersNode, path: "counters",
                    reason: "expected an object of counter names and counts, got \(countersNode.value.typeName)")
            }
            for member in members {
                let value = try integer(member.node, "counters." + member.key, minimum: 0)
                line.counters.append(TraceCounter(name: member.key, value: value))
            }
        }
        return line
    }
}
