/// Draws one live-view frame: blends the last two steps' states (`StateInterpolation`),
/// rasterises the scene into a braille canvas (`SceneRasterizer`) and composes the
/// terminal text with the HUD line (`FrameComposer`). Everything the drawing thread does
/// but the write; `tiltbox-bench --only draw` times it.
///
/// Keeps its canvas and blend buffer between frames, so a frame of the same size
/// allocates nothing but its text.
@_spi(Tools) public struct LiveFrameRenderer {
    private let rasterizer: SceneRasterizer
    private var canvas = BrailleCanvas(columns: 0, rows: 0)
    private var blended: [Double] = []

    /// A renderer for `scenario`'s world, walls and crate sizes; `colour` tints crates.
    public init(scenario: Scenario, colour: Bool = true) {
        rasterizer = SceneRasterizer(scenario: scenario, colour: colour)
    }

    /// The terminal text of one frame on a terminal of `columns`×`terminalRows`: the
    /// scene in every row but the last, `hud` on the last.
    ///
    /// - Parameters:
    ///   - previous: the states one step before `current`, `BodyStateLayout.count` per crate.
    ///   - current: the states after the last step.
    ///   - alpha: where to draw between `previous` (0) and `current` (1).
    ///   - hud: the status line (cut to `columns` already).
    ///   - columns: the terminal's width in cells.
    ///   - terminalRows: the terminal's height in cells, the HUD's row included.
    ///   - clear: erase the screen first (after a resize or a restart).
    ///   - outline: what to draw for the bodies `current` lists when a timeline has changed
    ///     them; `nil`, the scenario's.
    ///   - colourIndices: with `outline`, the index each body's colour is chosen by.
    public mutating func frame(
        previous: [Double], current: [Double], alpha: Double, hud: String,
        columns: Int, terminalRows: Int, clear: Bool, outline: SceneOutline? = nil, colourIndices: [Int]? = nil
    ) -> String {
        let rows = max(terminalRows - 1, 1)
        if canvas.columns != columns || canvas.rows != rows {
            canvas = BrailleCanvas(columns: columns, rows: rows)
        } else {
            canvas.clear()
        }
        if blended.count != current.count { blended = [Double](repeating: 0, count: current.count) }
        previous.withUnsafeBufferPointer { previous in
            current.withUnsafeBufferPointer { current in
                blended.withUnsafeMutableBufferPointer { out in
                    StateInterpolation.blend(previous: previous, current: current, alpha: alpha, into: out)
                }
            }
        }
        blended.withUnsafeBufferPointer {
            rasterizer.draw(into: &canvas, states: $0, outline: outline, colourIndices: colourIndices)
        }
        return FrameComposer.compose(canvas: canvas, hud: hud, terminalRows: terminalRows, clear: clear)
    }
}
