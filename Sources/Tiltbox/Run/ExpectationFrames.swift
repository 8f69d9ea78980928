/// Keeps, while a run steps, the states the film strip of a failing expectation shows
/// (`run --pictures`, `test --pictures`), so the pictures are drawn from the run itself:
/// no second run, no trace of every step.
///
/// A picture shows, for each of `offsets`, the step nearest to the failing time plus the
/// offset among every step of the run (0 to `totalSteps`; `RecordTimes.nearest`). The
/// failing step is known only when the run passes it (`ExpectationSink.failuresSoFar`), so
/// the sink holds the states of the last `lookBack` steps in a ring; when an expectation
/// first fails it keeps the steps of the ring its picture shows, and the later ones as the
/// run reaches them. It also keeps the last step, and every event that changes which bodies
/// and joints exist: `trace()` is then, at the steps kept, the trace of every step the run
/// would have written (the same header, records and events), which draws the same panels.
///
/// Its memory is bounded by the ring: `lookBack` states of the bodies present, plus the
/// steps kept (eight per failing expectation and the last) and the spawn and removal events.
/// Give it after the run's `ExpectationSink` in the session's sinks, so each step is checked
/// before it is offered here.
@_spi(Tools) public final class ExpectationFrames: RecordSink {
    /// Seconds before and after the failing step that the panels show.
    public static let offsets: [Double] = [-0.5, -0.3, -0.15, -0.05, 0, 0.05, 0.15, 0.3]

    private let expectations: ExpectationSink
    /// What the header of a trace of this run says (set by the session, `attach`).
    private var makeHeader: (() -> TraceHeader)?
    private var totalSteps = 0
    private var dt = 1.0
    /// The last steps, oldest first from `ringStart`; each slot's storage is reused.
    private var ring: [TraceRecord] = []
    private var ringStart = 0
    private var lookBack = 1
    /// The steps kept, by step.
    private var kept: [Int: TraceRecord] = [:]
    /// Steps after a failure that its picture shows, not reached yet.
    private var wanted: Set<Int> = []
    /// Whether each expectation's failure has been seen (its steps kept or wanted).
    private var seen: [Bool] = []
    private var seenCount = 0
    /// The events that change the bodies or joints present, each with the step of the
    /// record it comes before.
    private var events: [(event: TraceEvent, beforeStep: Int)] = []
    private var nextStep = 0

    /// A sink keeping the frames of the failures `expectations` finds.
    public init(expectations: ExpectationSink) {
        self.expectations = expectations
    }

    /// Every step, whatever the session's `every`.
    public var recordsEveryStep: Bool { true }

    /// Called by the session before step 0: the run's length and step, and how to make the
    /// header of a trace of every step of the run.
    func attach(totalSteps: Int, dt: Double, header: @escaping () -> TraceHeader) {
        self.totalSteps = totalSteps
        self.dt = dt
        makeHeader = header
        let before = -(Self.offsets.min() ?? 0)
        // The nearest step to a time `before` seconds back is at most this many steps back.
        lookBack = Int((max(0, before) / dt).rounded(.up)) + 2
    }

    /// Keeps a change of the bodies or joints present; collisions and skipped actions draw nothing.
    public func event(_ event: TraceEvent) throws {
        switch event.change {
        case .spawn, .remove, .joint, .removeJoint: events.append((event, nextStep))
        case .skipped, .collision: break
        }
    }

    /// Holds the step in the ring; keeps it when a picture shows it.
    public func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
        nextStep = step + 1
        hold(step: step, time: time, gravity: gravity, states: states)
        if expectations.failureCount != seenCount { takeNewFailures(at: step) }
        if step == totalSteps || wanted.remove(step) != nil { keep(ringIndex: ring.count - 1) }
    }

    /// The steps the picture of a failure at `failureStep` shows, in order.
    public func panelSteps(failureStep: Int) -> [Int] {
        let count = totalSteps + 1
        let times = (0..<count).lazy.map { Double($0) * self.dt }
        let failureTime = Double(failureStep) * dt
        var steps: [Int] = []
        for offset in Self.offsets {
            let step = RecordTimes.nearest(failureTime + offset, in: times)
            if !steps.contains(step) { steps.append(step) }
        }
        return steps.sorted()
    }

    /// The steps kept, as a trace of every step would hold them (its header; the events
    /// before each record); `nil` before the run started.
    public func trace() -> Trace? {
        guard let makeHeader, !kept.isEmpty else { return nil }
        let records = kept.values.sorted { $0.step < $1.step }
        var lines: [TraceEventLine] = []
        var index = 0
        for (event, beforeStep) in events {
            while index < records.count && records[index].step < beforeStep { index += 1 }
            lines.append(TraceEventLine(event: event, beforeRecord: index))
        }
        return Trace(header: makeHeader(), records: records, end: nil, events: lines)
    }

    // MARK: - The ring

    /// The ring's slot `i` counted from the oldest.
    private func slot(_ i: Int) -> Int { (ringStart + i) % ring.count }

    private func hold(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) {
        if ring.count < lookBack {
            ring.append(TraceRecord(step: step, t: time, gravity: gravity, states: Array(states)))
            return
        }
        // Overwrite the oldest slot, reusing its storage.
        let oldest = ringStart
        ringStart = (ringStart + 1) % ring.count
        ring[oldest].step = step
        ring[oldest].t = time
        ring[oldest].gravity = gravity
        ring[oldest].states.removeAll(keepingCapacity: true)
        ring[oldest].states.append(contentsOf: states)
    }

    /// Keeps the ring's `i`-th record from the oldest.
    private func keep(ringIndex i: Int) {
        let record = ring[slot(i)]
        kept[record.step] = record
    }

    private func takeNewFailures(at step: Int) {
        let failures = expectations.failuresSoFar
        if seen.count < failures.count { seen += Array(repeating: false, count: failures.count - seen.count) }
        for (i, failure) in failures.enumerated() where !seen[i] {
            guard let failure else { continue }
            seen[i] = true
            seenCount += 1
            for wantedStep in panelSteps(failureStep: failure.step) {
                if wantedStep > step {
                    wanted.insert(wantedStep)
                } else if let i = (0..<ring.count).first(where: { ring[slot($0)].step == wantedStep }) {
                    keep(ringIndex: i)
                }
            }
        }
    }
}
