import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The AHEasing set the Core Animation book uses, checked against AHEasing's C code
/// transcribed here term for term (bit for bit at 1001 points), against the curves
/// AHEasing's comments say each is modelled after (to 1e-12), and at hand-worked values.
@Suite struct EasingFormulaTests {
    static let points = (0...1000).map { Double($0) / 1000 }

    /// AHEasing's easing.c, written out again in the order C evaluates it.
    static func ahEasingC(_ easing: AHEasing, _ p: Double) -> Double {
        let m_pi_2 = 1.57079632679489661923, m_pi = 3.14159265358979323846
        func bounceEaseOut(_ p: Double) -> Double {
            if p < 4 / 11.0 {
                return (121 * p * p) / 16.0
            } else if p < 8 / 11.0 {
                return (363 / 40.0 * p * p) - (99 / 10.0 * p) + 17 / 5.0
            } else if p < 9 / 10.0 {
                return (4356 / 361.0 * p * p) - (35442 / 1805.0 * p) + 16061 / 1805.0
            } else {
                return (54 / 5.0 * p * p) - (513 / 25.0 * p) + 268 / 25.0
            }
        }
        func bounceEaseIn(_ p: Double) -> Double { 1 - bounceEaseOut(1 - p) }
        switch easing {
        case .quadraticEaseIn: return p * p
        case .quadraticEaseOut: return -(p * (p - 2))
        case .quadraticEaseInOut: if p < 0.5 { return 2 * p * p } else { return (-2 * p * p) + (4 * p) - 1 }
        case .cubicEaseIn: return p * p * p
        case .cubicEaseOut: let f = (p - 1); return f * f * f + 1
        case .cubicEaseInOut:
            if p < 0.5 { return 4 * p * p * p } else { let f = ((2 * p) - 2); return 0.5 * f * f * f + 1 }
        case .quarticEaseIn: return p * p * p * p
        case .quarticEaseOut: let f = (p - 1); return f * f * f * (1 - p) + 1
        case .quarticEaseInOut:
            if p < 0.5 { return 8 * p * p * p * p } else { let f = (p - 1); return -8 * f * f * f * f + 1 }
        case .quinticEaseIn: return p * p * p * p * p
        case .quinticEaseOut: let f = (p - 1); return f * f * f * f * f + 1
        case .quinticEaseInOut:
            if p < 0.5 {
                return 16 * p * p * p * p * p
            } else {
                let f = ((2 * p) - 2); return 0.5 * f * f * f * f * f + 1
            }
        case .sineEaseIn: return sin((p - 1) * m_pi_2) + 1
        case .sineEaseOut: return sin(p * m_pi_2)
        case .sineEaseInOut: return 0.5 * (1 - cos(p * m_pi))
        case .circularEaseIn: return 1 - sqrt(1 - (p * p))
        case .circularEaseOut: return sqrt((2 - p) * p)
        case .circularEaseInOut:
            if p < 0.5 {
                return 0.5 * (1 - sqrt(1 - 4 * (p * p)))
            } else {
                return 0.5 * (sqrt(-((2 * p) - 3) * ((2 * p) - 1)) + 1)
            }
        case .exponentialEaseIn: return (p == 0.0) ? p : pow(2, 10 * (p - 1))
        case .exponentialEaseOut: return (p == 1.0) ? p : 1 - pow(2, -10 * p)
        case .exponentialEaseInOut:
            if p == 0.0 || p == 1.0 { return p }
            if p < 0.5 { return 0.5 * pow(2, (20 * p) - 10) } else { return -0.5 * pow(2, (-20 * p) + 10) + 1 }
        case .elasticEaseIn: return sin(13 * m_pi_2 * p) * pow(2, 10 * (p - 1))
        case .elasticEaseOut: return sin(-13 * m_pi_2 * (p + 1)) * pow(2, -10 * p) + 1
        case .elasticEaseInOut:
            if p < 0.5 {
                return 0.5 * sin(13 * m_pi_2 * (2 * p)) * pow(2, 10 * ((2 * p) - 1))
            } else {
                return 0.5 * (sin(-13 * m_pi_2 * ((2 * p - 1) + 1)) * pow(2, -10 * (2 * p - 1)) + 2)
            }
        case .backEaseIn: return p * p * p - p * sin(p * m_pi)
        case .backEaseOut: let f = (1 - p); return 1 - (f * f * f - f * sin(f * m_pi))
        case .backEaseInOut:
            if p < 0.5 {
                let f = 2 * p; return 0.5 * (f * f * f - f * sin(f * m_pi))
            } else {
                let f = (1 - (2 * p - 1)); return 0.5 * (1 - (f * f * f - f * sin(f * m_pi))) + 0.5
            }
        case .bounceEaseIn: return bounceEaseIn(p)
        case .bounceEaseOut: return bounceEaseOut(p)
        case .bounceEaseInOut:
            if p < 0.5 { return 0.5 * bounceEaseIn(p * 2) } else { return 0.5 * bounceEaseOut(p * 2 - 1) + 0.5 }
        }
    }

