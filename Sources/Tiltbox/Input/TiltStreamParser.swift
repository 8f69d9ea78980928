/// Reads a Tiltbox CSV one line at a time, as it arrives on a stream (`--tilt -`): the
/// header `t,x,y` or `t,x,y,z` (readings in g, the CoreMotion convention), then one sample
/// a row. Lines starting with `#` and blank lines are skipped anywhere.
///
/// A stream cannot be refused as a whole once a run is going, so a bad row is not an
/// error that stops the run: `feed` returns it as `.bad` with its reason, and the caller
/// holds the last good sample (and warns once). A row is bad when it does not have the
/// header's number of cells, a cell of t, x or y is not a finite number, its time is
/// earlier than the last good row's, or its reading, turned by `orientation` and scaled by
/// `g`, is beyond `GravityBound` (the check a replay of the written CSV applies too).
@_spi(Tools) public struct TiltStreamParser: Sendable {
    /// What one line was.
    public enum Line: Sendable, Equatable {
        /// A comment, a blank line, or the header.
        case skipped
        /// A good row.
        case sample(TiltSample)
        /// A bad row (or a bad header): the line number and the reason.
        case bad(line: Int, reason: String)
    }

    /// How the device was held, for the gravity bound.
    public let orientation: Orientation
    /// World units per 1 g, for the gravity bound.
    public let g: Double
    private var columns: Int?
    private var lineNumber = 0
    private var lastTime = -Double.infinity

    /// A parser checking readings as a run in `orientation` with `g` units per g uses them.
    public init(orientation: Orientation, g: Double) {
        self.orientation = orientation
        self.g = g
    }

    /// Whether the header has been read.
    public var hasHeader: Bool { columns != nil }

    /// Reads one line (without its line break; a trailing `\r` is dropped).
    public mutating func feed(_ raw: Substring) -> Line {
        lineNumber += 1
        var text = raw
        if text.last == "\r" { text = text.dropLast() }
        let trimmed = text.drop(while: { $0 == " " || $0 == "\t" })
        if trimmed.isEmpty || trimmed.hasPrefix("#") { return .skipped }
        let cells = text.split(separator: ",", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: [" ", "\t", "\""]).lowercased()
        }
        guard let columns else {
            if cells == ["t", "x", "y"] || cells == ["t", "x", "y", "z"] {
                self.columns = cells.count
                return .skipped
            }
            return .bad(line: lineNumber, reason: "the first line is not the header t,x,y or t,x,y,z")
        }
        guard cells.count == columns else {
            return .bad(line: lineNumber, reason: "\(cells.count) cells, the header has \(columns)")
        }
        var values: [Double] = []
        for (name, cell) in zip(["t", "x", "y"], cells) {
            guard let value = Double(cell), value.isFinite else {
                return .bad(line: lineNumber, reason: "\(name) is not a finite number")
            }
            values.append(value)
        }
        guard values[0] >= lastTime else {
            return .bad(
                line: lineNumber, reason: "time \(NumberFormat.shortest(values[0])) s is earlier than the row before")
        }
        let reading = Vec2(values[1], values[2])
        let world = SampledGravityTrack.worldValue(reading, orientation: orientation, g: g)
        if let reason = GravityBound.readingViolation(reading, world: world, g: g) {
            return .bad(line: lineNumber, reason: reason)
        }
        lastTime = values[0]
        return .sample(TiltSample(t: values[0], reading: reading))
    }
}

extension Substring {
    fileprivate func trimmingCharacters(in set: Set<Character>) -> String {
        String(drop(while: { set.contains($0) }).reversed().drop(while: { set.contains($0) }).reversed())
    }
}
