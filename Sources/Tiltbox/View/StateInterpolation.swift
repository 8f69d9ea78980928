import Foundation

/// Blends two sets of crate states for drawing between physics steps:
/// `previous + alpha·(current − previous)`, angles along the shortest arc.
///
/// Only renderers use this; the physics never sees interpolated states.
enum StateInterpolation {
    /// Writes the blend of `previous` and `current` (`BodyStateLayout.count` values per crate) into `out`.
    /// `alpha` 0 gives `previous`, 1 gives `current`.
    static func blend(
        previous: UnsafeBufferPointer<Double>, current: UnsafeBufferPointer<Double>,
        alpha: Double, into out: UnsafeMutableBufferPointer<Double>
    ) {
        let n = min(previous.count, current.count, out.count)
        for i in 0..<n {
            let a = previous[i], b = current[i]
            if alpha <= 0 {
                out[i] = a
            } else if alpha >= 1 {
                out[i] = b
            } else if i % BodyStateLayout.count == BodyStateLayout.angle {
                out[i] = a + alpha * shortestArc(from: a, to: b)
            } else {
                out[i] = a + alpha * (b - a)
            }
        }
    }

    /// The signed angle of the shortest turn from `a` to `b`, in (−π, π].
    static func shortestArc(from a: Double, to b: Double) -> Double {
        let twoPi = 2 * Double.pi
        var d = (b - a).truncatingRemainder(dividingBy: twoPi)
        if d > .pi { d -= twoPi }
        if d <= -.pi { d += twoPi }
        return d
    }
}
