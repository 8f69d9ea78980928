/// Compares two traces and finds their first divergence (`tiltbox diff`, `tiltbox verify`).
///
/// Order of the checks: the headers (`bodies`, `fields`, `dt`, `every`; the scenario
/// name only when the bodies differ too, to say so; the engine text and the optional
/// keys are not compared), then the records
/// in order (the event lines before each record first, in order: the first that differs, or
/// that one side lacks, is a divergence; then the step number, then `t`, `g.x`, `g.y`, then each body's fields in header
/// order; when either record is a hash trace's, its hash against the other's, computed
/// from its states when it holds them), then a record present in only one trace, then the end lines (both present,
/// same kind, same step count; `droppedTime` depends on the frame clock, not the
/// physics, and is not compared). A trace that ended `interrupted` after K steps is not
/// diverging from one that agrees with it up to step K and ran on or completed there
/// (`TraceComparison.identicalUntilInterrupted`, `compareTails`).
///
/// Equality: with `tolerance == 0` two values agree only when their IEEE-754 bit
/// patterns are equal, so `-0` and `0` differ (they are one ULP apart in
/// `ulpDistance`): the trace promises bit-for-bit reproduction, and a sign flip of zero
/// is a real change in the computation. With `tolerance > 0` two values agree when
/// `|a - b| <= tolerance` (so `-0` and `0` agree). Header `dt` is always compared bitwise.
public enum TraceDiff {
    /// Compares `a` with `b`. `tolerance` is an absolute bound in the values' own units
    /// (world units, radians, seconds); it must be finite and not negative.
    public static func compare(_ a: Trace, _ b: Trace, tolerance: Double = 0) -> TraceComparison {
        do {
            return try compare(MemoryRecords(a), MemoryRecords(b), tolerance: tolerance)
        } catch {
            preconditionFailure("records in memory cannot fail to read")
        }
    }

    /// Compares two traces read one record at a time, holding one record of each
    /// (`tiltbox diff` and `verify`, whatever the traces' length). Same result as
    /// `compare(_:_:tolerance:)` on the whole traces.
    /// - Throws: the first `InputError` either stream meets, when it comes before a divergence.
    public static func compare(_ a: TraceStream, _ b: TraceStream, tolerance: Double = 0) throws(InputError)
        -> TraceComparison
    {
        try compare(StreamRecords(a), StreamRecords(b), tolerance: tolerance)
    }

    private static func compare<A: RecordSource, B: RecordSource>(_ a: A, _ b: B, tolerance: Double) throws(InputError)
        -> TraceComparison
    {
        precondition(tolerance >= 0 && tolerance.isFinite, "tolerance must be finite and >= 0")
        if let mismatch = compareHeaders(a.header, b.header) {
            return .diverged(mismatch)
        }
        let header = a.header
        let perBody = header.fields.count
        var index = 0
        var lastStep: Int?
        // The bodies present, the same on both sides while their events agree.
        var presence = TracePresence(header: header)
        while true {
            let ra = try a.next(), rb = try b.next()
            guard let ra, let rb else {
                return try compareTails(a, b, ra: ra, rb: rb, records: index, lastStep: lastStep)
            }
            if let divergence = compareEvents(a.events, b.events) { return .diverged(divergence) }
            for event in a.events { presence.apply(event) }
            guard ra.step == rb.step else {
                return .diverged(.stepMismatch(index: index, stepA: ra.step, stepB: rb.step))
            }
            func difference(_ body: String?, _ field: String, _ va: Double, _ vb: Double) -> TraceComparison {
                .diverged(
                    .value(TraceValueDifference(step: ra.step, time: ra.t, body: body, field: field, a: va, b: vb)))
            }
            if !agree(ra.t, rb.t, tolerance) { return difference(nil, "t", ra.t, rb.t) }
            if !agree(ra.gravity.x, rb.gravity.x, tolerance) {
                return difference(nil, "g.x", ra.gravity.x, rb.gravity.x)
            }
            if !agree(ra.gravity.y, rb.gravity.y, tolerance) {
                return difference(nil, "g.y", ra.gravity.y, rb.gravity.y)
            }
            // A hash record holds no fields: compare the records' hashes (one side's may
            // be computed from its states).
            if ra.hash != nil || rb.hash != nil {
                let ha = ra.recordHash, hb = rb.recordHash
                if ha != hb { return .diverged(.recordHash(step: ra.step, time: ra.t, a: ha, b: hb)) }
                index += 1
                lastStep = ra.step
                continue
            }
            // The reader guarantees these counts; a hand-built Trace might not.
            let values = presence.valuesPerRecord(fields: perBody)
            precondition(
                ra.states.count == values && rb.states.count == values,
                "record states do not match the bodies present")
            for i in 0..<ra.states.count where !agree(ra.states[i], rb.states[i], tolerance) {
                return difference(presence.bodies[i / perBody], header.fields[i % perBody], ra.states[i], rb.states[i])
            }
            index += 1
            lastStep = ra.step
        }
    }

