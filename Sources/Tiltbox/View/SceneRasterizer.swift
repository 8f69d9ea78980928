import Foundation

/// Draws a world into a `BrailleCanvas`: static segments as lines, then every body's
/// shapes (`SceneOutline`), then the joints.
///
/// - crates and boxes as rotated rectangles, polygons as their outline; a radius
///   rounds them: the outline is pushed out by the radius with each corner an arc of
///   short chords (Chipmunk's shape is the polygon grown by its radius);
/// - circles as their rim plus a radius line from the centre along the body's x axis,
///   so rotation shows;
/// - segments as a capsule (both sides and round ends) when the radius is a dot or
///   more on screen, else as their centre line;
/// - dynamic bodies tinted with one of six ANSI colours by body index, kinematic ones
///   dashed (and grey with colour), static ones in the terminal's own colour;
/// - joints as dotted lines between their anchors (a groove joint: its groove, and a
///   line from anchor B to the groove).
struct SceneRasterizer: Sendable {
    let worldSize: Vec2
    let segments: [SegmentSpec]
    let outline: SceneOutline
    /// Tint bodies; without colour every cell is drawn in the terminal's own colour.
    let colour: Bool

    init(worldSize: Vec2, segments: [SegmentSpec], outline: SceneOutline, colour: Bool = true) {
        self.worldSize = worldSize
        self.segments = segments
        self.outline = outline
        self.colour = colour
    }

    init(worldSize: Vec2, segments: [SegmentSpec], crateSizes: [Vec2], colour: Bool = true) {
        self.init(worldSize: worldSize, segments: segments, outline: .crates(sizes: crateSizes), colour: colour)
    }

    init(scenario: Scenario, colour: Bool = true) {
        self.init(
            worldSize: scenario.world.size, segments: scenario.allSegments, outline: SceneOutline(scenario: scenario),
            colour: colour)
    }

    /// ANSI foreground colours used for dynamic bodies: red, green, yellow, blue, magenta, cyan.
    static let crateColours: [UInt8] = [31, 32, 33, 34, 35, 36]
    /// ANSI bright black (grey), for kinematic bodies.
    static let kinematicColour: UInt8 = 90

    /// Chords per quarter turn of a rounded corner.
    static let chordsPerCorner = 3

    /// The chords of a circle of `dotRadius` dots: about one per dot of rim, a multiple
    /// of 4 from 8 to 128.
    static func circleChords(dotRadius: Double) -> Int {
        guard dotRadius.isFinite else { return 8 }
        let perimeter = 2 * Double.pi * dotRadius
        return max(8, min(128, Int((perimeter / 4).rounded(.up)) * 4))
    }

    /// Draws everything. `states` holds `BodyStateLayout.count` values per body, as in traces;
    /// `override` (a timeline's bodies present, in the states' order) replaces `outline`, and
    /// `colourIndices` (one per body) chooses each body's colour instead of its place.
    func draw(
        into canvas: inout BrailleCanvas, states: UnsafeBufferPointer<Double>, outline override: SceneOutline? = nil,
        colourIndices: [Int]? = nil
    ) {
        let outline = override ?? self.outline
        let viewport = Viewport(worldSize: worldSize, dotWidth: canvas.dotWidth, dotHeight: canvas.dotHeight)
        for segment in segments {
            let a = viewport.dot(segment.from), b = viewport.dot(segment.to)
            canvas.line(x0: a.x, y0: a.y, x1: b.x, y1: b.y)
        }
        let count = min(outline.bodies.count, states.count / BodyStateLayout.count)
        func pose(_ i: Int) -> BodyPose {
            let base = i * BodyStateLayout.count
            return BodyPose(
                position: Vec2(states[base + BodyStateLayout.x], states[base + BodyStateLayout.y]),
                angle: states[base + BodyStateLayout.angle])
        }
        for i in 0..<count {
            let body = outline.bodies[i]
            let style: (colour: UInt8, pattern: LinePattern)
            switch body.type {
            case .dynamic:
                let index = colourIndices.map { i < $0.count ? $0[i] : i } ?? i
                style = (colour ? Self.crateColours[index % Self.crateColours.count] : 0, .solid)
            case .kinematic: style = (colour ? Self.kinematicColour : 0, .dashed)
            case .static: style = (0, .solid)
            }
            let at = pose(i)
            for shape in body.shapes {
                draw(
                    SceneOutline.place(shape, at: at), into: &canvas, viewport: viewport, colour: style.colour,
                    pattern: style.pattern)
            }
        }
        for joint in outline.joints where joint.isDrawn {
            guard (joint.a ?? 0) < count, (joint.b ?? 0) < count else { continue }
            let line = SceneOutline.line(of: joint, pose: pose)
            var phase = 0
            if let groove = line.groove {
                polyline(
                    [groove.0, groove.1], closed: false, into: &canvas, viewport: viewport,
                    colour: 0, pattern: .dotted, phase: &phase)
            }
            phase = 0
            polyline(
                [line.from, line.to], closed: false, into: &canvas, viewport: viewport, colour: 0, pattern: .dotted,
                phase: &phase)
        }
    }

    private func draw(
        _ shape: PlacedShape, into canvas: inout BrailleCanvas, viewport: Viewport, colour: UInt8, pattern: LinePattern
    ) {
        var phase = 0
        switch shape {
        case .circle(let centre, let radius, let rim):
            let chords = Self.circleChords(dotRadius: radius * viewport.scale)
            polyline(
                SceneOutline.circleOutline(centre: centre, radius: radius, chords: chords), closed: true, into: &canvas,
                viewport: viewport, colour: colour, pattern: pattern, phase: &phase)
            phase = 0
            polyline(
                [centre, rim], closed: false, into: &canvas, viewport: viewport, colour: colour, pattern: pattern,
                phase: &phase)
        case .polygon(let corners, let radius):
            let points = SceneOutline.roundedOutline(
                corners: corners, radius: radius, chordsPerCorner: Self.chordsPerCorner)
            polyline(
                points, closed: true, into: &canvas, viewport: viewport, colour: colour, pattern: pattern, phase: &phase
            )
        case .segment(let from, let to, let radius):
            if radius * viewport.scale >= 1 {
                let points =
                    (from - to).length > 0
                    ? SceneOutline.roundedOutline(
                        corners: [from, to], radius: radius, chordsPerCorner: Self.chordsPerCorner)
                    : SceneOutline.circleOutline(
                        centre: from, radius: radius, chords: Self.circleChords(dotRadius: radius * viewport.scale))
                polyline(
                    points, closed: true, into: &canvas, viewport: viewport, colour: colour, pattern: pattern,
                    phase: &phase)
            } else {
                polyline(
                    [from, to], closed: false, into: &canvas, viewport: viewport, colour: colour, pattern: pattern,
                    phase: &phase)
            }
        }
    }

    private func polyline(
        _ points: [Vec2], closed: Bool, into canvas: inout BrailleCanvas, viewport: Viewport,
        colour: UInt8, pattern: LinePattern, phase: inout Int
    ) {
        guard points.count >= 2 else {
            if let p = points.first { let d = viewport.dot(p); canvas.set(x: d.x, y: d.y, colour: colour) }
            return
        }
        let dots = points.map(viewport.dot)
        let count = closed ? dots.count : dots.count - 1
        for k in 0..<count {
            let a = dots[k], b = dots[(k + 1) % dots.count]
            canvas.line(x0: a.x, y0: a.y, x1: b.x, y1: b.y, colour: colour, pattern: pattern, phase: &phase)
        }
    }
}
