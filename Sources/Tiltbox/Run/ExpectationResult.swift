import Foundation

/// How one expectation came out of a run.
public struct ExpectationResult: Sendable, Equatable {
    /// The expectation's index in `expect`.
    public var index: Int
    /// Its `name`, when it has one.
    public var name: String?
    /// The first failure, or `nil` when it held on every step of its window (or did not fail
    /// on the steps run, when `notReached`).
    public var failure: ExpectationFailure?
    /// True when the run ended before the end of the window without a failure (a `--duration`
    /// shorter than the scenario's): the expectation neither holds nor fails.
    public var notReached = false

    /// A result.
    public init(index: Int, name: String?, failure: ExpectationFailure?, notReached: Bool = false) {
        self.index = index
        self.name = name
        self.failure = failure
        self.notReached = notReached
    }

    /// Whether it held on every step of its window.
    public var holds: Bool { failure == nil && !notReached }

    /// `expect[2]` or `expect[2] ("the stack stands")`, as failure lines and reports name it.
    public var label: String {
        "expect[\(index)]" + (name.map { " (\"\($0)\")" } ?? "")
    }

    /// The failure line: `FILE: expect[2] ("name"): at t = 3 s (step 360), body 'ball' at
    /// (312.5, 80.25) is outside [[0,0],[100,50]] by 212.5`; `nil` when it held.
    public func line(file: String) -> String? {
        guard let failure else { return nil }
        return "\(InertText.escape(file)): \(InertText.escape(label)): \(InertText.escape(failure.text))"
    }
}

/// Where and how an expectation first failed.
public struct ExpectationFailure: Sendable, Equatable {
    /// The step of the first failure (for a `contact` that never began, the window's last step
    /// in the run).
    public var step: Int
    /// Its time, `step · dt`.
    public var time: Double
    /// The body the failure is about, when it is about one body.
    public var bodyID: String?
    /// That body's position at the failing step.
    public var position: Vec2?
    /// What went wrong after the time: `body 'ball' at (312.5, 80.25) is outside ... by 212.5`.
    public var detail: String

    /// `at t = 3 s (step 360), ` then `detail`.
    public var text: String {
        "at t = \(ExpectationText.number(time)) s (step \(step)), \(detail)"
    }
}

/// Numbers as failure lines show them: whole numbers without a point, others to six
/// significant digits (`312.5`, `0.00833333`), so `t = 360·(1/120)` reads `3`.
public enum ExpectationText {
    /// `value` for people.
    public static func number(_ value: Double) -> String {
        guard value.isFinite else { return "\(value)" }
        let rounded = Double(String(format: "%.6g", value)) ?? value
        if rounded == rounded.rounded(), abs(rounded) < 1e15 {
            return rounded == 0 ? "0" : String(Int(rounded))
        }
        return String(format: "%.6g", value)
    }

    /// `(x, y)`.
    public static func point(_ p: Vec2) -> String { "(\(number(p.x)), \(number(p.y)))" }

    /// `[[x0,y0],[x1,y1]]`.
    public static func box(_ low: Vec2, _ high: Vec2) -> String {
        "[[\(number(low.x)),\(number(low.y))],[\(number(high.x)),\(number(high.y))]]"
    }
}

extension Array where Element == ExpectationResult {
    /// How many held.
    public var holdingCount: Int { reduce(0) { $0 + ($1.holds ? 1 : 0) } }
    /// How many the run did not reach the end of.
    public var notReachedCount: Int { reduce(0) { $0 + ($1.notReached ? 1 : 0) } }
    /// Those that failed.
    public var failures: [ExpectationResult] { filter { $0.failure != nil } }
}
