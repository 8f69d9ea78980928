/// Maps world coordinates (units, y up) onto a canvas of dots (y down), scaled to fit
/// with the world's aspect ratio kept and centred.
///
/// Braille dots in a terminal are close to square (a cell is about twice as tall as
/// wide and holds 2×4 dots), so one scale serves both axes.
struct Viewport: Sendable, Equatable {
    let scale: Double
    let offsetX: Double
    let offsetY: Double
    let worldHeight: Double

    init(worldSize: Vec2, dotWidth: Int, dotHeight: Int) {
        let w = max(worldSize.x, 1e-9), h = max(worldSize.y, 1e-9)
        // The last dot is at width − 1, so fit the world into (dots − 1).
        let sx = Double(max(dotWidth - 1, 1)) / w
        let sy = Double(max(dotHeight - 1, 1)) / h
        scale = min(sx, sy)
        offsetX = (Double(max(dotWidth - 1, 1)) - w * scale) / 2
        offsetY = (Double(max(dotHeight - 1, 1)) - h * scale) / 2
        worldHeight = h
    }

    /// The dot nearest a world point.
    func dot(_ p: Vec2) -> (x: Int, y: Int) {
        let x = offsetX + p.x * scale
        let y = offsetY + (worldHeight - p.y) * scale
        return (Self.clampToInt(x), Self.clampToInt(y))
    }

    private static func clampToInt(_ v: Double) -> Int {
        // Far-off points are clamped (they are clipped when drawn anyway).
        guard v.isFinite else { return -1_000_000 }
        return Int(max(-1_000_000, min(1_000_000, v.rounded())))
    }
}
