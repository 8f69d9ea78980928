/// How a trace ended, for its last line: the kind and the run's totals.
///
/// `interrupted` is for Ctrl-C and SIGTERM (the trace is flushed and closed with this
/// line); `error` carries the reason the simulation stopped, such as a non-finite state.
public struct TraceEnd: Hashable, Sendable {
    /// The three ways a trace ends (`"end"` in the end line).
    public enum Kind: Hashable, Sendable {
        case complete
        case interrupted
        case error(message: String)

        /// The value of the end line's `end` key.
        public var name: String {
            switch self {
            case .complete: return "complete"
            case .interrupted: return "interrupted"
            case .error: return "error"
            }
        }
    }

    public var kind: Kind
    /// Physics steps taken.
    public var steps: Int
    /// Simulated time in seconds (`steps · dt`).
    public var simTime: Double
    /// Frame time in seconds that the step cap discarded (the accumulator's losses).
    public var droppedTime: Double

    public init(_ kind: Kind, steps: Int, simTime: Double, droppedTime: Double) {
        self.kind = kind
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
        TraceEnd(.error(message: message), steps: steps, simTime: simTime, droppedTime: droppedTime)
    }
}
