import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Expected values are written out from the published formulas here, in Penner's
/// original `(t, b, c, d)` form where it differs from the implementation's (easings.net's),
/// never by calling the implementation. The AHEasing set is checked in `EasingFormulaTests`.
@Suite struct TimingCurveTests {
    static let probes: [Double] = [
        0.01, 0.1, 0.2, 0.25, 0.3, 0.36, 0.49, 0.5, 0.51, 0.6, 0.7, 0.75, 0.8, 0.9, 0.95, 0.99,
    ]

    // Penner's signature: t time, b begin, c change, d duration.
    /// easings.net's name for the curve Penner's code calls `name` (`quadraticEaseIn` → `easeInQuad`).
    static func easingsNetName(_ name: String) -> String {
        let families = [
            ("quadratic", "Quad"), ("cubic", "Cubic"), ("quartic", "Quart"), ("quintic", "Quint"),
            ("sine", "Sine"), ("exponential", "Expo"), ("circular", "Circ"), ("back", "Back"),
            ("elastic", "Elastic"), ("bounce", "Bounce"),
        ]
        for (family, short) in families where name.hasPrefix(family) {
            return String(name.dropFirst(family.count)).replacingOccurrences(of: "Ease", with: "ease") + short
        }
        return name
    }

    static func reference(_ name: String, _ t0: Double) -> Double {
        let b = 0.0, c = 1.0, d = 1.0
        var t = t0
        switch name {
        case "quadraticEaseIn": t /= d; return c * t * t + b
        case "quadraticEaseOut": t /= d; return -c * t * (t - 2) + b
        case "quadraticEaseInOut":
            t /= d / 2
            if t < 1 { return c / 2 * t * t + b }
            t -= 1
            return -c / 2 * (t * (t - 2) - 1) + b
        case "cubicEaseIn": t /= d; return c * t * t * t + b
        case "cubicEaseOut": t = t / d - 1; return c * (t * t * t + 1) + b
        case "cubicEaseInOut":
            t /= d / 2
            if t < 1 { return c / 2 * t * t * t + b }
            t -= 2
            return c / 2 * (t * t * t + 2) + b
        case "quarticEaseIn": t /= d; return c * t * t * t * t + b
        case "quarticEaseOut": t = t / d - 1; return -c * (t * t * t * t - 1) + b
        case "quarticEaseInOut":
            t /= d / 2
            if t < 1 { return c / 2 * t * t * t * t + b }
            t -= 2
            return -c / 2 * (t * t * t * t - 2) + b
        case "quinticEaseIn": t /= d; return c * t * t * t * t * t + b
        case "quinticEaseOut": t = t / d - 1; return c * (t * t * t * t * t + 1) + b
        case "quinticEaseInOut":
            t /= d / 2
            if t < 1 { return c / 2 * t * t * t * t * t + b }
            t -= 2
            return c / 2 * (t * t * t * t * t + 2) + b
        case "sineEaseIn": return -c * cos(t / d * (Double.pi / 2)) + c + b
        case "sineEaseOut": return c * sin(t / d * (Double.pi / 2)) + b
        case "sineEaseInOut": return -c / 2 * (cos(Double.pi * t / d) - 1) + b
        case "exponentialEaseIn": return t == 0 ? b : c * pow(2, 10 * (t / d - 1)) + b
        case "exponentialEaseOut": return t == d ? b + c : c * (-pow(2, -10 * t / d) + 1) + b
        case "exponentialEaseInOut":
            if t == 0 { return b }
            if t == d { return b + c }
            t /= d / 2
            if t < 1 { return c / 2 * pow(2, 10 * (t - 1)) + b }
            t -= 1
            return c / 2 * (-pow(2, -10 * t) + 2) + b
        case "circularEaseIn": t /= d; return -c * (sqrt(1 - t * t) - 1) + b
        case "circularEaseOut": t = t / d - 1; return c * sqrt(1 - t * t) + b
        case "circularEaseInOut":
            t /= d / 2
            if t < 1 { return -c / 2 * (sqrt(1 - t * t) - 1) + b }
            t -= 2
            return c / 2 * (sqrt(1 - t * t) + 1) + b
        case "backEaseIn":
            let s = 1.70158
            t /= d
            return c * t * t * ((s + 1) * t - s) + b
        case "backEaseOut":
            let s = 1.70158
            t = t / d - 1
            return c * (t * t * ((s + 1) * t + s) + 1) + b
        case "backEaseInOut":
            let s = 1.70158 * 1.525
            t /= d / 2
            if t < 1 { return c / 2 * (t * t * ((s + 1) * t - s)) + b }
            t -= 2
            return c / 2 * (t * t * ((s + 1) * t + s) + 2) + b
        case "elasticEaseIn":
            if t == 0 { return b }
            t /= d
            if t == 1 { return b + c }
            let p = d * 0.3, a = c, s = p / (2 * Double.pi) * asin(c / a)
            t -= 1
            return -(a * pow(2, 10 * t) * sin((t * d - s) * (2 * Double.pi) / p)) + b
        case "elasticEaseOut":
            if t == 0 { return b }
            t /= d
            if t == 1 { return b + c }
            let p = d * 0.3, a = c, s = p / (2 * Double.pi) * asin(c / a)
            return a * pow(2, -10 * t) * sin((t * d - s) * (2 * Double.pi) / p) + c + b
        case "elasticEaseInOut":
            if t == 0 { return b }
            t /= d / 2
            if t == 2 { return b + c }
            let p = d * (0.3 * 1.5), a = c, s = p / (2 * Double.pi) * asin(c / a)
            if t < 1 {
                t -= 1
                return -0.5 * (a * pow(2, 10 * t) * sin((t * d - s) * (2 * Double.pi) / p)) + b
            }
            t -= 1
            return a * pow(2, -10 * t) * sin((t * d - s) * (2 * Double.pi) / p) * 0.5 + c + b
        case "bounceEaseOut": return bounceOut(t)
        case "bounceEaseIn": return c - bounceOut(d - t) + b
        case "bounceEaseInOut":
            if t < d / 2 { return (c - bounceOut(d - t * 2)) * 0.5 + b }
            return bounceOut(t * 2 - d) * 0.5 + c * 0.5 + b
        default:
            Issue.record("no reference for \(name)")
            return .nan
        }
    }

