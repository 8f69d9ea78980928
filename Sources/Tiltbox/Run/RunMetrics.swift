import Foundation

/// Physics figures of one run (docs/formats.md §6 `metrics`), as `run --summary-json` and
/// the batch summary report them.
///
/// Taken from the run's records (step 0, every `every`-th step and the last), so with the
/// default `--every 1` from every step.
public struct RunMetrics: Sendable, Equatable {
    /// Total kinetic energy at the last record: Σ ½m|v|² + ½Iω², with the box moment
    /// I = m(w² + h²)/12 (Chipmunk's `cpMomentForBox`) for crates, and a dynamic body's
    /// own mass and moment (as Chipmunk accumulates them from its shapes) for `bodies`.
    public var kineticEnergy: Double
    /// The largest speed |v| any body had at a record.
    public var maxSpeed: Double
    /// The time of the first record from which every body stayed below `restSpeed` to the
    /// end, or nil when a body still moved at the last record.
    public var restTime: Double?
    /// The bodies' bounding box at the last record, `[minX, minY, maxX, maxY]` (rotated boxes
    /// included; a body of `bodies` as the square around its origin that holds it at any angle),
    /// or nil without bodies.
    public var bounds: [Double]?
    /// The run's digest (`fnv1a64:HEX`).
    public var digest: String

    /// The speed below which a body counts as at rest, in units/s.
    public static let restSpeed = 1.0

    /// Creates metrics from their figures; `RunMetricsSink.metrics(digest:)` computes them from a run.
    public init(kineticEnergy: Double, maxSpeed: Double, restTime: Double?, bounds: [Double]?, digest: String) {
        self.kineticEnergy = kineticEnergy
        self.maxSpeed = maxSpeed
        self.restTime = restTime
        self.bounds = bounds
        self.digest = digest
    }

    /// `{"kineticEnergy":E,"maxSpeed":S,"restTime":T|null,"bounds":[x0,y0,x1,y1]|null,"digest":D}`,
    /// numbers shortest round-trip (a value that is not finite is null).
    public var jsonText: String {
        var out = JSONLineBuffer()
        func number(_ value: Double?) {
            if let value, value.isFinite { out.append(number: value) } else { out.append("null") }
        }
        out.append("{\"kineticEnergy\":")
        number(kineticEnergy)
        out.append(",\"maxSpeed\":")
        number(maxSpeed)
        out.append(",\"restTime\":")
        number(restTime)
        out.append(",\"bounds\":")
        if let bounds {
            out.append("[")
            for (i, value) in bounds.enumerated() {
                if i > 0 { out.append(",") }
                number(value)
            }
            out.append("]")
        } else {
            out.append("null")
        }
        out.append(",\"digest\":")
        out.append(string: digest)
        out.append("}")
        return String(decoding: out.bytes, as: UTF8.self)
    }

    /// Reads the object `jsonText` writes; nil when `node` is not one.
    @_spi(Tools) public static func read(_ node: JSONNode) -> RunMetrics? {
        func optionalNumber(_ key: String) -> Double?? {
            guard let value = node[key] else { return .none }
            if case .null = value.value { return .some(nil) }
            guard let number = value.numberValue else { return .none }
            return .some(number)
        }
        guard node.objectMembers != nil, let energy = optionalNumber("kineticEnergy"),
            let speed = optionalNumber("maxSpeed"),
            let rest = optionalNumber("restTime"), let digest = node["digest"]?.stringValue,
            let boundsNode = node["bounds"]
        else { return nil }
        var bounds: [Double]?
        if let elements = boundsNode.arrayValue {
            let values = elements.compactMap(\.numberValue)
            guard values.count == 4, elements.count == 4 else { return nil }
            bounds = values
        } else if case .null = boundsNode.value {
            bounds = nil
        } else {
            return nil
        }
        return RunMetrics(
            kineticEnergy: energy ?? .nan, maxSpeed: speed ?? .nan, restTime: rest, bounds: bounds, digest: digest)
    }
}

/// A `RecordSink` computing a run's `RunMetrics` from its records.
public final class RunMetricsSink: RecordSink {
    /// What the metrics need of one body, in trace order.
    private struct Body {
        /// Mass and moment for the kinetic energy: a crate's own mass and box moment
        /// I = m(w² + h²)/12; a dynamic body's as Chipmunk accumulates them from its shapes
        /// (about its centre of gravity, whose velocity the record holds); 0 for kinematic and
        /// static bodies, of infinite mass, which add no energy but count for speed, rest and bounds.
        var mass: Double
        var moment: Double
        /// How far the body reaches from its centre along x and y at an angle.
        var extent: Extent
    }

    private enum Extent {
        /// A crate: its rotated box.
        case box(halfSize: Vec2)
        /// A body of `bodies`: the square around its origin that holds its shapes at any angle.
        case reach(Double)

        /// The half extents along x and y at `angle`.
        func halfExtents(angle: Double) -> (x: Double, y: Double) {
            switch self {
            case .box(let half):
                let c = abs(cos(angle)), s = abs(sin(angle))
                return (c * half.x + s * half.y, s * half.x + c * half.y)
            case .reach(let reach):
                return (reach, reach)
            }
        }
    }