    /// Once one trace (or both) has no more records: the events before that point, a record
    /// only one trace has, then the end lines. Where that finds a difference, the traces still
    /// agree (`identicalUntilInterrupted`) when the one that stopped first ended `interrupted`
    /// after K steps and the other agrees up to step K: its events up to step K are the same,
    /// it has no record up to K the interrupted one lacks (but its own last record at K, which a
    /// trace recorded every E steps writes when it ends there), it ran K steps or more, and when
    /// it ended at K its counters are the same.
    private static func compareTails(
        _ a: any RecordSource, _ b: any RecordSource, ra: TraceRecord?, rb: TraceRecord?, records: Int,
        lastStep: Int?
    ) throws(InputError) -> TraceComparison {
        let plain: TraceDivergence
        if let divergence = compareEvents(a.events, b.events) {
            plain = divergence
        } else if let missing = ra ?? rb {
            // One trace has a record the other lacks; read the shorter one's end (already read).
            let shorterEnd = ra == nil ? a.end : b.end
            plain = .missingRecord(
                step: missing.step, time: missing.t, missingFrom: ra == nil ? .a : .b, truncated: shorterEnd == nil)
        } else if let mismatch = compareEnds(a.end, b.end, lastStep: lastStep) {
            plain = .end(mismatch)
        } else {
            return .identical(records: records)
        }
        // Which trace stopped first, interrupted: the one out of records (the one with fewer steps when both are).
        let side: TraceDivergence.Side
        switch (ra, rb, a.end, b.end) {
        case (nil, _?, let end?, _) where end.kind == .interrupted:
            side = .a
        case (_?, nil, _, let end?) where end.kind == .interrupted:
            side = .b
        case (nil, nil, let ea?, let eb?):
            if ea.kind == .interrupted && (eb.kind != .interrupted || ea.steps < eb.steps) && ea.steps <= eb.steps {
                side = .a
            } else if eb.kind == .interrupted && eb.steps <= ea.steps {
                side = .b
            } else {
                return .diverged(plain)
            }
        default:
            return .diverged(plain)
        }
        let (short, long) = side == .a ? (a, b) : (b, a)
        guard let shortEnd = short.end else { return .diverged(plain) }
        let k = shortEnd.steps
        // The longer trace's rest: its events up to step K, and its records up to K.
        var longEvents = long.events.filter { $0.step <= k }
        var recordsUpToK: [TraceRecord] = []
        if let first = side == .a ? rb : ra {
            if first.step <= k { recordsUpToK.append(first) }
            while let record = try long.next() {
                longEvents += long.events.filter { $0.step <= k }
                if record.step <= k { recordsUpToK.append(record) }
            }
            longEvents += long.events.filter { $0.step <= k }
        }
        guard let longEnd = long.end, longEnd.steps >= k, compareEvents(short.events, longEvents) == nil else {
            return .diverged(plain)
        }
        // Only the other run's last record may lie within the K steps: the step it ended at.
        guard recordsUpToK.allSatisfy({ $0.step == k && longEnd.steps == k }), recordsUpToK.count <= 1 else {
            return .diverged(plain)
        }
        if longEnd.steps == k {
            guard longEnd.kind != .error else { return .diverged(plain) }
            // The same steps, and counters that differ: that is the difference to name.
            let (counterA, counterB) = side == .a ? (shortEnd, longEnd) : (longEnd, shortEnd)
            if let mismatch = compareCounters(counterA.counters, counterB.counters) { return .diverged(.end(mismatch)) }
        }
        return .identicalUntilInterrupted(
            TraceInterruptedPrefix(
                records: records, steps: k, time: shortEnd.simTime, interrupted: side, otherEnd: longEnd.kind,
                otherSteps: longEnd.steps))
    }

    /// The number of representable doubles from `a` to `b`: 0 when the bit patterns
    /// are equal, 1 between `x` and `x.nextUp`. Counted along the number line across
    /// zero, with `-0` and `+0` as two neighbouring values (so `-0` to `0` is 1, and
    /// `-leastNonzeroMagnitude` to `+leastNonzeroMagnitude` is 3). Infinities follow
    /// the largest finite values; NaNs are not expected (they sort beyond infinity).
    public static func ulpDistance(_ a: Double, _ b: Double) -> UInt64 {
        let ka = orderedKey(a), kb = orderedKey(b)
        return ka >= kb ? UInt64(bitPattern: ka &- kb) : UInt64(bitPattern: kb &- ka)
    }

