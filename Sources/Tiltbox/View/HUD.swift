import Foundation

/// The status line under the live view: simulated time, achieved frame rate, steps in
/// the last frame, physics cost per step and its share of the step budget (dt),
/// dropped time, the gravity as an arrow, and the keys.
struct HUD: Sendable, Equatable {
    var simulatedTime: Double = 0
    var framesPerSecond: Double = 0
    var stepsInLastFrame: Int = 0
    /// Wall-clock seconds of physics per step (a running average).
    var physicsSecondsPerStep: Double = 0
    /// The step length, the budget one step's physics must stay well under in real time.
    var dt: Double = 1.0 / 120
    var droppedTime: Double = 0
    var gravity: Vec2 = Vec2(0, -980)
    var paused = false
    var finished = false
    var interactive = false
    /// Highlight the budget in red; without colour, reverse video only.
    var colour = true

    init() {}

    /// Physics time per step as a fraction of `dt`.
    var budgetShare: Double { dt > 0 ? physicsSecondsPerStep / dt : 0 }

    /// The budget share above which the HUD highlights it: past half the budget the step
    /// must get cheaper (or longer) before frames start dropping time.
    static let warningShare = 0.5

    /// One of eight arrows pointing the way `v` does (y up), or `·` for zero.
    static func arrow(_ v: Vec2) -> String {
        guard v.length > 0 else { return "·" }
        let arrows = ["→", "↗", "↑", "↖", "←", "↙", "↓", "↘"]
        var octant = Int((atan2(v.y, v.x) / (Double.pi / 4)).rounded())
        octant = ((octant % 8) + 8) % 8
        return arrows[octant]
    }

    /// The line as plain text, and the range of the budget figure for highlighting.
    func text() -> (line: String, budget: String) {
        let state = finished ? " FINISHED" : (paused ? " PAUSED" : "")
        let budget = String(format: "phys %.2fms %.0f%%", physicsSecondsPerStep * 1000, budgetShare * 100)
        let keys = interactive ? "q quit ␣ pause r restart ←→ tilt" : "q quit ␣ pause r restart"
        let line = String(format: "t %.2fs%@ │ %.0f fps │ %d steps │ ", simulatedTime, state, framesPerSecond, stepsInLastFrame)
        let rest = String(format: " │ drop %.3fs │ g %@ %.0f,%.0f │ ", droppedTime, HUD.arrow(gravity), gravity.x, gravity.y) + keys
        return (line + "\u{0}" + rest, budget)
    }

    /// The line with ANSI highlighting (reverse video, red with `colour`, on the budget above 50 %),
    /// cut to `width` columns.
    func render(width: Int) -> String {
        let (template, budget) = text()
        let parts = template.split(separator: "\u{0}", omittingEmptySubsequences: false)
        let plain = parts[0] + budget + parts[1]
        // Cut by characters (every character here is one column wide).
        let cut = plain.count > width ? String(plain.prefix(width)) : String(plain)
        guard budgetShare > HUD.warningShare, cut.count >= parts[0].count + budget.count else { return cut }
        let head = String(parts[0]), tail = String(cut.dropFirst(parts[0].count + budget.count))
        return head + (colour ? "\u{1B}[7;31m" : "\u{1B}[7m") + budget + "\u{1B}[0m" + tail
    }
}
