/// A grid of Unicode braille cells used as a bitmap of 2×4 dots per character.
///
/// Dot (0, 0) is the top-left dot of the top-left cell; x grows right, y grows down.
/// Each cell also remembers a colour (the last one drawn into it), so crates can be
/// tinted with ANSI colours.
struct BrailleCanvas: Sendable, Equatable {
    /// Width and height in character cells.
    let columns: Int
    let rows: Int
    private var bits: [UInt8]
    private var colours: [UInt8]

    /// Width and height in dots.
    var dotWidth: Int { columns * 2 }
    var dotHeight: Int { rows * 4 }

    init(columns: Int, rows: Int) {
        precondition(columns >= 0 && rows >= 0)
        self.columns = columns
        self.rows = rows
        bits = [UInt8](repeating: 0, count: columns * rows)
        colours = [UInt8](repeating: 0, count: columns * rows)
    }

    /// Unicode's bit for each dot of a cell, indexed `[y][x]`: dots 1, 2, 3, 7 down the
    /// left column and 4, 5, 6, 8 down the right.
    private static let dotBits: [[UInt8]] = [[0x01, 0x08], [0x02, 0x10], [0x04, 0x20], [0x40, 0x80]]

    /// Lights the dot at (x, y); dots outside the canvas are ignored (clipping).
    mutating func set(x: Int, y: Int, colour: UInt8 = 0) {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return }
        let cell = (y >> 2) * columns + (x >> 1)
        bits[cell] |= Self.dotBits[y & 3][x & 1]
        if colour != 0 { colours[cell] = colour }
    }

    /// Whether the dot at (x, y) is lit.
    func isSet(x: Int, y: Int) -> Bool {
        guard x >= 0, y >= 0, x < dotWidth, y < dotHeight else { return false }
        return bits[(y >> 2) * columns + (x >> 1)] & Self.dotBits[y & 3][x & 1] != 0
    }

    /// Draws a line between two dots with Bresenham's algorithm (both ends included).
    mutating func line(x0: Int, y0: Int, x1: Int, y1: Int, colour: UInt8 = 0) {
        var phase = 0
        line(x0: x0, y0: y0, x1: x1, y1: y1, colour: colour, pattern: .solid, phase: &phase)
    }

    /// Draws a line like `line(x0:y0:x1:y1:colour:)`, lighting only the dots `pattern`
    /// keeps; `phase` counts the dots walked, so a polyline's pattern runs on across
    /// its corners.
    mutating func line(x0: Int, y0: Int, x1: Int, y1: Int, colour: UInt8, pattern: LinePattern, phase: inout Int) {
        var x = x0, y = y0
        let dx = abs(x1 - x0), dy = -abs(y1 - y0)
        let sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1
        var error = dx + dy
        // Bounded by the line's length, so a far-off segment cannot spin for long.
        var remaining = max(dx, -dy) + 1
        while remaining > 0 {
            if pattern.lights(phase) { set(x: x, y: y, colour: colour) }
            phase += 1
            if x == x1 && y == y1 { break }
            let e2 = 2 * error
            if e2 >= dy { error += dy; x += sx }
            if e2 <= dx { error += dx; y += sy }
            remaining -= 1
        }
    }

    /// The braille character of a cell (U+2800 when empty).
    func character(column: Int, row: Int) -> Character {
        Character(Unicode.Scalar(0x2800 + UInt32(bits[row * columns + column]))!)
    }

    /// The colour of a cell (0 when none).
    func colour(column: Int, row: Int) -> UInt8 { colours[row * columns + column] }

    /// The canvas as plain text, one line per row (for tests and non-colour output).
    var text: String {
        (0..<rows).map { r in String((0..<columns).map { character(column: $0, row: r) }) }.joined(separator: "\n")
    }

    /// Clears every dot and colour, keeping the size.
    mutating func clear() {
        for i in bits.indices { bits[i] = 0; colours[i] = 0 }
    }
}

/// Which dots of a line are lit: `on` dots, then `off` dots dark, repeated.
struct LinePattern: Sendable, Equatable {
    let on: Int
    let off: Int

    /// Every dot.
    static let solid = LinePattern(on: 1, off: 0)
    /// Three dots lit, two dark: kinematic bodies.
    static let dashed = LinePattern(on: 3, off: 2)
    /// Every other dot: joints.
    static let dotted = LinePattern(on: 1, off: 1)

    func lights(_ phase: Int) -> Bool { off == 0 || phase % (on + off) < on }
}
