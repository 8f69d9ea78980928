import Synchronization

/// Counts of the Chipmunk objects Tiltbox has created and not yet freed.
///
/// Every `cp*New` in the engine layer increments a count and every `cp*Free`
/// decrements it, so tests can prove that dropping a `World` frees everything.
@_spi(Tools) public enum EngineCensus {
    private static let spaces = Atomic<Int>(0)
    private static let bodies = Atomic<Int>(0)
    private static let shapes = Atomic<Int>(0)
    private static let constraints = Atomic<Int>(0)

    /// Live `cpSpace` objects.
    public static var liveSpaces: Int { spaces.load(ordering: .relaxed) }
    /// Live `cpBody` objects (the space's embedded static body is not counted: it is never allocated on its own).
    public static var liveBodies: Int { bodies.load(ordering: .relaxed) }
    /// Live `cpShape` objects (bodies' shapes and static segments).
    public static var liveShapes: Int { shapes.load(ordering: .relaxed) }
    /// Live `cpConstraint` objects (joints).
    public static var liveConstraints: Int { constraints.load(ordering: .relaxed) }

    static func spaceCreated() { spaces.add(1, ordering: .relaxed) }
    static func spaceFreed() { spaces.subtract(1, ordering: .relaxed) }
    static func bodyCreated() { bodies.add(1, ordering: .relaxed) }
    static func bodyFreed() { bodies.subtract(1, ordering: .relaxed) }
    static func shapeCreated() { shapes.add(1, ordering: .relaxed) }
    static func shapeFreed() { shapes.subtract(1, ordering: .relaxed) }
    static func constraintCreated() { constraints.add(1, ordering: .relaxed) }
    static func constraintFreed() { constraints.subtract(1, ordering: .relaxed) }
}
