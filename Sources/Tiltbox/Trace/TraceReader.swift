#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a trace file (FORMATS.md §3) back into a `Trace`, validating it as it goes.
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
public enum TraceReader {
    /// Reads and validates the trace at `path`.
    /// - Parameter verifyDigest: check the end line's digest against the records.
    /// - Throws: `InputError` naming the file and, for content problems, the line.
    public static func read(path: String, verifyDigest: Bool = true) throws(InputError) -> Trace {
        let bytes = try readFile(path)
        do {
            return try parse(bytes, file: path, verifyDigest: verifyDigest)
        } catch where (error.line ?? 1) <= 1 {
            // The header line is wrong: say so when the file is another of Tiltbox's kinds.
            let kind = bytes.withUnsafeBufferPointer { TiltboxFileKind.of($0) }
            if let kind, kind != .trace {
                throw InputError(file: path, reason: "this is \(kind.name), not a trace")
            }
            throw error
        }
    }

    /// Parses trace text held in memory; `file` names it in errors.
    public static func parse(_ bytes: [UInt8], file: String, verifyDigest: Bool = true) throws(InputError) -> Trace {
        let result: Result<Trace, InputError> = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(InputError) in try parse(utf8: buffer, file: file, verifyDigest: verifyDigest) }
        }
        return try result.get()
    }

    /// Parses trace text from UTF-8 bytes; `file` names it in errors.
    public static func parse(utf8 bytes: UnsafeBufferPointer<UInt8>, file: String, verifyDigest: Bool = true) throws(InputError) -> Trace {
        var parser = LineParser(file: file)
        var header: TraceHeader?
        var records: [TraceRecord] = []
        var end: TraceEndLine?
        var digest = TraceDigest()
        var lineNumber = 0
        var start = 0
        while start < bytes.count {
            lineNumber += 1
            var stop = start
            while stop < bytes.count && bytes[stop] != 0x0A { stop += 1 }
            let hasNewline = stop < bytes.count
            let line = UnsafeBufferPointer(rebasing: bytes[start..<stop])
            start = stop + 1
            if isBlank(line) { continue }
            parser.lineNumber = lineNumber
            let node: JSONNode
            do {
                node = try JSONParser.parse(utf8: line)
            } catch {
                if !hasNewline {
                    throw parser.error(at: nil, reason: "the last line is cut off (the writer stopped in the middle of it): \(error.reason)")
                }
                throw InputError(file: file, location: SourceLocation(line: lineNumber, column: error.location.column),
                                 reason: error.reason)
            }
            guard let currentHeader = header else {
                header = try parser.header(node)
                continue
            }
            if end != nil {
                throw parser.error(at: node, reason: "text after the end line")
            }
            guard node.objectMembers != nil else {
                throw parser.error(at: node, reason: "expected a record or the end line (an object), got \(node.value.typeName)")
            }
            if node["end"] != nil {
                let endLine = try parser.endLine(node)
                if verifyDigest && endLine.digest != digest.text {
                    throw parser.error(at: node["digest"], path: "digest",
                                       reason: "\(endLine.digest) does not match the records (\(digest.text)): the trace was changed after it was written")
                }
                end = endLine
                continue
            }
            let record = try parser.record(node, header: currentHeader, previousStep: records.last?.step)
            record.states.withUnsafeBufferPointer { digest.addRecord(gravity: record.gravity, states: $0) }
            records.append(record)
        }
        guard let header else {
            throw InputError(file: file, reason: "empty file: a trace starts with a tiltbox-trace/1 header line")
        }
        return Trace(header: header, records: records, end: end)
    }

    private static func isBlank(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        line.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }
    }

    // MARK: - File

    private static func readFile(_ path: String) throws(InputError) -> [UInt8] {
        func failure(_ code: Int32) -> InputError {
            InputError(file: path, reason: String(cString: strerror(code)))
        }
        var fd: Int32
        repeat { fd = open(path, O_RDONLY | O_CLOEXEC) } while fd < 0 && errno == EINTR
        guard fd >= 0 else { throw failure(errno) }
        defer { _ = close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw failure(errno) }
        if (info.st_mode & S_IFMT) == S_IFDIR { throw failure(EISDIR) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(Int(info.st_size) + 1)
        let chunk = 1 << 16
        while true {
            let oldCount = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: chunk))
            let n = bytes.withUnsafeMutableBytes { raw in
                readBytes(fd, raw.baseAddress! + oldCount, chunk)
            }
            if n < 0 {
                let code = errno
                bytes.removeLast(chunk)
                if code == EINTR { continue }
                throw failure(code)
            }
            bytes.removeLast(chunk - n)
            if n == 0 { break }
        }
        return bytes
    }
}

/// `read(2)`, under a name that `TraceReader.read(path:)` does not shadow.
private func readBytes(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(fd, buffer, count)
}

