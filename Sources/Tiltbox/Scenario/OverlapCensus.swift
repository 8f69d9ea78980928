/// Which crates overlap each other, or a static segment (a wall), at t = 0: the one
/// overlap check behind the mass-overlap limit (`ScenarioLimits.maxOverlappingPairs`,
/// refused by `ScenarioLoader`) and the overlap warnings of `validate` and `run`.
///
/// Broad phase: a hierarchical uniform grid over the bounding boxes. Each crate or
/// segment goes into the grid of its size class (cells twice the size of the class's
/// largest box, so a box covers at most 2 × 2 cells), and is compared only with the
/// boxes of its own class and larger classes in the cells it covers. Boxes that do not
/// overlap each other crowd no cell, so the work is about linear in the number of
/// boxes plus the pairs found; the census stops as soon as the crate pairs pass
/// `stopAfter`, so a thousand crates at one point cost a few thousand comparisons, not
/// half a million. Narrow phase: the separating-axis test of two rotated boxes; for a
/// crate and a segment, the segment against the crate's box widened by the segment's
/// radius. Touching is not overlapping: crates stacked edge to edge are fine. A pair that
/// Chipmunk never pushes apart (a sensor, or filters that reject each other:
/// `ShapeCollision.collide`) is not counted.
struct OverlapCensus: Sendable {
    /// One pair found, by index into `scenario.crates` (and `scenario.allSegments`).
    struct CratePair: Sendable, Equatable {
        var first: Int
        var second: Int
    }
    struct WallContact: Sendable, Equatable {
        var crate: Int
        var segment: Int
    }

    /// Crate pairs that overlap, counted up to `stopAfter + 1`.
    private(set) var cratePairs = 0
    /// Crate–segment pairs that overlap (not counted past the stop).
    private(set) var wallContacts = 0
    /// True when the count stopped early: there are more than `stopAfter` crate pairs.
    private(set) var stoppedEarly = false
    /// The first few pairs found (at most `examplesKept` of each kind), for messages.
    private(set) var cratePairExamples: [CratePair] = []
    private(set) var wallContactExamples: [WallContact] = []

    static let examplesKept = 3

    /// Counts the overlaps of `scenario` at t = 0.
    /// - Parameter stopAfter: stop once more than this many crate pairs are found.
    init(scenario: Scenario, stopAfter: Int) {
        let segments = scenario.allSegments
        var items: [Item] = []
        items.reserveCapacity(scenario.crates.count + segments.count)
        for (index, crate) in scenario.crates.enumerated() { items.append(Item(crate: crate, index: index)) }
        for (index, segment) in segments.enumerated() { items.append(Item(segment: segment, index: index)) }
        count(items, stopAfter: stopAfter)
    }

    // MARK: - Broad phase

    private struct CellKey: Hashable {
        var x: Int64
        var y: Int64
    }

    /// A grid of one size class: boxes whose larger side is in [2^e, 2^(e+1)).
    private struct Level {
        var cellSize: Double
        var cells: [CellKey: [Int]] = [:]

        mutating func insert(_ index: Int, _ item: Item) {
            let low = key(item.minX, item.minY), high = key(item.maxX, item.maxY)
            for x in low.x...high.x {
                for y in low.y...high.y { cells[CellKey(x: x, y: y), default: []].append(index) }
            }
        }

        func key(_ x: Double, _ y: Double) -> CellKey {
            CellKey(x: Int64((x / cellSize).rounded(.down)), y: Int64((y / cellSize).rounded(.down)))
        }
    }

    private mutating func count(_ items: [Item], stopAfter: Int) {
        var levels: [Int: Level] = [:]
        for (i, item) in items.enumerated() {
            let exponent = item.sizeClass
            // Mutated in place (a copy taken out and stored back would copy every cell each time).
            levels[exponent, default: Level(cellSize: Double(sign: .plus, exponent: exponent + 1, significand: 1))]
                .insert(i, item)
        }
        // Smallest class first; the order of the pairs found is the order of the items.
        let classes = levels.keys.sorted()
        for (i, item) in items.enumerated() {
            for exponent in classes where exponent >= item.sizeClass {
                guard let level = levels[exponent] else { continue }
                let low = level.key(item.minX, item.minY), high = level.key(item.maxX, item.maxY)
                for x in low.x...high.x {
                    for y in low.y...high.y {
                        let cell = CellKey(x: x, y: y)
                        for j in level.cells[cell] ?? [] {
                            if exponent == item.sizeClass && j <= i { continue }
                            let other = items[j]
                            guard item.boundsOverlap(other) else { continue }
                            // Count a pair once: in the cell of the lower-left corner of the boxes' overlap.
                            guard level.key(max(item.minX, other.minX), max(item.minY, other.minY)) == cell else {
                                continue
                            }
                            record(item, other)
                            if cratePairs > stopAfter {
                                stoppedEarly = true
                                return
                            }
                        }
                    }
                }
            }
        }
    }

