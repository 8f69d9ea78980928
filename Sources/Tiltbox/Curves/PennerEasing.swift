import Foundation

/// The classic Robert Penner easing curves by their easings.net names (`easeInQuad` …
/// `easeInOutBounce`, the 30 of easings.net), each evaluated as easings.net writes its
/// formula, in double precision.
///
/// Constants are Penner's: back overshoot c1 = 1.70158 (c2 = c1·1.525 for in-out),
/// elastic period 1/3 (c4 = 2π/3; in-out 2π/4.5), bounce 7.5625 and 2.75. Back and
/// elastic leave [0, 1] between the ends; that is their point. For the AHEasing
/// variants the Core Animation book uses, see `AHEasing`.
public enum PennerEasing: String, Sendable, CaseIterable {
    case easeInSine, easeOutSine, easeInOutSine
    case easeInQuad, easeOutQuad, easeInOutQuad
    case easeInCubic, easeOutCubic, easeInOutCubic
    case easeInQuart, easeOutQuart, easeInOutQuart
    case easeInQuint, easeOutQuint, easeInOutQuint
    case easeInExpo, easeOutExpo, easeInOutExpo
    case easeInCirc, easeOutCirc, easeInOutCirc
    case easeInBack, easeOutBack, easeInOutBack
    case easeInElastic, easeOutElastic, easeInOutElastic
    case easeInBounce, easeOutBounce, easeInOutBounce

    /// The eased value at progress `u`: 0 at or before the start, 1 at or after the end,
    /// the easings.net formula in between.
    public func value(at u: Double) -> Double {
        if !(u > 0) { return 0 } // also catches NaN
        if u >= 1 { return 1 }
        return evaluate(u)
    }

    private static let c1 = 1.70158
    private static let c2 = c1 * 1.525
    private static let c3 = c1 + 1
    private static let c4 = (2 * Double.pi) / 3
    private static let c5 = (2 * Double.pi) / 4.5

    /// The easings.net formula at `x`, unclamped.
    public func evaluate(_ x: Double) -> Double {
        let c1 = Self.c1, c2 = Self.c2, c3 = Self.c3, c4 = Self.c4, c5 = Self.c5
        switch self {
        case .easeInSine: return 1 - cos((x * Double.pi) / 2)
        case .easeOutSine: return sin((x * Double.pi) / 2)
        case .easeInOutSine: return -(cos(Double.pi * x) - 1) / 2

        case .easeInQuad: return x * x
        case .easeOutQuad: return 1 - (1 - x) * (1 - x)
        case .easeInOutQuad: return x < 0.5 ? 2 * x * x : 1 - pow(-2 * x + 2, 2) / 2

        case .easeInCubic: return x * x * x
        case .easeOutCubic: return 1 - pow(1 - x, 3)
        case .easeInOutCubic: return x < 0.5 ? 4 * x * x * x : 1 - pow(-2 * x + 2, 3) / 2

        case .easeInQuart: return x * x * x * x
        case .easeOutQuart: return 1 - pow(1 - x, 4)
        case .easeInOutQuart: return x < 0.5 ? 8 * x * x * x * x : 1 - pow(-2 * x + 2, 4) / 2

        case .easeInQuint: return x * x * x * x * x
        case .easeOutQuint: return 1 - pow(1 - x, 5)
        case .easeInOutQuint: return x < 0.5 ? 16 * x * x * x * x * x : 1 - pow(-2 * x + 2, 5) / 2

        case .easeInExpo: return x == 0 ? 0 : pow(2, 10 * x - 10)
        case .easeOutExpo: return x == 1 ? 1 : 1 - pow(2, -10 * x)
        case .easeInOutExpo:
            if x == 0 { return 0 }
            if x == 1 { return 1 }
            return x < 0.5 ? pow(2, 20 * x - 10) / 2 : (2 - pow(2, -20 * x + 10)) / 2

        case .easeInCirc: return 1 - (1 - pow(x, 2)).squareRoot()
        case .easeOutCirc: return (1 - pow(x - 1, 2)).squareRoot()
        case .easeInOutCirc:
            return x < 0.5
                ? (1 - (1 - pow(2 * x, 2)).squareRoot()) / 2
                : ((1 - pow(-2 * x + 2, 2)).squareRoot() + 1) / 2

        case .easeInBack: return c3 * x * x * x - c1 * x * x
        case .easeOutBack: return 1 + c3 * pow(x - 1, 3) + c1 * pow(x - 1, 2)
        case .easeInOutBack:
            return x < 0.5
                ? (pow(2 * x, 2) * ((c2 + 1) * 2 * x - c2)) / 2
                : (pow(2 * x - 2, 2) * ((c2 + 1) * (x * 2 - 2) + c2) + 2) / 2

        case .easeInElastic:
            if x == 0 { return 0 }
            if x == 1 { return 1 }
            return -pow(2, 10 * x - 10) * sin((x * 10 - 10.75) * c4)
        case .easeOutElastic:
            if x == 0 { return 0 }
            if x == 1 { return 1 }
            return pow(2, -10 * x) * sin((x * 10 - 0.75) * c4) + 1
        case .easeInOutElastic:
            if x == 0 { return 0 }
            if x == 1 { return 1 }
            return x < 0.5
                ? -(pow(2, 20 * x - 10) * sin((20 * x - 11.125) * c5)) / 2
                : (pow(2, -20 * x + 10) * sin((20 * x - 11.125) * c5)) / 2 + 1

        case .easeInBounce: return 1 - Self.bounceOut(1 - x)
        case .easeOutBounce: return Self.bounceOut(x)
        case .easeInOutBounce:
            return x < 0.5 ? (1 - Self.bounceOut(1 - 2 * x)) / 2 : (1 + Self.bounceOut(2 * x - 1)) / 2
        }
    }

    /// easings.net's `easeOutBounce`: four parabolas of height 1, 0.25, 0.0625, 0.015625.
    static func bounceOut(_ x0: Double) -> Double {
        let n1 = 7.5625, d1 = 2.75
        var x = x0
        if x < 1 / d1 { return n1 * x * x }
        if x < 2 / d1 { x -= 1.5 / d1; return n1 * x * x + 0.75 }
        if x < 2.5 / d1 { x -= 2.25 / d1; return n1 * x * x + 0.9375 }
        x -= 2.625 / d1
        return n1 * x * x + 0.984375
    }
}
