/// Compares two traces and finds their first divergence (`tiltbox diff`, `tiltbox verify`).
///
/// Order of the checks: the headers (`bodies`, `fields`, `dt`, `every`; the scenario
/// name only when the bodies differ too, to say so; the engine text and the optional
/// keys are not compared), then the records
/// in order (step number, then `t`, `g.x`, `g.y`, then each body's fields in header
/// order), then a record present in only one trace, then the end lines (both present,
/// same kind, same step count; `droppedTime` depends on the frame clock, not the
/// physics, and is not compared).
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
        precondition(tolerance >= 0 && tolerance.isFinite, "tolerance must be finite and >= 0")
        if let mismatch = compareHeaders(a.header, b.header) {
            return .diverged(mismatch)
        }
        let header = a.header
        let perBody = header.fields.count
        let common = min(a.records.count, b.records.count)
        for index in 0..<common {
            let ra = a.records[index], rb = b.records[index]
            guard ra.step == rb.step else {
                return .diverged(.stepMismatch(index: index, stepA: ra.step, stepB: rb.step))
            }
            func difference(_ body: String?, _ field: String, _ va: Double, _ vb: Double) -> TraceComparison {
                .diverged(.value(TraceValueDifference(step: ra.step, time: ra.t, body: body, field: field, a: va, b: vb)))
            }
            if !agree(ra.t, rb.t, tolerance) { return difference(nil, "t", ra.t, rb.t) }
            if !agree(ra.gravity.x, rb.gravity.x, tolerance) { return difference(nil, "g.x", ra.gravity.x, rb.gravity.x) }
            if !agree(ra.gravity.y, rb.gravity.y, tolerance) { return difference(nil, "g.y", ra.gravity.y, rb.gravity.y) }
            // The reader guarantees these counts; a hand-built Trace might not.
            precondition(ra.states.count == header.valuesPerRecord && rb.states.count == header.valuesPerRecord,
                         "record states do not match the header")
            for i in 0..<ra.states.count where !agree(ra.states[i], rb.states[i], tolerance) {
                return difference(header.bodies[i / perBody], header.fields[i % perBody], ra.states[i], rb.states[i])
            }
        }
        if a.records.count != b.records.count {
            let (longer, shorter, side): (Trace, Trace, TraceDivergence.Side) =
                a.records.count > b.records.count ? (a, b, .b) : (b, a, .a)
            let missing = longer.records[common]
            return .diverged(.missingRecord(step: missing.step, time: missing.t, missingFrom: side,
                                            truncated: shorter.end == nil))
        }
        if let mismatch = compareEnds(a, b) {
            return .diverged(.end(mismatch))
        }
        return .identical(records: common)
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

    private static func compareHeaders(_ a: TraceHeader, _ b: TraceHeader) -> TraceDivergence? {
        TraceHeaderMismatch.between(a, b, compareScenarioNames: false).map { .header($0) }
    }

    private static func compareEnds(_ a: Trace, _ b: Trace) -> TraceDivergence.EndMismatch? {
        let lastStep = a.records.last?.step
        switch (a.end, b.end) {
        case (nil, nil):
            return .missingEndLine(side: nil, afterStep: lastStep)
        case (nil, _?):
            return .missingEndLine(side: .a, afterStep: lastStep)
        case (_?, nil):
            return .missingEndLine(side: .b, afterStep: lastStep)
        case (let ea?, let eb?):
            if ea.kind != eb.kind { return .kinds(a: ea.kind.rawValue, b: eb.kind.rawValue) }
            if ea.steps != eb.steps { return .stepCounts(a: ea.steps, b: eb.steps) }
            return nil
        }
    }
}
