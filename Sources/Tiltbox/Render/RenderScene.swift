/// What drawing a trace needs, taken from its header and records: the area to show,
/// the static segments, each crate's size (and mass, for kinetic energy), and where
/// `x`, `y` and `angle` sit in each body's state.
///
/// Traces written by this tiltbox carry everything in their optional header keys
/// (`world.size`, `segments`, `sizes`, `masses`). For an older or hand-made trace the
/// scene falls back instead of refusing it, and says so in `notes`:
/// - no `world.size`: the drawn area is the bounding box of every crate position in
///   every record (and of the segments), padded by the largest crate's half diagonal;
/// - no `sizes`: crates are drawn 32×32, the scenario default;
/// - no `segments`: none are drawn;
/// - no `masses`: kinetic energy is per unit mass (every crate weighing 1).
///
/// A trace with the header keys `shapes` (and `types`, `joints`) is drawn from them
/// (`outline`); without them every body is a crate of its `sizes` entry, as before.
///
/// A trace with event lines (a timeline, docs/formats.md §8) is drawn following its bodies:
/// `bodies` lists every body of the run (the header's, then the spawned ones in the order they
/// appeared, with the shapes, size and mass their spawn events give), `record(at:)` gives a
/// record laid out over all of them with NaN for a body not present, and `isPresent(in:body:)`
/// and `joints(at:)` say what to draw: a body from its spawn to its removal, a joint from its
/// addition to its removal (or its body's).
@_spi(Tools) public struct RenderScene: Sendable {
    /// The crate size assumed when a trace has no `sizes`: the scenario default.
    public static let defaultCrateSize = Vec2(32, 32)

    /// The scenario name, for titles.
    public var title: String
    public var bodies: [String]
    /// One per body: a crate's size, or for a trace with `shapes` the box around the
    /// body's shapes (used for the energy's moment and the bounding box's padding).
    public var sizes: [Vec2]
    /// One per body, or `nil` when the trace has none (energies are then per unit mass).
    public var masses: [Double]?
    public var segments: [TraceHeader.Segment]
    /// Each body's type and shapes, and the joints: what the views draw.
    public var outline: SceneOutline
    /// Lower-left corner of the drawn area, in world units.
    public var origin: Vec2
    /// Width and height of the drawn area, in world units (both > 0).
    public var extent: Vec2
    /// Whether `origin`/`extent` are the header's world (else a bounding box).
    public var hasWorldSize: Bool
    /// One line per fallback taken, for the command line to print as a note.
    public var notes: [String]
    /// The records as the trace holds them: each lists the bodies present then (see `record(at:)`).
    public var records: [TraceRecord]
    /// For a trace with events, per record the index in `bodies` of each body its states list;
    /// `nil` when every record lists `bodies` (no events).
    private var slots: [[Int]]?
    /// For a trace with events, per record the indices in `outline.joints` of the joints present.
    private var jointsPresent: [[Int]]?

    let stride: Int
    let xField: Int, yField: Int, angleField: Int
    let velocityFields: (vx: Int, vy: Int, w: Int)?