    /// The brief's exact piecewise polynomial.
    static func bounceOut(_ u: Double) -> Double {
        if u < 1 / 2.75 { return 7.5625 * u * u }
        if u < 2 / 2.75 { return 7.5625 * (u - 1.5 / 2.75) * (u - 1.5 / 2.75) + 0.75 }
        if u < 2.5 / 2.75 { return 7.5625 * (u - 2.25 / 2.75) * (u - 2.25 / 2.75) + 0.9375 }
        return 7.5625 * (u - 2.625 / 2.75) * (u - 2.625 / 2.75) + 0.984375
    }

    static let pennerNames = [
        "quadratic", "cubic", "quartic", "quintic", "sine", "exponential", "circular",
        "back", "elastic", "bounce",
    ].flatMap { family in
        ["EaseIn", "EaseOut", "EaseInOut"].map { family + $0 }
    }

    @Test(arguments: pennerNames)
    func pennerEasingMatchesPublishedFormula(_ pennerName: String) throws {
        let name = Self.easingsNetName(pennerName)
        let easing = try #require(PennerEasing(rawValue: name), "\(pennerName) → \(name)")
        let curve = try TimingCurve(name: name)
        #expect(curve == .penner(easing))
        #expect(curve.value(at: 0) == 0)
        #expect(curve.value(at: 1) == 1)
        for u in Self.probes {
            let expected = Self.reference(pennerName, u)
            #expect(abs(curve.value(at: u) - expected) <= 1e-12, "\(easing) at \(u)")
        }
    }

