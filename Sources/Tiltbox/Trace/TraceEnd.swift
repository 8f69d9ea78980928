/// The three ways a run, and so its trace, ends: the value of the end line's `end` key.
/// A trace being written (`TraceEnd`), a trace read back (`TraceEndLine`) and a run's
/// outcome (`RunOutcome.endKind`) all name their end with it.
public enum TraceEndKind: String, Hashable, Sendable {
    case complete
    case interrupted
    case error
}

/// How a trace ended, for its last line: the kind and the run's totals.
///
/// `interrupted` is for Ctrl-C and SIGTERM (the trace is flushed and closed with this
/// line); `error` carries the reason the simulation stopped, such as a non-finite state.
public struct TraceEnd: Hashable, Sendable {
    /// `complete`, `interrupted` or `error`: the end line's `end` key.
    public var kind: TraceEndKind
    /// The reason, for an `error` end (written as the end line's `message`).
    public var message: String?
    /// Physics steps taken.
    public var steps: Int
    /// Simulated time in seconds (`steps · dt`).
    public var simTime: Double
    /// Frame time in seconds that the step cap discarded (the accumulator's losses).
    public var droppedTime: Double
    /// The rules' counters (docs/formats.md §8), in order of first appearance in the scenario:
    /// written as the end line's `counters` object when there are any.
    public var counters: [TraceCounter] = []

    /// The most Unicode scalars of `message` the end line carries: at most 6 bytes each once
    /// escaped, 24 KiB, well inside the 64 KiB of the end line's bound that the counters leave
    /// (`ScenarioLimits.maxCounterBytes`). A longer message (one naming a body of a very long id)
    /// is cut there and ends with "…".
    public static let maxMessageScalars = 4096

    /// `message` as the end line writes it: whole, or cut to `maxMessageScalars`.
    static func written(_ message: String) -> String {
        let scalars = message.unicodeScalars
        guard scalars.count > maxMessageScalars else { return message }
        var cut = String.UnicodeScalarView()
        cut.append(contentsOf: scalars.prefix(maxMessageScalars - 1))
        cut.append("…")
        return String(cut)
    }

    /// Creates an end; `message` is only written for an `error` end.
    public init(_ kind: TraceEndKind, message: String? = nil, steps: Int, simTime: Double, droppedTime: Double) {
        self.kind = kind
        self.message = message
        self.steps = steps
        self.simTime = simTime
        self.droppedTime = droppedTime
    }

    /// A complete run.
    public static func complete(steps: Int, simTime: Double, droppedTime: Double) -> TraceEnd {
        TraceEnd(.complete, steps: steps, simTime: simTime, droppedTime: droppedTime)
    }

    /// A run stopped by a signal.
    public static func interrupted(steps: Int, simTime: Double, droppedTime: Double) -> TraceEnd {
        TraceEnd(.interrupted, steps: steps, simTime: simTime, droppedTime: droppedTime)
    }

    /// A run stopped by an error, with a one-line reason.
    public static func error(_ message: String, steps: Int, simTime: Double, droppedTime: Double) -> TraceEnd {
        TraceEnd(.error, message: message, steps: steps, simTime: simTime, droppedTime: droppedTime)
    }
}

/// One counter of a run's collision rules (a `count` action's name) and its value at the end.
public struct TraceCounter: Hashable, Sendable {
    /// The counter's name, as the scenario's `count` action gives it.
    public var name: String
    /// How many times a `count` action added 1 to it.
    public var value: Int

    /// A counter `name` of value `value`.
    public init(name: String, value: Int) {
        self.name = name
        self.value = value
    }
}
