internal import CChipmunk

/// One end of a touching pair of shapes: the body the shape belongs to and its collision type.
public struct ContactEnd: Sendable, Equatable {
    /// The body's index in trace order (`World.bodies`), or `nil` for a shape on the world's
    /// static body (a box wall or a listed segment).
    public var bodyIndex: Int?
    /// The shape's collision type number (`cpShapeGetCollisionType`; 0 when it has none).
    public var collisionType: UInt
}

/// Two shapes found touching after a step. `key` tells one pair of shapes from another for
/// the run's lifetime, and orders the pairs (`ShapePairKey`).
public struct ShapeContact: Sendable, Equatable {
    /// The pair's identity: the two shapes' numbers in the order they joined the world.
    public var key: ShapePairKey
    /// The first shape's end (Chipmunk's arbiter `a`).
    public var a: ContactEnd
    /// The second shape's end (Chipmunk's arbiter `b`).
    public var b: ContactEnd
}

/// Reads which shapes touch after each step, from Chipmunk's arbiter cache, without
/// registering a collision handler or changing anything the physics uses (so a run with a
/// probe steps bit for bit like one without).
///
/// A pair touches when Chipmunk's collision detection found contact points for it in the
/// last `cpSpaceStep` (its arbiter carries the space's current time stamp); sensors count.
/// Bodies asleep (only with `world.sleepTimeThreshold`) keep their arbiters out of the cache
/// and their pairs are not seen until they wake.
public final class ContactProbe {
    private let world: World
    private var buffer: [UnsafePointer<cpShape>?] = Array(repeating: nil, count: 256)
    private var indexOfBody: [UnsafeMutablePointer<cpBody>: Int] = [:]
    /// The `World.bodyListVersion` `indexOfBody` was built for.
    private var indexedBodies = -1

    /// A probe of `world`'s space.
    public init(world: World) {
        self.world = world
    }

    /// The pairs touching after the last step, ordered by their keys (`ShapePairKey`): the
    /// arbiter cache Chipmunk reads them from is a hash set keyed by the shapes' addresses, whose
    /// order changes with the heap's layout from run to run.
    public func touching() -> [ShapeContact] {
        if indexedBodies != world.bodyListVersion {
            indexOfBody = [:]
            for (index, body) in world.bodies.enumerated() { indexOfBody[body.body] = index }
            indexedBodies = world.bodyListVersion
        }
        let space = world.space.pointer
        var count = 0
        while true {
            let capacity = buffer.count / 2
            count = buffer.withUnsafeMutableBufferPointer { out in
                Int(tiltbox_space_touching_shapes(space, out.baseAddress, capacity))
            }
            if count <= capacity { break }
            buffer = Array(repeating: nil, count: 2 * count + 64)
        }
        var contacts: [ShapeContact] = []
        contacts.reserveCapacity(count)
        for i in 0..<count {
            guard let a = buffer[2 * i], let b = buffer[2 * i + 1] else { continue }
            contacts.append(ShapeContact(key: ShapePairKey(a, b), a: end(of: a), b: end(of: b)))
        }
        contacts.sort { $0.key < $1.key }
        return contacts
    }

    private func end(of shape: UnsafePointer<cpShape>) -> ContactEnd {
        let body = cpShapeGetBody(shape)
        return ContactEnd(
            bodyIndex: body.flatMap { indexOfBody[$0] }, collisionType: UInt(cpShapeGetCollisionType(shape)))
    }
}
