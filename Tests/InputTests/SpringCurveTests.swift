import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Springs in all three regimes against the closed form written out independently here
/// and against a fine RK4 integration of m·s'' + c·s' + k·(s − 1) = 0.
@Suite struct SpringCurveTests {
    struct Case: Sendable, CustomStringConvertible {
        var m: Double, k: Double, c: Double, v: Double
        var regime: SpringCurve.Regime
        var description: String { "m \(m) k \(k) c \(c) v \(v) (\(regime))" }
    }

    static let cases = [
        Case(m: 1, k: 100, c: 10, v: 0, regime: .underdamped), // CASpringAnimation's defaults, ζ = 0.5
        Case(m: 2, k: 50, c: 3, v: 4, regime: .underdamped),
        Case(m: 1, k: 100, c: 20, v: 0, regime: .critical), // ζ = 1 exactly
        Case(m: 0.5, k: 8, c: 4, v: -3, regime: .critical),
        Case(m: 1, k: 100, c: 50, v: 0, regime: .overdamped), // ζ = 2.5
        Case(m: 3, k: 12, c: 40, v: 2, regime: .overdamped),
    ]

    /// The textbook closed form, in amplitude-phase form for the under-damped case.
    static func closedForm(_ c: Case, _ t: Double) -> Double {
        let w0 = sqrt(c.k / c.m), zeta = c.c / (2 * sqrt(c.k * c.m))
        if zeta < 1 {
            let wd = w0 * sqrt(1 - zeta * zeta)
            let a = -1.0, b = (c.v + zeta * w0 * a) / wd
            let amplitude = sqrt(a * a + b * b), phase = atan2(a, b)
            return 1 + amplitude * exp(-zeta * w0 * t) * sin(wd * t + phase)
        } else if zeta == 1 {
            return 1 - exp(-w0 * t) * (1 + (w0 - c.v) * t)
        } else {
            let root = sqrt(c.c * c.c - 4 * c.m * c.k)
            let r1 = (-c.c + root) / (2 * c.m), r2 = (-c.c - root) / (2 * c.m)
            // x = A e^{r1 t} + B e^{r2 t}, A + B = −1, r1 A + r2 B = v
            let a = (c.v + r2) / (r1 - r2)
            return 1 + a * exp(r1 * t) + (-1 - a) * exp(r2 * t)
        }
    }

    /// RK4 on (s, s') with step h, sampled at `times` (ascending).
    static func integrate(_ c: Case, times: [Double], h: Double = 1e-5) -> [Double] {
        func accel(_ s: Double, _ v: Double) -> Double { (-c.c * v - c.k * (s - 1)) / c.m }
        var s = 0.0, v = c.v, t = 0.0
        var out: [Double] = []
        for target in times {
            while t < target - h / 2 {
                let step = min(h, target - t)
                let k1s = v, k1v = accel(s, v)
                let k2s = v + step / 2 * k1v, k2v = accel(s + step / 2 * k1s, v + step / 2 * k1v)
                let k3s = v + step / 2 * k2v, k3v = accel(s + step / 2 * k2s, v + step / 2 * k2v)
                let k4s = v + step * k3v, k4v = accel(s + step * k3s, v + step * k3v)
                s += step / 6 * (k1s + 2 * k2s + 2 * k3s + k4s)
                v += step / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
                t += step
            }
            out.append(s)
        }
        return out
    }

    static let times = (1...200).map { Double($0) * 0.01 }

    @Test(arguments: cases)
    func springMatchesTheClosedFormAndAnRK4Integration(_ c: Case) {
        let spring = SpringCurve(mass: c.m, stiffness: c.k, damping: c.c, initialVelocity: c.v)
        #expect(spring.regime == c.regime)
        #expect(spring.value(atSeconds: 0) == 0)
        let numeric = Self.integrate(c, times: Self.times)
        for (i, t) in Self.times.enumerated() {
            let s = spring.value(atSeconds: t)
            #expect(abs(s - Self.closedForm(c, t)) <= 1e-12, "\(c) at \(t): \(s) vs \(Self.closedForm(c, t))")
            #expect(abs(s - numeric[i]) <= 1e-9, "\(c) at \(t): \(s) vs RK4 \(numeric[i])")
        }
        // The derivative at 0 is the initial velocity.
        let h = 1e-7
        #expect(abs(spring.value(atSeconds: h) / h - c.v) <= 1e-3 * max(1, abs(c.v)) + 1e-4 * 100)
    }

