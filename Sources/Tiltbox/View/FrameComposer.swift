/// Turns a braille canvas and a HUD into one terminal frame: cursor home, every row
/// positioned explicitly (no scrolling), colour escapes only where the colour changes,
/// and the HUD on the last line. The whole frame is written with one call.
enum FrameComposer {
    static func compose(canvas: BrailleCanvas, hud: String, terminalRows: Int, clear: Bool) -> String {
        var out = clear ? "\u{1B}[2J" : ""
        out.reserveCapacity(canvas.columns * canvas.rows * 4 + 256)
        for row in 0..<canvas.rows {
            out += "\u{1B}[\(row + 1);1H"
            var current: UInt8 = 0
            for column in 0..<canvas.columns {
                let colour = canvas.colour(column: column, row: row)
                if colour != current {
                    out += colour == 0 ? "\u{1B}[0m" : "\u{1B}[\(colour)m"
                    current = colour
                }
                out.append(canvas.character(column: column, row: row))
            }
            if current != 0 { out += "\u{1B}[0m" }
        }
        out += "\u{1B}[\(max(terminalRows, 1));1H\u{1B}[0m\u{1B}[K" + hud + "\u{1B}[0m"
        return out
    }
}