    /// The bodies present, in the records' order (a timeline's events change them).
    /// `@exclusivity(unchecked)` like the figures below: each record reads its count.
    @exclusivity(unchecked) private var bodies: [Body]
    /// Their ids, kept only when bodies may change (`Scenario.bodiesMayChange`).
    private var ids: [String]
    /// For a timeline: each spawned id's body, by the spawning entry (built once per entry).
    private var spawned: [String: Body] = [:]
    // `@exclusivity(unchecked)`: the session's thread alone records, once a step.
    @exclusivity(unchecked) private var maxSpeed = 0.0
    @exclusivity(unchecked) private var restTime: Double?
    /// The last record's states (what the kinetic energy and the bounds are computed from,
    /// once, when asked for), in storage that grows only when more bodies are present than
    /// ever before: a record allocates nothing in the steady state.
    @exclusivity(unchecked) private var last: UnsafeMutableBufferPointer<Double>
    /// Bodies in the last record (`nil` before the first record).
    @exclusivity(unchecked) private var lastBodies: Int?

    /// A sink for runs of `scenario` (its crates, then its bodies: trace order; with a timeline,
    /// the bodies present as its events say).
    public init(scenario: Scenario) {
        let crates = scenario.crates.map { crate in
            Body(
                mass: crate.mass,
                moment: crate.mass * (crate.size.x * crate.size.x + crate.size.y * crate.size.y) / 12,
                extent: .box(halfSize: Vec2(crate.size.x / 2, crate.size.y / 2)))
        }
        let others = scenario.bodies.map(Self.body)
        bodies = crates + others
        ids = []
        if scenario.bodiesMayChange {
            ids = scenario.bodyDefinitions.map(\.id)
            for entry in scenario.timeline.entries {
                guard case .spawn(let spec) = entry.action else { continue }
                let body = Self.body(spec)
                for k in 0..<entry.count { if let id = entry.spawnedID(k) { spawned[id] = body } }
            }
        }
        last = .allocate(capacity: bodies.count * BodyStateLayout.count)
        last.initialize(repeating: 0)
    }

    deinit {
        last.deallocate()
    }

    /// What the metrics need of a body of `bodies` (or a spawned one).
    private static func body(_ body: BodySpec) -> Body {
        let properties = body.type == .dynamic ? body.massProperties : (mass: 0, moment: 0, centreOfGravity: .zero)
        // An infinite moment (`"moment": "infinite"`) counts no rotational energy.
        let moment = properties.moment.isFinite ? properties.moment : 0
        return Body(mass: properties.mass, moment: moment, extent: .reach(body.reach))
    }

    /// Follows the bodies present: a spawned body joins the end, a removed one leaves.
    public func event(_ event: TraceEvent) throws {
        switch event.change {
        case .spawn(let spawn):
            guard let body = spawned[spawn.body] else { return }
            ids.append(spawn.body)
            bodies.append(body)
        case .remove(let id, _):
            guard let index = ids.firstIndex(of: id) else { return }
            ids.remove(at: index)
            bodies.remove(at: index)
        case .joint, .removeJoint, .skipped, .collision:
            break
        }
    }

    /// Updates the figures from one record: the maximum speed over all records, the rest
    /// time reset whenever a body moves, and the states kept for the kinetic energy and the
    /// bounds at the last record. Allocates nothing.
    public func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
        let count = min(bodies.count, states.count / BodyStateLayout.count)
        // The largest squared speed of this record; its square root is the record's largest
        // speed, bit for bit the largest of the bodies' speeds (a correctly rounded square
        // root never decreases), and a body is at rest when its speed is below `restSpeed`,
        // so all are when the largest is.
        var largest = 0.0
        if count > 0, let source = states.baseAddress {
            var v = source + BodyStateLayout.vx
            for _ in 0..<count {
                // `largest = max(largest, square)` written as a comparison: the same value for
                // the finite states a record holds, in one `maxsd` instead of `max`'s NaN-aware
                // four instructions.
                let square = v[0] * v[0] + v[1] * v[1]
                if square > largest { largest = square }
                v += BodyStateLayout.count
            }
            if count * BodyStateLayout.count > last.count {
                // More bodies present than ever before (a timeline's spawns): the storage grows.
                last.deallocate()
                last = .allocate(capacity: count * BodyStateLayout.count)
                last.initialize(repeating: 0)
            }
            last.baseAddress!.update(from: source, count: count * BodyStateLayout.count)
        }
        let speed = largest.squareRoot()
        maxSpeed = max(maxSpeed, speed)
        lastBodies = count
        if count > 0 && !(speed < RunMetrics.restSpeed) {
            restTime = nil
        } else if restTime == nil {
            restTime = time
        }
    }

    /// The metrics of the records so far, with the run's `digest`: the kinetic energy and the
    /// bounds of the last record, computed now from its states.
    public func metrics(digest: String) -> RunMetrics {
        var energy = 0.0
        var box: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
        for i in 0..<(lastBodies ?? 0) {
            let body = bodies[i]
            let base = i * BodyStateLayout.count
            let vx = last[base + BodyStateLayout.vx], vy = last[base + BodyStateLayout.vy],
                w = last[base + BodyStateLayout.w]
            energy += 0.5 * body.mass * (vx * vx + vy * vy) + 0.5 * body.moment * w * w
            let (ex, ey) = body.extent.halfExtents(angle: last[base + BodyStateLayout.angle])
            let x = last[base + BodyStateLayout.x], y = last[base + BodyStateLayout.y]
            if let b = box {
                box = (min(b.minX, x - ex), min(b.minY, y - ey), max(b.maxX, x + ex), max(b.maxY, y + ey))
            } else {
                box = (x - ex, y - ey, x + ex, y + ey)
            }
        }
        return RunMetrics(
            kineticEnergy: energy, maxSpeed: maxSpeed, restTime: restTime,
            bounds: box.map { [$0.minX, $0.minY, $0.maxX, $0.maxY] }, digest: digest)
    }
}