// MARK: - Line parsing

/// Typed access to one line's JSON, with errors located at the file's line.
private struct LineParser {
    let file: String
    var lineNumber = 0

    init(file: String) {
        self.file = file
    }

    func error(at node: JSONNode?, path: String? = nil, reason: String) -> InputError {
        let column = node?.location.column ?? 1
        let line = lineNumber + (node.map { $0.location.line - 1 } ?? 0)
        return InputError(file: file, location: SourceLocation(line: line, column: column), path: path, reason: reason)
    }

    func member(_ object: JSONNode, _ key: String) throws(InputError) -> JSONNode {
        guard let node = object[key] else { throw error(at: object, reason: "missing \"\(key)\"") }
        return node
    }

    func number(_ node: JSONNode, _ path: String) throws(InputError) -> Double {
        guard let value = node.numberValue else {
            throw error(at: node, path: path, reason: "expected a number, got \(node.value.typeName)")
        }
        return value
    }

    func integer(_ node: JSONNode, _ path: String, minimum: Int) throws(InputError) -> Int {
        let value = try number(node, path)
        guard let integer = Int(exactly: value) else {
            throw error(at: node, path: path, reason: "expected a whole number, got \(NumberFormat.shortest(value))")
        }
        guard integer >= minimum else {
            throw error(at: node, path: path, reason: "must be at least \(minimum), got \(integer)")
        }
        return integer
    }

    func string(_ node: JSONNode, _ path: String) throws(InputError) -> String {
        guard let value = node.stringValue else {
            throw error(at: node, path: path, reason: "expected a string, got \(node.value.typeName)")
        }
        return value
    }

    func array(_ node: JSONNode, _ path: String, count: Int? = nil) throws(InputError) -> [JSONNode] {
        guard let elements = node.arrayValue else {
            throw error(at: node, path: path, reason: "expected an array, got \(node.value.typeName)")
        }
        if let count, elements.count != count {
            throw error(at: node, path: path, reason: "expected \(count) elements, got \(elements.count)")
        }
        return elements
    }

    func pair(_ node: JSONNode, _ path: String) throws(InputError) -> Vec2 {
        let elements = try array(node, path, count: 2)
        return Vec2(try number(elements[0], path + "[0]"), try number(elements[1], path + "[1]"))
    }

    func strings(_ node: JSONNode, _ path: String) throws(InputError) -> [String] {
        var result: [String] = []
        for (i, element) in try array(node, path).enumerated() {
            result.append(try string(element, "\(path)[\(i)]"))
        }
        return result
    }

    // MARK: Header

    func header(_ node: JSONNode) throws(InputError) -> TraceHeader {
        guard node.objectMembers != nil, let formatNode = node["format"] else {
            throw error(at: node, reason: "not a tiltbox trace: the first line must be a header with \"format\": \"\(TraceHeader.currentFormat)\"")
        }
        let format = try string(formatNode, "format")
        guard format == TraceHeader.currentFormat else {
            throw error(at: formatNode, path: "format", reason: "unsupported trace format \"\(format)\" (expected \"\(TraceHeader.currentFormat)\")")
        }
        let dtNode = try member(node, "dt")
        let dt = try number(dtNode, "dt")
        guard dt > 0 else { throw error(at: dtNode, path: "dt", reason: "must be > 0") }
        let fieldsNode = try member(node, "fields")
        let fields = try strings(fieldsNode, "fields")
        guard !fields.isEmpty else { throw error(at: fieldsNode, path: "fields", reason: "must name at least one field") }
        var header = TraceHeader(
            format: format,
            scenario: try string(try member(node, "scenario"), "scenario"),
            engine: try string(try member(node, "engine"), "engine"),
            spatialIndex: try string(try member(node, "spatialIndex"), "spatialIndex"),
            dt: dt,
            every: try integer(try member(node, "every"), "every", minimum: 1),
            fields: fields,
            bodies: try strings(try member(node, "bodies"), "bodies")
        )
        if let world = node["world"] {
            guard world.objectMembers != nil else {
                throw error(at: world, path: "world", reason: "expected an object, got \(world.value.typeName)")
            }
            if let size = world["size"] { header.worldSize = try pair(size, "world.size") }
        }
        if let segmentsNode = node["segments"] {
            var segments: [TraceHeader.Segment] = []
            for (i, s) in try array(segmentsNode, "segments").enumerated() {
                let path = "segments[\(i)]"
                guard s.objectMembers != nil else {
                    throw error(at: s, path: path, reason: "expected an object, got \(s.value.typeName)")
                }
                segments.append(TraceHeader.Segment(
                    from: try pair(try member(s, "from"), path + ".from"),
                    to: try pair(try member(s, "to"), path + ".to"),
                    radius: try number(try member(s, "radius"), path + ".radius")))
            }
            header.segments = segments
        }
        if let sizesNode = node["sizes"] {
            var sizes: [Vec2] = []
            for (i, s) in try array(sizesNode, "sizes", count: header.bodies.count).enumerated() {
                sizes.append(try pair(s, "sizes[\(i)]"))
            }
            header.sizes = sizes
        }
        if let hz = node["hz"] { header.hz = try number(hz, "hz") }
        if let duration = node["duration"] { header.duration = try number(duration, "duration") }
        if let tilt = node["tilt"] { header.tilt = try string(tilt, "tilt") }
        if let massesNode = node["masses"] {
            var masses: [Double] = []
            for (i, m) in try array(massesNode, "masses", count: header.bodies.count).enumerated() {
                masses.append(try number(m, "masses[\(i)]"))
            }
            header.masses = masses
        }
        if let spaceNode = node["space"] { header.space = try space(spaceNode) }
        do {
            try header.readProvenance(from: node)
        } catch {
            throw self.error(at: error.node, path: error.path, reason: error.reason)
        }
        return header
    }

