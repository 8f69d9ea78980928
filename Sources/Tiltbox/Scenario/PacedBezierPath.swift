import Foundation

/// A chain of cubic Bézier segments `[P0, C1, C2, P1, C1, C2, P2, ...]` measured once so
/// that a body can travel it at constant speed along its arc length (Core Animation's
/// `paced` calculation mode).
///
/// The measure is fixed, so every machine finds the same poses: each segment is cut into
/// `chordsPerSegment` chords of equal parameter step (u = i/64), and the path's length is
/// the sum of the chord lengths, accumulated into a table in path order. The place at
/// distance `d` along the path is found by binary search in that table and a linear step
/// within the chord from distance to parameter; the position is the cubic evaluated at
/// that parameter (a point on the curve itself, not on the chord).
struct PacedBezierPath: Sendable {
    /// Chords per cubic segment in the arc-length table.
    static let chordsPerSegment = 64

    let points: [Vec2]
    let segmentCount: Int
    /// `cumulative[j]`: the length of chords `0..<j`; `segmentCount · chordsPerSegment + 1` entries.
    let cumulative: [Double]
    /// The direction of each chord (`atan2`), unwrapped along the path so that neighbours
    /// differ by at most π; a zero-length chord takes its predecessor's (or, at the start,
    /// the first non-zero chord's). The reference that picks the turn of a tangent angle.
    let chordAngles: [Double]

    /// The path's length in world units (the sum of all chords).
    var length: Double { cumulative[cumulative.count - 1] }

    /// - Precondition: `points.count` is 1 + 3k with k ≥ 1 (the reader checks it).
    init(points: [Vec2]) {
        precondition(points.count >= 4 && (points.count - 1) % 3 == 0, "a Bézier path has 1 + 3k points, k ≥ 1")
        self.points = points
        segmentCount = (points.count - 1) / 3
        let n = Self.chordsPerSegment
        var cumulative = [0.0]
        var chords: [Vec2] = []
        cumulative.reserveCapacity(segmentCount * n + 1)
        chords.reserveCapacity(segmentCount * n)
        var total = 0.0
        for segment in 0..<segmentCount {
            var previous = points[3 * segment]
            for i in 1...n {
                let next = Self.point(points, segment: segment, at: Double(i) / Double(n))
                let chord = next - previous
                chords.append(chord)
                total += chord.length
                cumulative.append(total)
                previous = next
            }
        }
        self.cumulative = cumulative
        let first = chords.first(where: { $0 != .zero }).map { atan2($0.y, $0.x) } ?? 0
        var angles: [Double] = []
        angles.reserveCapacity(chords.count)
        var reference = first
        for chord in chords {
            if chord != .zero {
                reference += (atan2(chord.y, chord.x) - reference).remainder(dividingBy: 2 * Double.pi)
            }
            angles.append(reference)
        }
        chordAngles = angles
    }

    // MARK: - The cubic

    /// B(u) of segment `segment`, in Bernstein form (exactly P at u = 0 and u = 1).
    static func point(_ points: [Vec2], segment: Int, at u: Double) -> Vec2 {
        let p0 = points[3 * segment], c1 = points[3 * segment + 1]
        let c2 = points[3 * segment + 2], p1 = points[3 * segment + 3]
        let v = 1 - u
        return p0 * (v * v * v) + c1 * (3 * v * v * u) + c2 * (3 * v * u * u) + p1 * (u * u * u)
    }

    /// B′(u) of segment `segment`: 3(1−u)²(C1 − P0) + 6(1−u)u(C2 − C1) + 3u²(P1 − C2).
    func derivative(segment: Int, at u: Double) -> Vec2 {
        let p0 = points[3 * segment], c1 = points[3 * segment + 1]
        let c2 = points[3 * segment + 2], p1 = points[3 * segment + 3]
        let v = 1 - u
        return (c1 - p0) * (3 * v * v) + (c2 - c1) * (6 * v * u) + (p1 - c2) * (3 * u * u)
    }

    // MARK: - Places along the path

    /// A place on the path: its chord, its segment and the segment's parameter.
    struct Place: Equatable {
        var chord: Int
        var segment: Int
        var u: Double
    }

    /// The place at distance `d` from the start, measured along the path (clamped to
    /// [0, length]): the last chord starting at or before `d`, then a linear step from
    /// distance to parameter within it. The end of the path is exactly u = 1 of the last segment.
    func place(atDistance d: Double) -> Place {
        let n = Self.chordsPerSegment
        let chordCount = cumulative.count - 1
        guard d < length else { return Place(chord: chordCount - 1, segment: segmentCount - 1, u: 1) }
        guard d > 0 else { return Place(chord: 0, segment: 0, u: 0) }
        // The largest j in 0..<chordCount with cumulative[j] ≤ d.
        var low = 0, high = chordCount
        while high - low > 1 {
            let mid = (low + high) / 2
            if cumulative[mid] <= d { low = mid } else { high = mid }
        }
        let chordLength = cumulative[low + 1] - cumulative[low] // > 0: cumulative[low] ≤ d < cumulative[low + 1]
        let fraction = min(max((d - cumulative[low]) / chordLength, 0), 1)
        return Place(chord: low, segment: low / n, u: (Double(low % n) + fraction) / Double(n))
    }

    func position(at place: Place) -> Vec2 {
        Self.point(points, segment: place.segment, at: place.u)
    }

    /// The direction of the tangent at `place` (`atan2` of B′(u)), on the turn nearest its
    /// chord's unwrapped direction, so the angle is continuous along the path instead of
    /// jumping by 2π. Where B′(u) is exactly zero (a cusp, or a control point on its end
    /// point at u = 0 or 1) the chord's direction stands in for the tangent.
    func tangentAngle(at place: Place) -> Double {
        let reference = chordAngles[place.chord]
        let tangent = derivative(segment: place.segment, at: place.u)
        guard tangent != .zero else { return reference }
        let raw = atan2(tangent.y, tangent.x)
        let turn = 2 * Double.pi
        return raw + turn * ((reference - raw) / turn).rounded()
    }
}