    /// - Throws: `InputError` naming `file` when the trace has no records or its
    ///   fields lack `x`, `y` or `angle`.
    public init(trace: Trace, file: String) throws(InputError) {
        let header = trace.header
        guard header.records == .states else {
            throw InputError(
                file: file, path: TraceHeader.keyName(of: \.records),
                reason:
                    "a hash trace (run --hashes) holds no states to draw; record one with 'tiltbox run ... --trace FILE' without --hashes"
            )
        }
        let fields = header.fields
        guard let x = fields.firstIndex(of: "x"), let y = fields.firstIndex(of: "y"),
            let angle = fields.firstIndex(of: "angle")
        else {
            throw InputError(
                file: file, path: "fields",
                reason:
                    "the records have no \"x\", \"y\" and \"angle\" fields to draw (fields: \(fields.joined(separator: ", ")))"
            )
        }
        guard !trace.records.isEmpty else {
            throw InputError(file: file, reason: "the trace has no records to draw")
        }
        stride = fields.count
        xField = x
        yField = y
        angleField = angle
        if let vx = fields.firstIndex(of: "vx"), let vy = fields.firstIndex(of: "vy"),
            let w = fields.firstIndex(of: "w")
        {
            velocityFields = (vx, vy, w)
        } else {
            velocityFields = nil
        }
        title = header.scenario
        bodies = header.bodies
        records = trace.records
        notes = []
        outline = SceneOutline(header: header)
        if let shapes = header.shapes, shapes.count == header.bodies.count {
            // Kinetic energy and the bounding box's padding use each body's bounding box.
            sizes = outline.bodies.map(\.boundingSize)
        } else if let sizes = header.sizes, sizes.count == header.bodies.count {
            self.sizes = sizes
        } else {
            sizes = Array(repeating: Self.defaultCrateSize, count: header.bodies.count)
            if !header.bodies.isEmpty {
                notes.append(
                    "the trace has no crate sizes (header key \"\(TraceHeader.keyName(of: \.sizes))\"); drawing every crate 32×32"
                )
            }
        }
        masses = header.masses?.count == header.bodies.count ? header.masses : nil
        segments = header.segments ?? []
        if let size = header.worldSize, size.x > 0, size.y > 0, size.isFinite {
            origin = .zero
            extent = size
            hasWorldSize = true
        } else {
            hasWorldSize = false
            origin = .zero
            extent = Vec2(1, 1)
            notes.append(
                "the trace has no world size (header key \"world.size\"); drawing the bounding box of the crate positions"
            )
            (origin, extent) = boundingBox()
        }
        if !trace.events.isEmpty {
            followEvents(of: trace)
            if !hasWorldSize { (origin, extent) = boundingBox() }
        }
    }

    /// The box around every crate position of every record and every segment end,
    /// padded by the largest crate's half diagonal (and by 1 unit, so that a single
    /// resting point still gives an area).
    private func boundingBox() -> (Vec2, Vec2) {
        var lo = Vec2(Double.infinity, Double.infinity)
        var hi = Vec2(-Double.infinity, -Double.infinity)
        func include(_ p: Vec2) {
            guard p.isFinite else { return }
            lo = Vec2(min(lo.x, p.x), min(lo.y, p.y))
            hi = Vec2(max(hi.x, p.x), max(hi.y, p.y))
        }
        for record in records {
            for slot in 0..<(record.states.count / stride) { include(position(in: record, body: slot)) }
        }
        for segment in segments {
            include(segment.from)
            include(segment.to)
        }
        if !lo.isFinite || !hi.isFinite { return (.zero, Vec2(1, 1)) }
        let reach = outline.isCratesOnly ? sizes.map { $0.length / 2 } : outline.bodies.map(\.reach)
        let pad = (reach.max() ?? 0) + 1
        return (Vec2(lo.x - pad, lo.y - pad), Vec2(hi.x - lo.x + 2 * pad, hi.y - lo.y + 2 * pad))
    }

    // MARK: - Following bodies from spawn to removal

    /// Adds the spawned bodies and joints of `trace`'s events to `bodies`, `outline` and
    /// `sizes`, and notes which bodies and joints each record shows.
    private mutating func followEvents(of trace: Trace) {
        var index: [String: Int] = [:]
        for (i, id) in bodies.enumerated() where index[id] == nil { index[id] = i }
        var jointIndex: [String: Int] = [:]
        for (j, joint) in outline.joints.enumerated() { if let id = joint.outline.id { jointIndex[id] = j } }
        var present = Array(bodies.indices)
        // A removal marks its body; the list of those present is filtered once per record, not
        // once per removal (thousands of removals between two records).
        var removed = [Bool](repeating: false, count: bodies.count)
        var removedSinceRecord = false
        var presentJoints = Array(outline.joints.indices)
        var slots: [[Int]] = []
        var jointsPresent: [[Int]] = []
        var next = 0
        for recordIndex in records.indices {
            while next < trace.events.count && trace.events[next].beforeRecord <= recordIndex {
                let event = trace.events[next].event
                next += 1
                switch event.change {
                case .spawn(let spawn):
                    let body = SceneOutline.BodyOutline(type: spawn.type, shapes: spawn.shapes)
                    index[spawn.body] = bodies.count
                    present.append(bodies.count)
                    removed.append(false)
                    bodies.append(spawn.body)
                    outline.bodies.append(body)
                    sizes.append(spawn.shapes.isEmpty ? spawn.size : body.boundingSize)
                    masses?.append(spawn.mass)
                case .remove(let id, _):
                    guard let gone = index[id] else { continue }
                    removed[gone] = true
                    removedSinceRecord = true
                    if !presentJoints.isEmpty {
                        presentJoints.removeAll { outline.joints[$0].a == gone || outline.joints[$0].b == gone }
                    }
                case .joint(let joint):
                    func end(_ id: String) -> Int?? { id == "static" ? .some(nil) : index[id].map { .some($0) } }
                    guard let a = end(joint.a), let b = end(joint.b) else { continue }
                    if let id = joint.id { jointIndex[id] = outline.joints.count }
                    presentJoints.append(outline.joints.count)
                    outline.joints.append(SceneOutline.IndexedJoint(joint, a: a, b: b))
                case .removeJoint(let id):
                    guard let gone = jointIndex[id] else { continue }
                    presentJoints.removeAll { $0 == gone }
                case .skipped, .collision:
                    break
                }
            }
            if removedSinceRecord {
                present.removeAll { removed[$0] }
                removedSinceRecord = false
            }
            slots.append(present)
            jointsPresent.append(presentJoints)
        }
        self.slots = slots
        self.jointsPresent = jointsPresent
    }