    private mutating func record(_ a: Item, _ b: Item) {
        guard ShapeCollision.collide(a.collision, b.collision) else { return }
        switch (a.shape, b.shape) {
        case (.crate, .crate):
            guard Item.cratesOverlap(a, b) else { return }
            cratePairs += 1
            if cratePairExamples.count < Self.examplesKept {
                cratePairExamples.append(CratePair(first: min(a.index, b.index), second: max(a.index, b.index)))
            }
        case (.crate, .segment), (.segment, .crate):
            let (crate, segment) = a.isCrate ? (a, b) : (b, a)
            guard Item.crateTouchesSegment(crate, segment) else { return }
            wallContacts += 1
            if wallContactExamples.count < Self.examplesKept {
                wallContactExamples.append(WallContact(crate: crate.index, segment: segment.index))
            }
        case (.segment, .segment):
            return
        }
    }

    // MARK: - Shapes

    private struct Item {
        enum Shape {
            /// A box: centre, half sizes, unit axes.
            case crate(center: Vec2, half: Vec2, u: Vec2, v: Vec2)
            case segment(from: Vec2, to: Vec2, radius: Double)
        }
        var shape: Shape
        var index: Int
        var collision: ShapeCollision
        var minX: Double, minY: Double, maxX: Double, maxY: Double

        var isCrate: Bool { if case .crate = shape { return true } else { return false } }

        init(crate: CrateSpec, index: Int) {
            let c = cos(crate.angle), s = sin(crate.angle)
            let half = Vec2(crate.size.x / 2, crate.size.y / 2)
            shape = .crate(center: crate.position, half: half, u: Vec2(c, s), v: Vec2(-s, c))
            self.index = index
            collision = crate.collision
            let ex = abs(c) * half.x + abs(s) * half.y, ey = abs(s) * half.x + abs(c) * half.y
            minX = crate.position.x - ex; maxX = crate.position.x + ex
            minY = crate.position.y - ey; maxY = crate.position.y + ey
        }

        init(segment: SegmentSpec, index: Int) {
            shape = .segment(from: segment.from, to: segment.to, radius: segment.radius)
            self.index = index
            collision = segment.collision
            minX = min(segment.from.x, segment.to.x) - segment.radius
            maxX = max(segment.from.x, segment.to.x) + segment.radius
            minY = min(segment.from.y, segment.to.y) - segment.radius
            maxY = max(segment.from.y, segment.to.y) + segment.radius
        }

        /// floor(log2) of the larger side of the bounding box (> 0: sizes and segments are validated).
        var sizeClass: Int { Int(max(maxX - minX, maxY - minY).exponent) }

        func boundsOverlap(_ other: Item) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }

        /// Separating-axis test of two rotated boxes; touching (within rounding) is not overlapping.
        static func cratesOverlap(_ a: Item, _ b: Item) -> Bool {
            guard case .crate(let ca, let ha, let ua, let va) = a.shape,
                case .crate(let cb, let hb, let ub, let vb) = b.shape
            else { return false }
            let d = cb - ca
            let slack = 1e-9 * max(ha.x, ha.y, hb.x, hb.y)
            for axis in [ua, va, ub, vb] {
                let ra = ha.x * abs(dot(ua, axis)) + ha.y * abs(dot(va, axis))
                let rb = hb.x * abs(dot(ub, axis)) + hb.y * abs(dot(vb, axis))
                if abs(dot(d, axis)) >= ra + rb - slack { return false }
            }
            return true
        }

        /// Whether the segment, in the crate's frame, passes through the crate's box widened
        /// by the segment's radius on every side (Liang–Barsky clipping).
        static func crateTouchesSegment(_ crate: Item, _ segment: Item) -> Bool {
            guard case .crate(let c, let half, let u, let v) = crate.shape,
                case .segment(let from, let to, let radius) = segment.shape
            else { return false }
            let p = Vec2(dot(from - c, u), dot(from - c, v))
            let q = Vec2(dot(to - c, u), dot(to - c, v))
            let slack = 1e-9 * max(half.x, half.y, radius)
            let hx = half.x + radius - slack, hy = half.y + radius - slack
            guard hx > 0, hy > 0 else { return false }
            var t0 = 0.0, t1 = 1.0
            let delta = q - p
            for (start, step, bound) in [(p.x, delta.x, hx), (p.y, delta.y, hy)] {
                if step == 0 {
                    if abs(start) >= bound { return false }
                    continue
                }
                var enter = (-bound - start) / step, exit = (bound - start) / step
                if enter > exit { swap(&enter, &exit) }
                t0 = max(t0, enter)
                t1 = min(t1, exit)
                if t0 >= t1 { return false }
            }
            return true
        }

        private static func dot(_ a: Vec2, _ b: Vec2) -> Double { a.x * b.x + a.y * b.y }
    }
}

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif
