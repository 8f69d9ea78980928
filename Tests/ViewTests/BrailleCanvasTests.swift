import Testing

@_spi(Tools) @testable import Tiltbox

/// Golden canvases worked out by hand: a 4×2-cell canvas is 8×8 dots, and a 7×7 world
/// maps onto it at scale 1 with dot (x, 7 − y) for world (x, y).
@Suite struct BrailleCanvasTests {
    /// Renders lit dots as `#` and dark ones as `.`, one line per dot row.
    static func dots(_ canvas: BrailleCanvas) -> String {
        (0..<canvas.dotHeight).map { y in
            String((0..<canvas.dotWidth).map { canvas.isSet(x: $0, y: y) ? "#" : "." })
        }.joined(separator: "\n")
    }

    static func draw(position: Vec2, size: Vec2, angle: Double) -> BrailleCanvas {
        var canvas = BrailleCanvas(columns: 4, rows: 2)
        let rasterizer = SceneRasterizer(worldSize: Vec2(7, 7), segments: [], crateSizes: [size])
        let state = [position.x, position.y, angle, 0, 0, 0]
        state.withUnsafeBufferPointer { rasterizer.draw(into: &canvas, states: $0) }
        return canvas
    }

    @Test func eachDotMapsToItsUnicodeBrailleBit() {
        // Unicode numbers the dots 1-2-3-7 down the left column and 4-5-6-8 down the right.
        let expected: [(x: Int, y: Int, scalar: UInt32)] = [
            (0, 0, 0x2801), (0, 1, 0x2802), (0, 2, 0x2804), (0, 3, 0x2840),
            (1, 0, 0x2808), (1, 1, 0x2810), (1, 2, 0x2820), (1, 3, 0x2880),
        ]
        for e in expected {
            var canvas = BrailleCanvas(columns: 1, rows: 1)
            canvas.set(x: e.x, y: e.y)
            #expect(canvas.character(column: 0, row: 0) == Character(Unicode.Scalar(e.scalar)!))
        }
        var full = BrailleCanvas(columns: 1, rows: 1)
        for x in 0..<2 { for y in 0..<4 { full.set(x: x, y: y) } }
        #expect(full.text == "⣿")
    }

