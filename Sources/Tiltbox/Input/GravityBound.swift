/// The one check every tilt input passes, in world units, exactly as the run will use
/// the values: after the sign convention, the orientation and the scaling by `g`.
///
/// Every gravity value a track can produce (each recorded sample, each keyframe and the
/// peak of each keyframe segment's curve) must be finite and at most
/// `ScenarioLimits.maxGravity` (10⁶ units/s², the bound on the scenario's own
/// `world.gravity`) in each component. A reading of `1e308` g is finite, but times
/// `g = 980` it is infinite, and the engine refuses non-finite gravity: without this
/// check it would pass `validate` and stop `run`.
public enum GravityBound {
    /// The largest `|x|` or `|y|` of gravity from a tilt input, in world units/s².
    public static let maxComponent = 1e6

    /// `nil` when `value` (world units/s²) is within the bound, else the reason it is not
    /// (a phrase that starts with "gives").
    public static func violation(_ value: Vec2) -> String? {
        if value.isFinite, abs(value.x) <= maxComponent, abs(value.y) <= maxComponent { return nil }
        let limit = NumberFormat.shortest(maxComponent)
        return "gives gravity \(show(value)) units/s², "
            + (value.isFinite
                ? "more than the limit of \(limit) per component"
                : "which is not finite (the limit is \(limit) per component)")
    }

    /// The reason, phrased for a device reading in g turned into `value` by `orientation` and `g`.
    static func readingViolation(_ reading: Vec2, world value: Vec2, g: Double) -> String? {
        guard let reason = violation(value) else { return nil }
        return "reading \(show(reading)) g at \(NumberFormat.shortest(g)) units/s² per g \(reason)"
    }

    static func show(_ v: Vec2) -> String {
        "(\(NumberFormat.shortest(v.x)), \(NumberFormat.shortest(v.y)))"
    }
}