    /// The curve each function is "modelled after", in AHEasing's comments, as plain maths.
    static func model(_ easing: AHEasing, _ x: Double) -> Double {
        func piecewise(_ low: (Double) -> Double, _ high: (Double) -> Double) -> Double { x < 0.5 ? low(x) : high(x) }
        func bounce(_ x: Double) -> Double {
            // The book's four parabolas (the issue quotes them), in Horner form.
            if x < 4.0 / 11 { return 121.0 / 16 * x * x }
            if x < 8.0 / 11 { return (363.0 / 40 * x - 99.0 / 10) * x + 17.0 / 5 }
            if x < 9.0 / 10 { return (4356.0 / 361 * x - 35442.0 / 1805) * x + 16061.0 / 1805 }
            return (54.0 / 5 * x - 513.0 / 25) * x + 268.0 / 25
        }
        switch easing {
        case .quadraticEaseIn: return pow(x, 2)
        case .quadraticEaseOut: return -pow(x, 2) + 2 * x
        case .quadraticEaseInOut:
            return piecewise({ 0.5 * pow(2 * $0, 2) }, { -0.5 * ((2 * $0 - 1) * (2 * $0 - 3) - 1) })
        case .cubicEaseIn: return pow(x, 3)
        case .cubicEaseOut: return pow(x - 1, 3) + 1
        case .cubicEaseInOut: return piecewise({ 0.5 * pow(2 * $0, 3) }, { 0.5 * (pow(2 * $0 - 2, 3) + 2) })
        case .quarticEaseIn: return pow(x, 4)
        case .quarticEaseOut: return 1 - pow(x - 1, 4)
        case .quarticEaseInOut: return piecewise({ 0.5 * pow(2 * $0, 4) }, { -0.5 * (pow(2 * $0 - 2, 4) - 2) })
        case .quinticEaseIn: return pow(x, 5)
        case .quinticEaseOut: return pow(x - 1, 5) + 1
        case .quinticEaseInOut: return piecewise({ 0.5 * pow(2 * $0, 5) }, { 0.5 * (pow(2 * $0 - 2, 5) + 2) })
        case .sineEaseIn: return 1 - cos(x * .pi / 2)
        case .sineEaseOut: return sin(x * .pi / 2)
        case .sineEaseInOut: return (1 - cos(.pi * x)) / 2
        case .circularEaseIn: return 1 - sqrt(1 - x * x)
        case .circularEaseOut: return sqrt(1 - pow(x - 1, 2))
        case .circularEaseInOut:
            return piecewise({ 0.5 * (1 - sqrt(1 - 4 * $0 * $0)) }, { 0.5 * (sqrt(-(2 * $0 - 3) * (2 * $0 - 1)) + 1) })
        case .exponentialEaseIn: return x == 0 ? 0 : exp2(10 * (x - 1))
        case .exponentialEaseOut: return x == 1 ? 1 : 1 - exp2(-10 * x)
        case .exponentialEaseInOut:
            if x == 0 || x == 1 { return x }
            return piecewise({ 0.5 * exp2(10 * (2 * $0 - 1)) }, { -0.5 * exp2(-10 * (2 * $0 - 1)) + 1 })
        case .elasticEaseIn: return sin(13 * .pi / 2 * x) * exp2(10 * (x - 1))
        case .elasticEaseOut: return sin(-13 * .pi / 2 * (x + 1)) * exp2(-10 * x) + 1
        case .elasticEaseInOut:
            return piecewise(
                { 0.5 * sin(13 * .pi / 2 * 2 * $0) * exp2(10 * (2 * $0 - 1)) },
                { 0.5 * (sin(-13 * .pi / 2 * 2 * $0) * exp2(-10 * (2 * $0 - 1)) + 2) })
        case .backEaseIn: return pow(x, 3) - x * sin(x * .pi)
        case .backEaseOut: return 1 - (pow(1 - x, 3) - (1 - x) * sin((1 - x) * .pi))
        case .backEaseInOut:
            return piecewise(
                { 0.5 * (pow(2 * $0, 3) - 2 * $0 * sin(2 * $0 * .pi)) },
                { 0.5 * (1 - (pow(2 - 2 * $0, 3) - (2 - 2 * $0) * sin((2 - 2 * $0) * .pi))) + 0.5 })
        case .bounceEaseOut: return bounce(x)
        case .bounceEaseIn: return 1 - bounce(1 - x)
        case .bounceEaseInOut: return piecewise({ 0.5 * (1 - bounce(1 - 2 * $0)) }, { 0.5 * bounce(2 * $0 - 1) + 0.5 })
        }
    }

