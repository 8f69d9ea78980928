/// How a run ended.
public enum RunOutcome: Sendable, Equatable {
    /// Every step of the scenario's duration was taken.
    case complete
    /// Ctrl-C or SIGTERM arrived; the run stopped between steps.
    case interrupted
    /// A crate's state left the finite range at `step`.
    case diverged(step: Int, divergence: WorldDivergence)

    /// How the run's trace ends: a divergence is an `error` end.
    public var endKind: TraceEndKind {
        switch self {
        case .complete: return .complete
        case .interrupted: return .interrupted
        case .diverged: return .error
        }
    }
}

extension TraceEnd {
    /// The end line for a run that ended as `outcome` (a divergence is an `error` end
    /// naming the step and the crate).
    public init(outcome: RunOutcome, steps: Int, simTime: Double, droppedTime: Double) {
        switch outcome {
        case .complete: self = .complete(steps: steps, simTime: simTime, droppedTime: droppedTime)
        case .interrupted: self = .interrupted(steps: steps, simTime: simTime, droppedTime: droppedTime)
        case .diverged(let step, let divergence):
            self = .error("step \(step): \(divergence)", steps: steps, simTime: simTime, droppedTime: droppedTime)
        }
    }
}