    @Test func axisAlignedCrateLightsExactlyItsOutline() {
        // A 4×2 crate centred at (3, 4): corners (1,3)…(5,5) → dots x 1…5, y 2…4.
        let canvas = Self.draw(position: Vec2(3, 4), size: Vec2(4, 2), angle: 0)
        #expect(
            Self.dots(canvas) == """
                ........
                ........
                .#####..
                .#...#..
                .#####..
                ........
                ........
                ........
                """)
    }

    @Test func crateTurnedAQuarterTurnStandsUpright() {
        // The same crate turned by π/2: corners (4,2), (4,6), (2,6), (2,2) → dots x 2…4, y 1…5.
        let canvas = Self.draw(position: Vec2(3, 4), size: Vec2(4, 2), angle: .pi / 2)
        #expect(
            Self.dots(canvas) == """
                ........
                ..###...
                ..#.#...
                ..#.#...
                ..#.#...
                ..###...
                ........
                ........
                """)
    }

    @Test func crateTurnedFortyFiveDegreesIsADiamond() {
        // A square of diagonal 6 at (4, 4) turned by π/4: corners at dots (4,0), (7,3), (4,6), (1,3),
        // joined by Bresenham diagonals.
        let side = 6 / 2.0.squareRoot()
        let canvas = Self.draw(position: Vec2(4, 4), size: Vec2(side, side), angle: .pi / 4)
        #expect(
            Self.dots(canvas) == """
                ....#...
                ...#.#..
                ..#...#.
                .#.....#
                ..#...#.
                ...#.#..
                ....#...
                ........
                """)
    }

    @Test func dotsOutsideTheCanvasAreClipped() {
        var canvas = BrailleCanvas(columns: 2, rows: 1)
        canvas.line(x0: -10, y0: 1, x1: 20, y1: 1)
        #expect((0..<4).allSatisfy { canvas.isSet(x: $0, y: 1) })
        #expect(canvas.text == "⠒⠒")
    }

    @Test func viewportKeepsTheAspectRatioAndCentres() {
        // 480×320 on 200×116 dots: height limits the scale (115/320), the width is centred.
        let v = Viewport(worldSize: Vec2(480, 320), dotWidth: 200, dotHeight: 116)
        #expect(v.scale == 115.0 / 320)
        let left = v.dot(Vec2(0, 0)), right = v.dot(Vec2(480, 320))
        #expect(left.y == 115 && right.y == 0)
        #expect(abs((left.x) - (199 - right.x)) <= 1)
        #expect(Double(right.x - left.x) == (480 * 115.0 / 320).rounded())
    }

    @Test func crateColoursCycleThroughSixANSIColours() {
        var canvas = BrailleCanvas(columns: 4, rows: 2)
        let rasterizer = SceneRasterizer(worldSize: Vec2(7, 7), segments: [], crateSizes: [Vec2(2, 2), Vec2(2, 2)])
        let states = [2.0, 2, 0, 0, 0, 0, 5, 5, 0, 0, 0, 0]
        states.withUnsafeBufferPointer { rasterizer.draw(into: &canvas, states: $0) }
        #expect(canvas.colour(column: 0, row: 1) == 31)
        #expect(canvas.colour(column: 2, row: 0) == 32)
    }

    @Test func withoutColourCratesKeepTheTerminalsOwnColour() {
        var canvas = BrailleCanvas(columns: 4, rows: 2)
        let rasterizer = SceneRasterizer(
            worldSize: Vec2(7, 7), segments: [], crateSizes: [Vec2(2, 2), Vec2(2, 2)], colour: false)
        let states = [2.0, 2, 0, 0, 0, 0, 5, 5, 0, 0, 0, 0]
        states.withUnsafeBufferPointer { rasterizer.draw(into: &canvas, states: $0) }
        #expect(
            canvas.text.contains { $0.unicodeScalars.contains { $0.value > 0x2800 && $0.value <= 0x28FF } },
            "nothing drawn")
        for row in 0..<2 {
            for column in 0..<4 { #expect(canvas.colour(column: column, row: row) == 0) }
        }
    }
}

@Suite struct ColourPolicyTests {
    @Test func noColorOrADumbTerminalTurnsColourOff() {
        #expect(ColourPolicy.allowsColour(environment: ["TERM": "xterm-256color"]))
        #expect(ColourPolicy.allowsColour(environment: [:]))
        #expect(!ColourPolicy.allowsColour(environment: ["NO_COLOR": "1", "TERM": "xterm"]))
        #expect(!ColourPolicy.allowsColour(environment: ["TERM": "dumb"]))
        // no-color.org: an empty NO_COLOR does not count.
        #expect(ColourPolicy.allowsColour(environment: ["NO_COLOR": ""]))
    }
}

