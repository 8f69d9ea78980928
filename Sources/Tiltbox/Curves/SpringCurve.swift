import Foundation

/// A damped spring as a keyframe curve, like `CASpringAnimation`, `UIView`'s spring
/// animations and Facebook's Pop: the fraction `s(τ)` of the change reached τ seconds
/// after the segment's start, where `s` solves
///
///     m·s'' + c·s' + k·(s − 1) = 0,   s(0) = 0,   s'(0) = initialVelocity
///
/// exactly (closed form) in all three regimes: under-damped (ζ < 1, oscillates),
/// critically damped (ζ = 1) and over-damped (ζ > 1), with ω₀ = √(k/m) and
/// ζ = c / (2√(k·m)). Time is real seconds, not the segment's progress: a spring has its
/// own time scale, as in Core Animation, and is cut off at the next keyframe.
///
/// In a tilt file: `{"spring": {"mass": 1, "stiffness": 100, "damping": 10, "initialVelocity": 0}}`
/// (CASpringAnimation's parameters and defaults) or
/// `{"spring": {"response": T, "dampingRatio": ζ, "initialVelocity": v}}` (mass 1,
/// stiffness (2π/T)², damping 4πζ/T, as SwiftUI's spring describes it).
public struct SpringCurve: Sendable, Equatable, CustomStringConvertible {
    /// Undamped angular frequency ω₀ = √(k/m), radians per second.
    public let naturalFrequency: Double
    /// ζ = c / (2√(k·m)).
    public let dampingRatio: Double
    /// s'(0), fractions of the change per second.
    public let initialVelocity: Double
    /// How it was written, for `description`.
    private let written: String

    /// CASpringAnimation's parameterisation. All must be finite; mass, stiffness and damping > 0.
    public init(mass: Double = 1, stiffness: Double = 100, damping: Double = 10, initialVelocity: Double = 0) {
        precondition(
            mass > 0 && stiffness > 0 && damping > 0 && initialVelocity.isFinite,
            "spring parameters are validated first")
        naturalFrequency = (stiffness / mass).squareRoot()
        dampingRatio = damping / (2 * (stiffness * mass).squareRoot())
        self.initialVelocity = initialVelocity
        written =
            "spring(mass \(NumberFormat.shortest(mass)), stiffness \(NumberFormat.shortest(stiffness)), damping \(NumberFormat.shortest(damping)), v \(NumberFormat.shortest(initialVelocity)))"
    }

    /// The response/damping-ratio parameterisation: mass 1, stiffness (2π/T)², damping 4πζ/T,
    /// so ω₀ = 2π/T and ζ is `dampingRatio` exactly.
    public init(response: Double, dampingRatio: Double, initialVelocity: Double = 0) {
        precondition(
            response > 0 && dampingRatio > 0 && initialVelocity.isFinite, "spring parameters are validated first")
        naturalFrequency = 2 * Double.pi / response
        self.dampingRatio = dampingRatio
        self.initialVelocity = initialVelocity
        written =
            "spring(response \(NumberFormat.shortest(response)), dampingRatio \(NumberFormat.shortest(dampingRatio)), v \(NumberFormat.shortest(initialVelocity)))"
    }

    /// The parameters as they were written, such as `spring(response 0.5, dampingRatio 0.8, v 0)`.
    public var description: String { written }

    /// The regime the damping ratio puts the spring in.
    public enum Regime: String, Sendable { case underdamped, critical, overdamped }

    /// Under-damped when ζ < 1, critical when ζ is exactly 1, over-damped when ζ > 1.
    public var regime: Regime {
        dampingRatio < 1 ? .underdamped : dampingRatio == 1 ? .critical : .overdamped
    }

    /// s(τ), τ in seconds since the segment's start (τ ≤ 0 gives 0).
    public func value(atSeconds tau: Double) -> Double {
        guard tau > 0 else { return 0 }
        return 1 + displacement(tau)
    }