    @Test func easeOutBounceIsTheClassicPiecewisePolynomial() {
        for i in 0...1000 {
            let u = Double(i) / 1000
            #expect(abs(PennerEasing.easeOutBounce.value(at: u) - Self.bounceOut(u)) <= 1e-15)
        }
        // Spot values worked by hand: 7.5625·0.2² = 0.3025; at 0.5: 7.5625·(0.5−0.5454…)² + 0.75.
        #expect(abs(PennerEasing.easeOutBounce.value(at: 0.2) - 0.3025) < 1e-15)
        #expect(PennerEasing.easeOutBounce.value(at: 0.5) == 0.765625)
    }

    @Test func handWorkedValues() throws {
        #expect(try TimingCurve(name: "quadraticEaseIn").value(at: 0.5) == 0.25)
        #expect(try TimingCurve(name: "cubicEaseInOut").value(at: 0.25) == 0.0625)
        #expect(try TimingCurve(name: "exponentialEaseIn").value(at: 0.5) == 1.0 / 32)
        #expect(abs(try TimingCurve(name: "sineEaseInOut").value(at: 0.5) - 0.5) < 1e-15)
        // back: 0.5²·(2.70158·0.5 − 1.70158) = 0.25·(−0.35079) = −0.0876975
        #expect(abs(try TimingCurve(name: "easeInBack").value(at: 0.5) - (-0.0876975)) < 1e-12)
        #expect(try TimingCurve(name: "linear").value(at: 0.3) == 0.3)
    }

    @Test func holdStaysAtStartUntilTheKeyframe() throws {
        let hold = try TimingCurve(name: "hold")
        #expect(hold.value(at: 0) == 0)
        #expect(hold.value(at: 0.5) == 0)
        #expect(hold.value(at: 0.999999) == 0)
        #expect(hold.value(at: 1) == 1)
    }

    @Test func namedCoreAnimationCurvesHaveTheirControlPoints() throws {
        let expected: [(String, [Double])] = [
            ("easeIn", [0.42, 0, 1, 1]), ("easeOut", [0, 0, 0.58, 1]),
            ("easeInEaseOut", [0.42, 0, 0.58, 1]), ("default", [0.25, 0.1, 0.25, 1]),
        ]
        for (name, p) in expected {
            let curve = try TimingCurve(name: name)
            #expect(curve == (try TimingCurve.cubicBezier(x1: p[0], y1: p[1], x2: p[2], y2: p[3])))
            #expect(curve.description == name)
            // Symmetric ease-in-ease-out passes through (0.5, 0.5).
            if name == "easeInEaseOut" { #expect(abs(curve.value(at: 0.5) - 0.5) < 1e-12) }
        }
    }

    /// Brute force: bisect x(s) = u to machine precision with the Bernstein form
    /// written out afresh, then return y(s).
    static func bruteForce(_ p: [Double], _ u: Double) -> Double {
        func bernstein(_ s: Double, _ c1: Double, _ c2: Double) -> Double {
            let m = 1 - s
            return 3 * m * m * s * c1 + 3 * m * s * s * c2 + s * s * s
        }
        // The curve's ends are P0 = (0, 0) and P3 = (1, 1) by definition; bisection
        // alone would stop wherever rounding makes x(s) equal 1, short of s = 1.
        if u <= 0 { return 0 }
        if u >= 1 { return 1 }
        var low = 0.0, high = 1.0
        for _ in 0..<200 {
            let mid = (low + high) / 2
            if mid == low || mid == high { break }
            if bernstein(mid, p[0], p[2]) < u { low = mid } else { high = mid }
        }
        return bernstein((low + high) / 2, p[1], p[3])
    }

    static let bezierCases: [[Double]] = [
        [0.42, 0, 1, 1], [0, 0, 0.58, 1], [0.42, 0, 0.58, 1], [0.25, 0.1, 0.25, 1],
        [0.68, -0.55, 0.265, 1.55], [0.1, 0.9, 0.2, 1], [0.5, 0.5, 0.5, 0.5], [0, 1, 1, 0],
    ]

    @Test(arguments: bezierCases)
    func bezierSolverMatchesBruteForceBisection(_ p: [Double]) throws {
        let curve = try CubicBezierTiming(x1: p[0], y1: p[1], x2: p[2], y2: p[3])
        var worst = 0.0
        for i in 0...10_000 {
            let u = Double(i) / 10_000
            let s = curve.parameter(forProgress: u)
            #expect(abs(CubicBezierTiming.coordinate(s, c1: p[0], c2: p[2]) - u) <= 1e-9)
            worst = max(worst, abs(curve.value(at: u) - Self.bruteForce(p, u)))
        }
        #expect(worst <= 1e-9, "worst |Δ| = \(worst)")
    }

    /// (1, 0, 0, 1) has a vertical tangent at u = 0.5 (x' = 0 while y' ≠ 0): there y
    /// is ill-conditioned for any solver (rounding in x(s) moves s by ~1e-5), so only
    /// the accuracy in u is checked.
    @Test func bezierSolverIsAccurateInProgressAtAVerticalTangent() throws {
        let curve = try CubicBezierTiming(x1: 1, y1: 0, x2: 0, y2: 1)
        for i in 0...10_000 {
            let u = Double(i) / 10_000
            let s = curve.parameter(forProgress: u)
            #expect(abs(CubicBezierTiming.coordinate(s, c1: 1, c2: 0) - u) <= 1e-9)
        }
    }

    @Test func bezierIsMonotonicForControlPointsInTheUnitSquare() throws {
        // A small fixed LCG so the test is repeatable.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        for _ in 0..<50 {
            let curve = try CubicBezierTiming(x1: next(), y1: next(), x2: next(), y2: next())
            var previousValue = 0.0, previousParameter = 0.0
            for i in 0...2_000 {
                let u = Double(i) / 2_000
                let value = curve.value(at: u), s = curve.parameter(forProgress: u)
                #expect(value >= previousValue - 1e-12, "\(curve) at \(u)")
                #expect(s >= previousParameter - 1e-12, "\(curve) at \(u)")
                previousValue = value
                previousParameter = s
            }
        }
    }