@Suite struct StateInterpolationTests {
    static func blend(_ a: [Double], _ b: [Double], _ alpha: Double) -> [Double] {
        var out = [Double](repeating: .nan, count: a.count)
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                out.withUnsafeMutableBufferPointer {
                    StateInterpolation.blend(previous: pa, current: pb, alpha: alpha, into: $0)
                }
            }
        }
        return out
    }

    let previous: [Double] = [10, 20, 3.1, 1, 2, 3]
    let current: [Double] = [11, 18, -3.1, 2, 4, 6]

    @Test func alphaZeroGivesThePreviousStateAndOneTheCurrent() {
        #expect(Self.blend(previous, current, 0) == previous)
        #expect(Self.blend(previous, current, 1) == current)
    }

    @Test func halfwayIsTheMidpointOfPositionsAndVelocities() {
        let mid = Self.blend(previous, current, 0.5)
        #expect(mid[0] == 10.5 && mid[1] == 19 && mid[3] == 1.5 && mid[4] == 3 && mid[5] == 4.5)
    }

    @Test func anglesTakeTheShortestArcAcrossPi() {
        // From 3.1 to −3.1 is a turn of 2π − 6.2 ≈ 0.083 through π, not −6.2 through 0.
        let mid = Self.blend(previous, current, 0.5)
        #expect(abs(mid[2] - (3.1 + (2 * Double.pi - 6.2) / 2)) < 1e-12)
        #expect(abs(StateInterpolation.shortestArc(from: 0.1, to: 0.3) - 0.2) < 1e-15)
        #expect(abs(StateInterpolation.shortestArc(from: -3, to: 3) - (6 - 2 * Double.pi)) < 1e-12)
        #expect(abs(StateInterpolation.shortestArc(from: 0, to: 4 * Double.pi + 0.5) - 0.5) < 1e-12)
    }
}

@Suite struct KeyAndHUDTests {
    @Test func arrowsEscapeAndLettersAreParsed() {
        let bytes: [UInt8] = [0x1B, 0x5B, 0x43, 0x1B, 0x5B, 0x44, 0x71, 0x20, 0x1B, 0x4F, 0x41, 0x1B]
        #expect(Key.parse(bytes) == [.right, .left, .character("q"), .character(" "), .up, .escape])
    }

    @Test func gravityArrowPointsTheWayGravityPulls() {
        #expect(HUD.arrow(Vec2(0, -980)) == "↓")
        #expect(HUD.arrow(Vec2(500, -500)) == "↘")
        #expect(HUD.arrow(Vec2(-980, 0)) == "←")
        #expect(HUD.arrow(Vec2(0, 0)) == "·")
    }

    @Test func budgetShareAboveHalfIsHighlighted() {
        var hud = HUD()
        hud.frameBudget = 0.01
        hud.physicsSecondsPerFrame = 0.004
        #expect(!hud.render(width: 200).contains("\u{1B}[7"))
        hud.physicsSecondsPerFrame = 0.006
        let line = hud.render(width: 200)
        #expect(line.contains("\u{1B}[7;31mphys 6.00ms 60%\u{1B}[0m"))
    }

    @Test func withoutColourTheBudgetWarningIsReverseVideoOnly() {
        var hud = HUD()
        hud.frameBudget = 0.01
        hud.physicsSecondsPerFrame = 0.006
        hud.colour = false
        let line = hud.render(width: 200)
        #expect(line.contains("\u{1B}[7mphys 6.00ms 60%\u{1B}[0m"), "\(line)")
        #expect(!line.contains("31m"))
    }

    @Test func hudShowsPhysicsAndDrawingCostPerFrameEachWithItsShareOfTheFrameAndItsOwnWarning() {
        var hud = HUD()
        hud.frameBudget = 1.0 / 60
        hud.physicsSecondsPerFrame = 0.0125
        hud.drawSecondsPerFrame = 0.0005
        #expect(hud.text().contains("│ phys 12.50ms 75% │ draw 0.50ms 3% │ drop"), "\(hud.text())")
        var line = hud.render(width: 200)
        #expect(line.contains("\u{1B}[7;31mphys 12.50ms 75%\u{1B}[0m │ draw 0.50ms 3% │"), "\(line)")
        hud.physicsSecondsPerFrame = 0.001
        hud.drawSecondsPerFrame = 0.01
        line = hud.render(width: 200)
        #expect(line.contains("phys 1.00ms 6% │ \u{1B}[7;31mdraw 10.00ms 60%\u{1B}[0m │ drop"), "\(line)")
    }

    @Test func hudIsCutToTheTerminalWidth() {
        #expect(HUD().render(width: 30).count == 30)
    }
}
