internal import CChipmunk

/// How deep two bodies' shapes overlap at given poses, measured by Chipmunk's own narrow
/// phase, before any space exists: the loader uses it to refuse an emitter that spawns a
/// body into the one it spawned just before (docs/formats.md §8).
///
/// Each side's shapes are made on a temporary static body placed at its pose, their world
/// positions cached with `cpShapeUpdate` from that body's transform, and every pair that
/// Chipmunk would push apart (`ShapeCollision.collide`: no sensor, filters that accept each
/// other) is run through `cpShapesCollide`, the collision function `cpSpaceStep` uses
/// (`tiltbox_shapes_overlap_depth` in the shim reads its contact points, passes the shapes in
/// the type order Chipmunk 7.0.3 needs for the right sign, and measures two shapes that
/// coincide exactly, which Chipmunk gives contacts without a normal, by their bounding boxes'
/// overlap). No `cpSpace` is involved; everything made is freed before returning.
public enum ShapeOverlap {
    /// One side of the test: a body's shapes (in its coordinates) and where the body is.
    public struct Side: Sendable {
        /// The shapes, validated as for a body (`ChipmunkShape.make`).
        public var shapes: [ShapeSpec]
        /// The body's origin and angle.
        public var pose: BodyPose

        /// A body of `shapes` at `pose`.
        public init(shapes: [ShapeSpec], pose: BodyPose) {
            self.shapes = shapes
            self.pose = pose
        }
    }

    /// The deepest penetration, in world units, of any shape of `a` into any shape of `b`
    /// among the pairs Chipmunk would push apart; 0 when none of those pairs has a contact
    /// deeper than a rounding slack (1e-9 of the larger body's reach), so shapes that only
    /// touch do not overlap. The corresponding Chipmunk calls are `cpShapeUpdate` and
    /// `cpShapesCollide` (a contact's `distance` is negative when the shapes overlap).
    public static func depth(_ a: Side, _ b: Side) -> Double {
        let pairs = a.shapes.indices.flatMap { i in
            b.shapes.indices.compactMap { j in
                ShapeCollision.collide(a.shapes[i].collision, b.shapes[j].collision) ? (i, j) : nil
            }
        }
        guard !pairs.isEmpty else { return 0 }
        let reachA = ShapeSpec.reach(of: a.shapes, around: .zero)
        let reachB = ShapeSpec.reach(of: b.shapes, around: .zero)
        let offset = b.pose.position - a.pose.position
        // Farther apart than the two reaches: nothing to ask Chipmunk.
        guard (offset.x * offset.x + offset.y * offset.y).squareRoot() < reachA + reachB else { return 0 }
        let slack = 1e-9 * max(reachA, reachB)

        let placedA = Placed(a), placedB = Placed(b)
        var deepest = 0.0
        // `cpShapesCollide` prints warnings ("High EPA iterations") as a step does: kept off standard
        // error the same way, and dropped (the depth is all the loader asks for).
        var dropped = EngineDiagnostics()
        ChipmunkMessageCapture.capture(step: 0, into: &dropped) {
            for (i, j) in pairs {
                deepest = max(deepest, tiltbox_shapes_overlap_depth(placedA.shapes[i], placedB.shapes[j]))
            }
        }
        return deepest > slack ? deepest : 0
    }

    /// A side's shapes made on a static body at its pose and updated to it; freed on deinit.
    private final class Placed {
        let body: UnsafeMutablePointer<cpBody>
        let shapes: [UnsafeMutablePointer<cpShape>]

        init(_ side: Side) {
            guard let body = cpBodyNewStatic() else { preconditionFailure("Chipmunk could not allocate a body") }
            EngineCensus.bodyCreated()
            cpBodySetPosition(body, cpv(side.pose.position.x, side.pose.position.y))
            cpBodySetAngle(body, side.pose.angle)
            self.body = body
            let transform = body.pointee.transform
            shapes = side.shapes.map { spec in
                let shape = ChipmunkShape.make(spec.geometry, body: body)
                _ = cpShapeUpdate(shape, transform)
                return shape
            }
        }

        deinit {
            for shape in shapes {
                cpShapeFree(shape)
                EngineCensus.shapeFreed()
            }
            cpBodyFree(body)
            EngineCensus.bodyFreed()
        }
    }
}
