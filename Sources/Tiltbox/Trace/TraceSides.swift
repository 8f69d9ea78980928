/// How messages name the two traces being compared: `verify` says "reference" and
/// "this run", `diff` names the two files.
public struct TraceSides: Hashable, Sendable {
    /// The first trace in a value comparison (`reference = 1.5`) and in sentences
    /// (`reference trace has 10 bodies`).
    public var a: String
    /// The first trace as sentences name it (`reference trace has 10 bodies`, `the first trace`).
    public var aTrace: String
    /// The second trace, likewise (`this run = 1.6`, `this run has 11`).
    public var b: String
    /// The second trace as sentences name it (`this run`, `the second trace`).
    public var bTrace: String
    /// Whether the second side is a run rather than a file (`this run is 'crate-stack'`
    /// rather than `b.jsonl is from 'crate-stack'`).
    public var bIsRun: Bool

    /// Creates names for the two sides; `verify`, `files(_:_:)` and `unnamed` are the usual ones.
    public init(a: String, aTrace: String, b: String, bTrace: String, bIsRun: Bool) {
        self.a = a
        self.aTrace = aTrace
        self.b = b
        self.bTrace = bTrace
        self.bIsRun = bIsRun
    }

    /// `verify`: the reference trace against this run.
    public static let verify = TraceSides(
        a: "reference", aTrace: "reference trace", b: "this run", bTrace: "this run", bIsRun: true)

    /// `diff`: two files named as given (`first`/`second` added when the names are the same).
    public static func files(_ a: String, _ b: String) -> TraceSides {
        let (na, nb) = a == b ? ("\(a) (first)", "\(b) (second)") : (a, b)
        return TraceSides(a: na, aTrace: na, b: nb, bTrace: nb, bIsRun: false)
    }

    /// Used by `description`: "the first trace" and "the second trace".
    public static let unnamed = TraceSides(
        a: "first", aTrace: "the first trace", b: "second", bTrace: "the second trace", bIsRun: false)

    func name(_ side: TraceDivergence.Side) -> String { side == .a ? aTrace : bTrace }
}
