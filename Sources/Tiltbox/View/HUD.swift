import Foundation

/// The status line under the live view: simulated time, achieved frame rate, steps in
/// the last frame, the physics thread's and the drawing thread's cost per frame with
/// their shares of the frame budget, dropped time, the gravity as an arrow, and the keys.
struct HUD: Sendable, Equatable {
    var simulatedTime: Double = 0
    /// Frames drawn per second (a running average).
    var framesPerSecond: Double = 0
    var stepsInLastFrame: Int = 0
    /// Wall-clock seconds the physics thread spent stepping per frame (a running average).
    var physicsSecondsPerFrame: Double = 0
    /// Wall-clock seconds the drawing thread spent per frame: blending, rasterising,
    /// composing and writing it (a running average).
    var drawSecondsPerFrame: Double = 0
    /// One display frame (1/fps): the budget each thread's work must stay well under.
    var frameBudget: Double = 1.0 / 60
    var droppedTime: Double = 0
    var gravity: Vec2 = Vec2(0, -980)
    var paused = false
    var finished = false
    var interactive = false
    /// A live tilt source's name, shown with the age of its newest sample.
    var tiltSource: String?
    /// Seconds since the live source's newest sample arrived; `nil` before the first.
    var sampleAge: Double?
    /// Highlight a cost over budget in red; without colour, reverse video only.
    var colour = true

    init() {}

    /// Physics time per frame as a fraction of the frame budget.
    var physicsShare: Double { frameBudget > 0 ? physicsSecondsPerFrame / frameBudget : 0 }
    /// Drawing time per frame as a fraction of the frame budget.
    var drawShare: Double { frameBudget > 0 ? drawSecondsPerFrame / frameBudget : 0 }

    /// The share of the frame budget above which the HUD highlights a cost: past half a
    /// frame, a thread sharing its core (the trace writer, the other thread, other
    /// programs) starts missing frames, and the run drops time.
    static let warningShare = 0.5

    /// The HUD's running average of a figure: the first value as is, then 10 % of each new one.
    static func runningAverage(_ average: Double, _ value: Double) -> Double {
        average == 0 ? value : 0.9 * average + 0.1 * value
    }

    /// One of eight arrows pointing the way `v` does (y up), or `·` for zero.
    static func arrow(_ v: Vec2) -> String {
        guard v.length > 0 else { return "·" }
        let arrows = ["→", "↗", "↑", "↖", "←", "↙", "↓", "↘"]
        var octant = Int((atan2(v.y, v.x) / (Double.pi / 4)).rounded())
        octant = ((octant % 8) + 8) % 8
        return arrows[octant]
    }

    /// The line in pieces, each cost a piece of its own, `warn` when it is over `warningShare`.
    func pieces() -> [(text: String, warn: Bool)] {
        let state = finished ? " FINISHED" : (paused ? " PAUSED" : "")
        let keys = interactive ? "q quit ␣ pause r restart ←→ tilt" : "q quit ␣ pause r restart"
        let head =
            String(format: "t %.2fs%@ │ ", simulatedTime, state) + liveSource
            + String(format: "%.0f fps │ %d steps │ ", framesPerSecond, stepsInLastFrame)
        let physics = String(format: "phys %.2fms %.0f%%", physicsSecondsPerFrame * 1000, physicsShare * 100)
        let draw = String(format: "draw %.2fms %.0f%%", drawSecondsPerFrame * 1000, drawShare * 100)
        let tail =
            String(format: " │ drop %.3fs │ g %@ %.0f,%.0f │ ", droppedTime, HUD.arrow(gravity), gravity.x, gravity.y)
            + keys
        return [
            (head, false), (physics, physicsShare > HUD.warningShare), (" │ ", false),
            (draw, drawShare > HUD.warningShare), (tail, false),
        ]
    }

    /// `tilt SOURCE 0.02s old │ ` for a live tilt source (`no sample yet` before its first), else nothing.
    var liveSource: String {
        guard let tiltSource else { return "" }
        let age = sampleAge.map { String(format: "%.2fs old", $0) } ?? "no sample yet"
        return "tilt \(tiltSource) \(age) │ "
    }

    /// The line as plain text.
    func text() -> String { pieces().map(\.text).joined() }

    /// The line with ANSI highlighting (reverse video, red with `colour`) on each cost
    /// above `warningShare` of the frame, cut to `width` columns.
    func render(width: Int) -> String {
        var out = ""
        var left = width
        // Cut by characters (every character here is one column wide).
        for piece in pieces() where left > 0 {
            let shown = piece.text.count > left ? String(piece.text.prefix(left)) : piece.text
            left -= shown.count
            out += piece.warn ? (colour ? "\u{1B}[7;31m" : "\u{1B}[7m") + shown + "\u{1B}[0m" : shown
        }
        return out
    }
}
