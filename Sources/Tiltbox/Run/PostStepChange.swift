/// A change of the world queued during a step (by a collision handler) and applied in the
/// post-step slot of `RunSession` (docs/formats.md §8 step order, (5)): after `cpSpaceStep`, in
/// the order queued, so it belongs to the state of the next step.
public enum PostStepChange: Sendable, Equatable {
    /// Removes the body (its joints first, then its shapes, then itself), with a `remove` event
    /// carrying `reason`; skipped when the body is already gone (removed earlier in the queue).
    case remove(body: String, reason: TraceEvent.RemovalReason)
    /// Applies an impulse (as the timeline's `impulse`); skipped when the body is gone.
    case impulse(TimelineImpulse)
    /// Sets parts of a body's state (as the timeline's `set`); skipped when the body is gone.
    case set(BodySetting)
}
