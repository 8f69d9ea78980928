import Foundation

/// Draws a world into a `BrailleCanvas`: static segments as lines, crates as rotated
/// rectangles, each crate tinted with one of six ANSI colours.
struct SceneRasterizer: Sendable {
    let worldSize: Vec2
    let segments: [SegmentSpec]
    let crateSizes: [Vec2]
    /// Tint crates; without colour every cell is drawn in the terminal's own colour.
    let colour: Bool

    init(worldSize: Vec2, segments: [SegmentSpec], crateSizes: [Vec2], colour: Bool = true) {
        self.worldSize = worldSize
        self.segments = segments
        self.crateSizes = crateSizes
        self.colour = colour
    }

    init(scenario: Scenario, colour: Bool = true) {
        self.init(worldSize: scenario.world.size, segments: scenario.allSegments, crateSizes: scenario.crates.map(\.size),
                  colour: colour)
    }

    /// ANSI foreground colours used for crates: red, green, yellow, blue, magenta, cyan.
    static let crateColours: [UInt8] = [31, 32, 33, 34, 35, 36]

    /// The four corners of a crate of `size` centred at `position` and turned by `angle`
    /// (counter-clockwise), in world coordinates.
    static func corners(position: Vec2, size: Vec2, angle: Double) -> [Vec2] {
        let c = cos(angle), s = sin(angle)
        let hw = size.x / 2, hh = size.y / 2
        return [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh)].map { (x, y) in
            Vec2(position.x + x * c - y * s, position.y + x * s + y * c)
        }
    }

    /// Draws everything. `states` holds `BodyState.count` values per crate, as in traces.
    func draw(into canvas: inout BrailleCanvas, states: UnsafeBufferPointer<Double>) {
        let viewport = Viewport(worldSize: worldSize, dotWidth: canvas.dotWidth, dotHeight: canvas.dotHeight)
        for segment in segments {
            let a = viewport.dot(segment.from), b = viewport.dot(segment.to)
            canvas.line(x0: a.x, y0: a.y, x1: b.x, y1: b.y)
        }
        let count = min(crateSizes.count, states.count / BodyState.count)
        for i in 0..<count {
            let base = i * BodyState.count
            let position = Vec2(states[base + BodyState.x], states[base + BodyState.y])
            let corners = Self.corners(position: position, size: crateSizes[i], angle: states[base + BodyState.angle])
            let colour = self.colour ? Self.crateColours[i % Self.crateColours.count] : 0
            for k in 0..<4 {
                let a = viewport.dot(corners[k]), b = viewport.dot(corners[(k + 1) % 4])
                canvas.line(x0: a.x, y0: a.y, x1: b.x, y1: b.y, colour: colour)
            }
        }
    }
}