    /// Record `index` laid out over every body of `bodies`: a body not present then has NaN
    /// states (`isPresent(in:body:)` is false). Without events, the record as it is.
    public func record(at index: Int) -> TraceRecord {
        let record = records[index]
        guard let slots else { return record }
        var states = [Double](repeating: .nan, count: bodies.count * stride)
        for (slot, body) in slots[index].enumerated() where (slot + 1) * stride <= record.states.count {
            for field in 0..<stride { states[body * stride + field] = record.states[slot * stride + field] }
        }
        return TraceRecord(step: record.step, t: record.t, gravity: record.gravity, states: states)
    }

    /// Whether body `body` is present in `record` (a record from `record(at:)`).
    public func isPresent(in record: TraceRecord, body: Int) -> Bool {
        !record.states[body * stride + xField].isNaN
    }

    /// The joints present at record `index` (all of `outline.joints` in a trace without events).
    public func joints(at index: Int) -> [SceneOutline.IndexedJoint] {
        jointIndices(at: index).map { outline.joints[$0] }
    }

    /// The indices in `outline.joints` of the joints present at record `index`.
    public func jointIndices(at index: Int) -> [Int] {
        jointsPresent?[index] ?? Array(outline.joints.indices)
    }

    /// Whether the trace has event lines: its bodies and joints change between records.
    public var followsEvents: Bool { slots != nil }

    // MARK: - Reading records

    /// Body `body`'s centre in `record`.
    public func position(in record: TraceRecord, body: Int) -> Vec2 {
        let base = body * stride
        return Vec2(record.states[base + xField], record.states[base + yField])
    }

    /// Body `body`'s angle in radians (counter-clockwise) in `record`.
    public func angle(in record: TraceRecord, body: Int) -> Double {
        record.states[body * stride + angleField]
    }

    /// The four corners of body `body` in `record`, as `SceneRasterizer` computes them.
    public func corners(in record: TraceRecord, body: Int) -> [Vec2] {
        SceneOutline.corners(
            position: position(in: record, body: body), size: sizes[body],
            angle: angle(in: record, body: body))
    }

    /// Whether `kineticEnergy(of:)` is in energy units (the trace has `masses`) or
    /// per unit mass.
    public var energyIsPerUnitMass: Bool { masses == nil }

    /// Total kinetic energy Σ ½·m·|v|² + ½·I·ω² with the box moment
    /// I = m·(w² + h²)/12, m from `masses` (1 when the trace has none); `nil` when the
    /// records have no `vx`, `vy` and `w`. A body drawn from `shapes` uses its shapes'
    /// bounding box (an approximation of its moment); kinematic and static bodies,
    /// which no force moves, are left out.
    public func kineticEnergy(of record: TraceRecord) -> Double? {
        guard let (vx, vy, w) = velocityFields else { return nil }
        var total = 0.0
        for body in bodies.indices where outline.bodies[body].type == .dynamic && isPresent(in: record, body: body) {
            let base = body * stride
            let m = masses?[body] ?? 1
            let size = sizes[body]
            let v2 =
                record.states[base + vx] * record.states[base + vx] + record.states[base + vy]
                * record.states[base + vy]
            let omega = record.states[base + w]
            let moment = m * (size.x * size.x + size.y * size.y) / 12
            total += 0.5 * m * v2 + 0.5 * moment * omega * omega
        }
        return total
    }
}
