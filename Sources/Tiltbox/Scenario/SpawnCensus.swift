/// How many pairs of the bodies a `timeline` spawns overlap at their spawn poses: the overlap
/// cap of bodies at start (`ScenarioLimits.maxOverlappingPairs`) applied to spawned bodies, so
/// a file cannot put thousands of bodies at one point by spawning them (3 000 at one point took
/// gigabytes of contact memory, then crashed; 1 000, two seconds a step).
///
/// Every spawn entry is one item with as many bodies as its `count`, at its spawn pose (the
/// census does not know where bodies will have moved, so it is taken as if every spawned body
/// were present at once). A pair of entries that overlap (`ShapeOverlap.depth`: only shape pairs
/// Chipmunk pushes apart, touching is not overlapping) counts `count × count` pairs. The
/// repetitions of one entry overlap each other too, but they count only when they stay where
/// they are spawned (a kinematic body without velocity): a dynamic emitter's bodies fall away,
/// and its next body is checked against its last by the timeline's walk. Pairs of two static
/// bodies are not counted: Chipmunk never collides them. Overlaps with bodies present at start
/// are not counted (the start census counts crates).
///
/// Broad phase: a uniform grid per size class over each entry's bounding square (its position ±
/// its reach), as `OverlapCensus` does; the census stops as soon as the pairs pass `stopAfter`.
struct SpawnCensus {
    /// One spawn entry: its body and how many it spawns.
    struct Spawn {
        var entry: Int
        var body: BodySpec
        var count: Int
    }

    /// Overlapping pairs counted, up to the first count past `stopAfter`.
    private(set) var pairs = 0
    /// The first pair of entries found overlapping (indices into `timeline.entries`), for messages.
    private(set) var example: (first: Int, second: Int)?
    /// The entry whose pairs took the count past `stopAfter`, `nil` when it stayed within.
    private(set) var overflowingEntry: Int?

    /// Counts the overlaps among `spawns`, stopping once more than `stopAfter` pairs are found.
    init(spawns: [Spawn], stopAfter: Int) {
        var levels: [Int: [CellKey: [Int]]] = [:]
        let boxes = spawns.map { Box($0.body) }
        for (i, box) in boxes.enumerated() {
            let size = box.cellSize
            for key in box.keys(size) { levels[box.sizeClass, default: [:]][key, default: []].append(i) }
        }
        let classes = levels.keys.sorted()
        for (i, spawn) in spawns.enumerated() {
            let box = boxes[i]
            if SpawnCensus.staysInPlace(spawn.body), spawn.count > 1, SpawnCensus.overlap(spawn, spawn) {
                add(spawn.count * (spawn.count - 1) / 2, spawn.entry, spawn.entry, stopAfter: stopAfter)
                if overflowingEntry != nil { return }
            }
            for exponent in classes where exponent >= box.sizeClass {
                guard let cells = levels[exponent] else { continue }
                let size = Box.cellSize(exponent)
                for key in box.keys(size) {
                    for j in cells[key] ?? [] {
                        if exponent == box.sizeClass && j <= i { continue }
                        let other = boxes[j]
                        guard box.overlaps(other) else { continue }
                        // Count a pair once: in the cell of the lower-left corner of the boxes' overlap.
                        guard Box.key(max(box.minX, other.minX), max(box.minY, other.minY), size) == key else {
                            continue
                        }
                        guard spawn.body.type != .static || spawns[j].body.type != .static,
                            SpawnCensus.overlap(spawn, spawns[j])
                        else { continue }
                        add(spawn.count * spawns[j].count, spawn.entry, spawns[j].entry, stopAfter: stopAfter)
                        if overflowingEntry != nil { return }
                    }
                }
            }
        }
    }

    private mutating func add(_ count: Int, _ first: Int, _ second: Int, stopAfter: Int) {
        pairs += count
        if example == nil { example = (min(first, second), max(first, second)) }
        if pairs > stopAfter { overflowingEntry = max(first, second) }
    }

    /// A body Chipmunk never moves by itself: kinematic with no velocity (static bodies are not
    /// paired with one another at all).
    private static func staysInPlace(_ body: BodySpec) -> Bool {
        body.type == .kinematic && body.velocity == .zero && body.angularVelocity == 0
    }

    private static func overlap(_ a: Spawn, _ b: Spawn) -> Bool {
        ShapeOverlap.depth(
            ShapeOverlap.Side(shapes: a.body.shapes, pose: BodyPose(position: a.body.position, angle: a.body.angle)),
            ShapeOverlap.Side(shapes: b.body.shapes, pose: BodyPose(position: b.body.position, angle: b.body.angle))
        ) > 0
    }

    // MARK: - Broad phase

    private struct CellKey: Hashable {
        var x: Int64
        var y: Int64
    }

    /// An entry's bounding square: any rotation of its body fits in it.
    private struct Box {
        var minX: Double, minY: Double, maxX: Double, maxY: Double

        init(_ body: BodySpec) {
            let reach = body.reach
            minX = body.position.x - reach
            maxX = body.position.x + reach
            minY = body.position.y - reach
            maxY = body.position.y + reach
        }

        /// floor(log2) of the square's side (> 0: every body has a shape of positive size).
        var sizeClass: Int { Int(max(maxX - minX, maxY - minY, 1e-300).exponent) }
        var cellSize: Double { Box.cellSize(sizeClass) }

        /// Cells twice the size of the class's largest square: a square covers at most 2 × 2.
        static func cellSize(_ exponent: Int) -> Double { Double(sign: .plus, exponent: exponent + 1, significand: 1) }

        static func key(_ x: Double, _ y: Double, _ size: Double) -> CellKey {
            CellKey(x: Int64((x / size).rounded(.down)), y: Int64((y / size).rounded(.down)))
        }

        func keys(_ size: Double) -> [CellKey] {
            let low = Box.key(minX, minY, size), high = Box.key(maxX, maxY, size)
            var keys: [CellKey] = []
            for x in low.x...high.x {
                for y in low.y...high.y { keys.append(CellKey(x: x, y: y)) }
            }
            return keys
        }

        func overlaps(_ other: Box) -> Bool {
            minX < other.maxX && other.minX < maxX && minY < other.maxY && other.minY < maxY
        }
    }
}