    @Test(arguments: AHEasing.allCases)
    func ahEasingIsAHEasingsCTermForTerm(_ easing: AHEasing) throws {
        #expect(try TimingCurve(name: easing.rawValue) == .ahEasing(easing))
        var identical = 0
        for p in Self.points {
            let expected = p == 0 ? 0 : p == 1 ? 1 : Self.ahEasingC(easing, p)
            if easing.value(at: p).bitPattern == expected.bitPattern { identical += 1 }
            #expect(
                abs(Self.model(easing, p) - easing.value(at: p)) <= 1e-12 || p == 0 || p == 1,
                "\(easing) at \(p): \(easing.value(at: p)) vs model \(Self.model(easing, p))")
        }
        #expect(identical == Self.points.count, "\(easing): \(identical) of \(Self.points.count) bit-identical")
    }

    @Test(arguments: PennerEasing.allCases)
    func pennerCurvesStartAtZeroAndEndAtOne(_ easing: PennerEasing) {
        #expect(easing.value(at: 0) == 0 && easing.value(at: 1) == 1)
        #expect(abs(easing.evaluate(0)) <= 1e-12 && abs(easing.evaluate(1) - 1) <= 1e-12, "\(easing)")
    }

    @Test func theBooksBounceDiffersFromEasingsNets() {
        // The book's bounceEaseOut(0.5) = 363/40·¼ − 99/10·½ + 17/5 = 0.71875; term for term
        // in double it is 0.7187499999999996, within 2 ULPs.
        #expect(abs(AHEasing.bounceEaseOut.value(at: 0.5) - 0.71875) <= 1e-15)
        #expect(PennerEasing.easeOutBounce.value(at: 0.5) == 0.765625)
        #expect(AHEasing.bounceEaseOut.value(at: 0.25) == 121 * 0.25 * 0.25 / 16)
    }

    @Test func theIssuesFormulasForElasticAndBack() {
        for p in Self.points {
            #expect(
                abs(AHEasing.elasticEaseOut.value(at: p) - (sin(-13 * .pi / 2 * (p + 1)) * pow(2, -10 * p) + 1))
                    <= 1e-12)
            #expect(abs(AHEasing.backEaseIn.value(at: p) - (p * p * p - p * sin(p * .pi))) <= 1e-15)
        }
        // The two families really differ where the issue says they do.
        #expect(abs(AHEasing.backEaseIn.value(at: 0.5) - PennerEasing.easeInBack.value(at: 0.5)) > 0.1)
        #expect(abs(AHEasing.elasticEaseOut.value(at: 0.1) - PennerEasing.easeOutElastic.value(at: 0.1)) > 0.01)
    }
}