    /// x(τ) = s(τ) − 1, with x(0) = −1 and x'(0) = v.
    private func displacement(_ t: Double) -> Double {
        let w0 = naturalFrequency, zeta = dampingRatio, v = initialVelocity
        switch regime {
        case .underdamped:
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (v - zeta * w0) / wd
            return exp(-zeta * w0 * t) * (-cos(wd * t) + b * sin(wd * t))
        case .critical:
            return exp(-w0 * t) * (-1 + (v - w0) * t)
        case .overdamped:
            let (r1, r2, c1, c2) = overdampedTerms
            return c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
    }

    /// Roots r1 (slow) and r2 (fast) of m·r² + c·r + k, and the coefficients of
    /// x = c1·e^(r1·t) + c2·e^(r2·t). r1 comes from r1·r2 = ω₀², which avoids the
    /// cancellation in −ω₀(ζ − √(ζ² − 1)) when ζ is large.
    private var overdampedTerms: (Double, Double, Double, Double) {
        let w0 = naturalFrequency, zeta = dampingRatio
        let r2 = -w0 * (zeta + (zeta * zeta - 1).squareRoot())
        let r1 = w0 * w0 / r2
        let c1 = (initialVelocity + r2) / (r1 - r2)
        return (r1, r2, c1, -1 - c1)
    }

    /// An upper bound on |1 − s(τ)| over all τ ≥ 0: how far, in multiples of the change,
    /// the spring can be from its target (1 at the start; more when it overshoots).
    public var largestDeviationBound: Double {
        let w0 = naturalFrequency, v = initialVelocity
        switch regime {
        case .underdamped, .overdamped: return envelope(0)
        case .critical: return 1 + abs(v - w0) / w0 // t·e^(−ω₀t) ≤ 1/(e·ω₀) < 1/ω₀
        }
    }

    /// An upper bound on |x(τ)| that only decreases with τ.
    private func envelope(_ t: Double) -> Double {
        let w0 = naturalFrequency, zeta = dampingRatio, v = initialVelocity
        switch regime {
        case .underdamped:
            let wd = w0 * (1 - zeta * zeta).squareRoot()
            let b = (v - zeta * w0) / wd
            return exp(-zeta * w0 * t) * (1 + b * b).squareRoot()
        case .critical:
            // |−1 + (v − ω₀)t|·e^(−ω₀t) ≤ (1 + |v − ω₀|·t)·e^(−ω₀t), decreasing once t ≥ 1/ω₀.
            let bound = (1 + abs(v - w0) * t) * exp(-w0 * t)
            return t >= 1 / w0 ? bound : .infinity
        case .overdamped:
            let (r1, r2, c1, c2) = overdampedTerms
            return abs(c1) * exp(r1 * t) + abs(c2) * exp(r2 * t)
        }
    }

    /// The settling time for `tolerance`: the time after which |1 − s(τ)| stays below it
    /// (0 if it never reaches it). Found by bounding with the decay envelope, scanning
    /// back from there in small steps, then bisecting to about a microsecond.
    public func settlingTime(tolerance: Double = 0.001) -> Double {
        var horizon = 1 / naturalFrequency
        while envelope(horizon) >= tolerance && horizon < 1e12 { horizon *= 2 }
        let samples = 200_000
        let step = horizon / Double(samples)
        var i = samples
        while i > 0 && abs(displacement(Double(i) * step)) < tolerance { i -= 1 }
        if i == 0 && abs(displacement(0)) < tolerance { return 0 }
        // |x| ≥ tolerance at i·step and < tolerance at (i+1)·step: bisect the crossing.
        var low = Double(i) * step, high = Double(i + 1) * step
        for _ in 0..<60 where high - low > 1e-9 {
            let mid = (low + high) / 2
            if abs(displacement(mid)) < tolerance { high = mid } else { low = mid }
        }
        return high
    }
}
