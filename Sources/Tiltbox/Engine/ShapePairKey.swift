internal import CChipmunk

/// The identity of an unordered pair of shapes within one world, and a stable order of pairs.
///
/// A shape's number is its Chipmunk `hashid`: `cpSpaceAddShape` gives each shape the space's next
/// value of a counter (`shape->hashid = space->shapeIDCounter++`), so the shapes are numbered in the
/// order they joined the world (its walls and segments, then each body's shapes in trace order,
/// then spawned bodies' shapes as they appear), the same on every run, never reused. A shape's
/// address would be neither: it changes with the heap's layout, and a freed shape's address can
/// be given to a shape spawned later. Pairs order by their lower number, then their higher one.
public struct ShapePairKey: Hashable, Comparable, Sendable {
    /// The lower of the two shapes' numbers.
    public let low: UInt
    /// The higher of the two shapes' numbers.
    public let high: UInt

    init(_ x: UInt, _ y: UInt) {
        low = min(x, y)
        high = max(x, y)
    }

    /// The key of two shapes in the same space (both added, neither removed yet: Chipmunk
    /// sets a removed shape's `hashid` back to 0).
    init(_ a: UnsafePointer<cpShape>, _ b: UnsafePointer<cpShape>) {
        self.init(UInt(a.pointee.hashid), UInt(b.pointee.hashid))
    }

    /// Lower numbers first, then higher ones.
    public static func < (x: ShapePairKey, y: ShapePairKey) -> Bool {
        (x.low, x.high) < (y.low, y.high)
    }
}
