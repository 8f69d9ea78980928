extension Orientation {
    /// A device-frame (X, Y) reading turned into world axes (y up), docs/formats.md §2:
    /// portrait → (X, Y); landscapeRight (top edge points right) → (Y, −X);
    /// landscapeLeft (top edge points left) → (−Y, X); portraitUpsideDown → (−X, −Y).
    /// Units are unchanged; callers scale by g afterwards.
    public func worldVector(fromDevice reading: Vec2) -> Vec2 {
        switch self {
        case .portrait: return reading
        case .landscapeRight: return Vec2(reading.y, -reading.x)
        case .landscapeLeft: return Vec2(-reading.y, reading.x)
        case .portraitUpsideDown: return Vec2(-reading.x, -reading.y)
        }
    }
}