    @Test func responseFormIsMassOneStiffnessAndDampingFromTheResponse() {
        let t = 0.4, zeta = 0.6
        let a = SpringCurve(response: t, dampingRatio: zeta, initialVelocity: 1)
        let b = SpringCurve(mass: 1, stiffness: pow(2 * .pi / t, 2), damping: 4 * .pi * zeta / t, initialVelocity: 1)
        for tau in Self.times { #expect(abs(a.value(atSeconds: tau) - b.value(atSeconds: tau)) <= 1e-12) }
        #expect(SpringCurve(response: 0.5, dampingRatio: 1).regime == .critical)
    }

    @Test(arguments: cases)
    func settlingTimeIsWhenTheSpringStaysWithinOneThousandth(_ c: Case) {
        let spring = SpringCurve(mass: c.m, stiffness: c.k, damping: c.c, initialVelocity: c.v)
        let settle = spring.settlingTime()
        #expect(settle > 0)
        for i in 0...5000 {
            let t = settle + Double(i) * 0.002
            #expect(abs(1 - spring.value(atSeconds: t)) < 0.001, "\(c) at \(t) after settling at \(settle)")
        }
        let before =
            (1...1000).map { settle - Double($0) * 1e-5 }.map { abs(1 - spring.value(atSeconds: $0)) }.max() ?? 0
        #expect(before >= 0.001 * 0.999, "\(c): just before \(settle) it is still outside 0.001")
    }

    @Test func aSpringSegmentRunsOnSecondsAndEndsOnItsKeyframe() throws {
        let json =
            #"{"format":"tiltbox-tilt/1","units":"world","keyframes":[{"t":1,"gravity":[0,-980]},{"t":3,"gravity":[980,0],"curve":{"spring":{"stiffness":200,"damping":5}}}]}"#
        let tilt = try TiltFile.parse(data: Data(json.utf8), name: "s.json", g: 980)
        let spring = SpringCurve(mass: 1, stiffness: 200, damping: 5)
        for tau in [0.1, 0.25, 0.5, 1.0, 1.5, 1.99] {
            let t = 1 + tau
            let g = tilt.track.gravity(at: t)
            let s = spring.value(atSeconds: t - 1)
            #expect(g.x == 0 + (980 - 0) * s, "τ \(tau)")
            #expect(g.y == -980 + (0 - -980) * s, "τ \(tau)")
        }
        #expect(tilt.track.gravity(at: 3) == Vec2(980, 0))
        let track = try #require(tilt.track as? KeyframeGravityTrack)
        let short = track.shortSprings
        #expect(short.count == 1 && short.first?.keyframe == 1)
        #expect(
            short.first.map { $0.settlingSeconds > 2 } == true,
            "decaying as e^(−2.5τ), it settles after about 2.8 s: \(short)")
    }

    static let badSprings: [(String, String, String)] = [
        (#"{"stiffness": -1}"#, "keyframes[1].curve.spring.stiffness", "must be > 0"),
        (#"{"mass": 0}"#, "keyframes[1].curve.spring.mass", "must be > 0"),
        (#"{"damping": 1e999}"#, "keyframes[1].curve.spring.damping", "finite"),
        (#"{"damping": "x"}"#, "keyframes[1].curve.spring.damping", "expected a number"),
        (#"{"response": 0.5}"#, "keyframes[1].curve.spring.dampingRatio", "missing"),
        (#"{"response": 0.5, "dampingRatio": 1, "mass": 2}"#, "keyframes[1].curve.spring.mass", "cannot be mixed"),
        (#"{"bounce": 1}"#, "keyframes[1].curve.spring.bounce", "unknown spring parameter"),
        (#"[1, 2]"#, "keyframes[1].curve.spring", "expected an object"),
        (#"{"mass": 1e-9}"#, "keyframes[1].curve.spring.mass", "at least 1e-06"),
        (#"{"initialVelocity": 1e9, "damping": 19.999999}"#, "keyframes[1].curve.spring", "could stray"),
    ]

    @Test(arguments: badSprings)
    func badSpringParametersAreLocatedErrors(_ bad: (String, String, String)) {
        let json =
            "{\"format\":\"tiltbox-tilt/1\",\"keyframes\":[{\"t\":0,\"gravity\":[0,-1]},\n{\"t\":1,\"gravity\":[1,0],\"curve\":{\"spring\":\(bad.0)}}]}"
        do {
            _ = try TiltFile.parse(data: Data(json.utf8), name: "bad.json", g: 980)
            Issue.record("accepted \(bad.0)")
        } catch {
            #expect(error.path == bad.1, "\(error)")
            #expect(error.reason.contains(bad.2), "\(error)")
            #expect(error.line == 2, "\(error)")
            #expect(error.description.hasPrefix("bad.json:2:"), "\(error)")
        }
    }
}

/// Keyframe gravity is checked in world units, so no curve can carry it to infinity.
@Suite struct KeyframeGravityBoundsTests {
    @Test func aKeyframeGravityBeyondTheCapIsALocatedErrorNotACrash() {
        let json =
            #"{"format":"tiltbox-tilt/1","units":"world","keyframes":[{"t":0,"gravity":[1e308,0]},{"t":1,"gravity":[-1e308,0]}]}"#
        #expect(throws: InputError.self) { try TiltFile.parse(data: Data(json.utf8), name: "huge.json", g: 980) }
        let inG = #"{"format":"tiltbox-tilt/1","keyframes":[{"t":0,"gravity":[0,-1]},{"t":1,"gravity":[2000,0]}]}"#
        do {
            _ = try TiltFile.parse(data: Data(inG.utf8), name: "g.json", g: 980)
            Issue.record("2000 g × 980 accepted")
        } catch {
            #expect(error.path == "keyframes[1].gravity", "\(error)")
            #expect(error.reason.contains("more than the limit of 1000000 per component"), "\(error)")
        }
    }
}