    /// Maps a double to an integer that increases with the value, consecutive for
    /// neighbouring doubles, with `-0` just below `+0`.
    private static func orderedKey(_ x: Double) -> Int64 {
        let bits = Int64(bitPattern: x.bitPattern)
        return bits >= 0 ? bits : -(bits & Int64.max) - 1
    }

    private static func agree(_ a: Double, _ b: Double, _ tolerance: Double) -> Bool {
        if a.bitPattern == b.bitPattern { return true }
        return tolerance > 0 && abs(a - b) <= tolerance
    }

    /// The first difference between the event lines two traces hold at the same place.
    /// Events compare exactly (their `t` bit for bit), whatever the tolerance: they say which
    /// bodies exist, not where.
    private static func compareEvents(_ a: [TraceEvent], _ b: [TraceEvent]) -> TraceDivergence? {
        if a == b { return nil }
        for i in 0..<max(a.count, b.count) {
            let ea = i < a.count ? a[i] : nil, eb = i < b.count ? b[i] : nil
            if ea == eb { continue }
            if let ea, let eb, ea.step == eb.step, ea.change == eb.change, ea.t.bitPattern == eb.t.bitPattern {
                continue
            }
            let first = (ea ?? eb)!
            return .event(step: first.step, time: first.t, a: ea, b: eb)
        }
        return nil
    }

    private static func compareHeaders(_ a: TraceHeader, _ b: TraceHeader) -> TraceDivergence? {
        TraceHeaderMismatch.between(a, b, compareScenarioNames: false).map { .header($0) }
    }

    private static func compareEnds(_ endA: TraceEndLine?, _ endB: TraceEndLine?, lastStep: Int?)
        -> TraceDivergence.EndMismatch?
    {
        switch (endA, endB) {
        case (nil, nil):
            return .missingEndLine(side: nil, afterStep: lastStep)
        case (nil, _?):
            return .missingEndLine(side: .a, afterStep: lastStep)
        case (_?, nil):
            return .missingEndLine(side: .b, afterStep: lastStep)
        case (let ea?, let eb?):
            if ea.kind != eb.kind { return .kinds(a: ea.kind.rawValue, b: eb.kind.rawValue) }
            if ea.steps != eb.steps { return .stepCounts(a: ea.steps, b: eb.steps) }
            return compareCounters(ea.counters, eb.counters)
        }
    }
}

extension TraceDiff {
    /// The first counter whose value differs or that one end line lacks: the first trace's
    /// counters in order, then those only the second has.
    static func compareCounters(_ a: [TraceCounter], _ b: [TraceCounter]) -> TraceDivergence.EndMismatch? {
        if a == b { return nil }
        // By name through tables: an end line may carry many thousands of counters.
        var valuesB: [String: Int] = [:]
        for counter in b where valuesB[counter.name] == nil { valuesB[counter.name] = counter.value }
        for counter in a {
            let other = valuesB[counter.name]
            if other != counter.value { return .counter(name: counter.name, a: counter.value, b: other) }
        }
        let namesA = Set(a.map(\.name))
        for counter in b where !namesA.contains(counter.name) {
            return .counter(name: counter.name, a: nil, b: counter.value)
        }
        return nil // the same counters in another order: names and values agree
    }
}

// MARK: - Record sources

/// Records one at a time, from memory or from a stream.
private protocol RecordSource {
    var header: TraceHeader { get }
    /// The end line, once `next()` has returned `nil`.
    var end: TraceEndLine? { get }
    /// The events read before the record `next()` returned last (or before the end).
    var events: [TraceEvent] { get }
    func next() throws(InputError) -> TraceRecord?
}

private final class MemoryRecords: RecordSource {
    let trace: Trace
    private var index = 0
    private var nextEvent = 0
    private(set) var events: [TraceEvent] = []
    init(_ trace: Trace) { self.trace = trace }
    var header: TraceHeader { trace.header }
    var end: TraceEndLine? { trace.end }
    func next() throws(InputError) -> TraceRecord? {
        events.removeAll()
        while nextEvent < trace.events.count && trace.events[nextEvent].beforeRecord <= index {
            events.append(trace.events[nextEvent].event)
            nextEvent += 1
        }
        guard index < trace.records.count else { return nil }
        defer { index += 1 }
        return trace.records[index]
    }
}

private struct StreamRecords: RecordSource {
    let stream: TraceStream
    init(_ stream: TraceStream) { self.stream = stream }
    var header: TraceHeader { stream.header }
    var end: TraceEndLine? { stream.end }
    var events: [TraceEvent] { stream.events }
    func next() throws(InputError) -> TraceRecord? { try stream.next() }
}