    @Test(arguments: [[-0.1, 0, 0.5, 1], [0.5, 0, 1.2, 1], [2, 0, 0, 1]])
    func bezierControlXOutsideUnitIntervalIsRejected(_ p: [Double]) {
        #expect(throws: TimingCurveError.self) {
            try TimingCurve.cubicBezier(x1: p[0], y1: p[1], x2: p[2], y2: p[3])
        }
        do {
            _ = try CubicBezierTiming(x1: p[0], y1: p[1], x2: p[2], y2: p[3])
            Issue.record("accepted \(p)")
        } catch {
            #expect(error.description.contains("outside [0, 1]"))
        }
    }

    @Test func bezierYOutsideUnitIntervalIsAllowed() throws {
        let curve = try TimingCurve.cubicBezier(x1: 0.68, y1: -0.55, x2: 0.265, y2: 1.55)
        #expect(curve.value(at: 0.1) < 0)
    }

    @Test func unknownNameIsRejectedWithItsName() {
        #expect(throws: TimingCurveError.unknownName("easyIn")) { try TimingCurve(name: "easyIn") }
        #expect(TimingCurveError.unknownName("easyIn").description == "unknown curve 'easyIn'")
    }

    @Test func curvesFromJSONValues() throws {
        #expect(try TimingCurve(jsonValue: "bounceEaseOut") == .ahEasing(.bounceEaseOut))
        #expect(try TimingCurve(jsonValue: "easeOutBounce") == .penner(.easeOutBounce))
        #expect(try TimingCurve(jsonValue: ["cubicBezier": [0.42, 0, 0.58, 1] as [Any]]) == .easeInEaseOut)
        #expect(throws: TimingCurveError.self) { try TimingCurve(jsonValue: ["cubicBezier": [0.1, 0.2]]) }
        #expect(throws: TimingCurveError.self) { try TimingCurve(jsonValue: 3.0) }
        #expect(throws: TimingCurveError.controlPointOutOfRange(name: "x1", value: 1.5)) {
            try TimingCurve(jsonValue: ["cubicBezier": [1.5, 0, 0.5, 1]])
        }
    }

    @Test func everyListedNameParses() throws {
        #expect(TimingCurve.names.count == 66)
        for name in TimingCurve.names {
            #expect(try TimingCurve(name: name).description == name)
        }
    }
}
