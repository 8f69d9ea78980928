/// Why the records of two traces cannot be compared: their headers disagree on what was
/// simulated or how it was recorded. For `verify` this means the reference does not
/// describe the run (exit status 2, docs/formats.md §7); for `diff`, that the traces differ.
public enum TraceHeaderMismatch: Hashable, Sendable {
    /// Another scenario: names and body counts of both.
    case scenario(a: String, aBodies: Int, b: String, bBodies: Int)
    /// The same scenario name with other bodies.
    case bodies(a: [String], b: [String])
    case fields(a: [String], b: [String])
    case dt(a: Double, b: Double)
    case every(a: Int, b: Int)

    /// The first way `b`'s header disagrees with `a`'s, checked in the order scenario (when
    /// `compareScenarioNames`, or when the bodies differ too), bodies, fields, dt, every;
    /// `nil` when the records can be compared.
    public static func between(_ a: TraceHeader, _ b: TraceHeader, compareScenarioNames: Bool) -> TraceHeaderMismatch? {
        let namesDiffer = a.scenario != b.scenario
        if namesDiffer && (compareScenarioNames || a.bodies != b.bodies) {
            return .scenario(a: a.scenario, aBodies: a.bodies.count, b: b.scenario, bBodies: b.bodies.count)
        }
        if a.bodies != b.bodies { return .bodies(a: a.bodies, b: b.bodies) }
        if a.fields != b.fields { return .fields(a: a.fields, b: b.fields) }
        if a.dt.bitPattern != b.dt.bitPattern { return .dt(a: a.dt, b: b.dt) }
        if a.every != b.every { return .every(a: a.every, b: b.every) }
        return nil
    }

    /// One line naming both sides, never whole body lists.
    public func describe(_ sides: TraceSides) -> String {
        switch self {
        case .scenario(let a, let aBodies, let b, let bBodies):
            let verb = sides.bIsRun ? "is" : "is from"
            return "\(sides.aTrace) is from scenario '\(a)' (\(count(aBodies, "body", "bodies"))); "
                + "\(sides.bTrace) \(verb) '\(b)' (\(count(bBodies, "body", "bodies")))"
        case .bodies(let a, let b):
            let counts = "\(sides.aTrace) has \(count(a.count, "body", "bodies")), \(sides.bTrace) \(b.count)"
            if let i = (0..<min(a.count, b.count)).first(where: { a[$0] != b[$0] }) {
                let place = a.count == b.count ? " (\(count(a.count, "body", "bodies")) each)" : "; \(counts)"
                return "body \(i + 1) is '\(a[i])' in \(sides.aTrace) and '\(b[i])' in \(sides.bTrace)\(place)"
            }
            return "\(counts) (the first \(min(a.count, b.count)) agree)"
        case .fields(let a, let b):
            return
                "\(sides.aTrace) records the fields \(a.joined(separator: ",")); \(sides.bTrace) \(b.joined(separator: ","))"
        case .dt(let a, let b):
            return "\(sides.aTrace) steps at dt = \(NumberFormat.shortest(a)) s (\(hz(a))); "
                + "\(sides.bTrace) at dt = \(NumberFormat.shortest(b)) s (\(hz(b)))"
        case .every(let a, let b):
            return
                "\(sides.aTrace) records every \(count(a, "step", "steps")); \(sides.bTrace) every \(count(b, "step", "steps"))"
        }
    }

    private func count(_ n: Int, _ one: String, _ many: String) -> String {
        n == 1 ? "1 \(one)" : "\(n) \(many)"
    }

    private func hz(_ dt: Double) -> String {
        let rate = 1 / dt
        let rounded = (rate * 1000).rounded() / 1000
        return "\(NumberFormat.shortest(rounded)) Hz"
    }
}