    /// The optional `space` object: every setting a number (`sleepTimeThreshold` may be
    /// `null`, infinity: sleeping off); an object missing a setting, or naming another, is accepted and
    /// ignored as a whole (a later version may record more or fewer).
    func space(_ node: JSONNode) throws(InputError) -> SpaceSettings? {
        guard node.objectMembers != nil else {
            throw error(at: node, path: "space", reason: "expected an object, got \(node.value.typeName)")
        }
        func value(_ name: String) throws(InputError) -> Double? {
            guard let member = node[name] else { return nil }
            if name == "sleepTimeThreshold", case .null = member.value { return .infinity }
            return try number(member, "space.\(name)")
        }
        guard let iterations = try value("iterations"), let damping = try value("damping"),
              let slop = try value("collisionSlop"), let bias = try value("collisionBias"),
              let persistence = try value("collisionPersistence"), let sleep = try value("sleepTimeThreshold"),
              let idle = try value("idleSpeedThreshold"),
              let iterationCount = Int(exactly: iterations), let persistenceCount = Int(exactly: persistence)
        else { return nil }
        return SpaceSettings(iterations: iterationCount, damping: damping, collisionSlop: slop, collisionBias: bias,
                             collisionPersistence: persistenceCount, sleepTimeThreshold: sleep, idleSpeedThreshold: idle)
    }

    // MARK: Records

    func record(_ node: JSONNode, header: TraceHeader, previousStep: Int?) throws(InputError) -> TraceRecord {
        guard let stepNode = node["step"] else {
            throw error(at: node, reason: "expected a record (with \"step\") or the end line (with \"end\")")
        }
        let step = try integer(stepNode, "step", minimum: 0)
        if let previousStep, step <= previousStep {
            throw error(at: stepNode, path: "step", reason: "step \(step) does not follow step \(previousStep)")
        }
        let t = try number(try member(node, "t"), "t")
        let gravity = try pair(try member(node, "g"), "g")
        let statesNode = try member(node, "s")
        let bodies = try array(statesNode, "s")
        guard bodies.count == header.bodies.count else {
            throw error(at: statesNode, path: "s", reason: "record has \(bodies.count) bodies, header lists \(header.bodies.count)")
        }
        let perBody = header.fields.count
        var states: [Double] = []
        states.reserveCapacity(bodies.count * perBody)
        for (b, body) in bodies.enumerated() {
            let values = try array(body, "s[\(b)]")
            guard values.count == perBody else {
                throw error(at: body, path: "s[\(b)]", reason: "body \"\(header.bodies[b])\" has \(values.count) values, header lists \(perBody) fields")
            }
            for (f, value) in values.enumerated() {
                guard let number = value.numberValue else {
                    throw error(at: value, path: "s[\(b)][\(f)]", reason: "expected a number, got \(value.value.typeName)")
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
            throw error(at: kindNode, path: "end", reason: "unknown end \"\(kindText)\" (expected complete, interrupted or error)")
        }
        let digestNode = try member(node, "digest")
        let digest = try string(digestNode, "digest")
        let hex = digest.utf8.dropFirst(8)
        guard digest.hasPrefix("fnv1a64:"), hex.count == 16,
              hex.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else {
            throw error(at: digestNode, path: "digest", reason: "expected \"fnv1a64:\" and 16 lowercase hex digits, got \"\(digest)\"")
        }
        var message: String?
        if let messageNode = node["message"] { message = try string(messageNode, "message") }
        return TraceEndLine(
            kind: kind,
            steps: try integer(try member(node, "steps"), "steps", minimum: 0),
            simTime: try number(try member(node, "simTime"), "simTime"),
            droppedTime: try number(try member(node, "droppedTime"), "droppedTime"),
            digest: digest,
            message: message)
    }
}
