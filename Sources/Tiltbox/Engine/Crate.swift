internal import CChipmunk

/// One box-shaped dynamic body in a `World`: owns its `cpBody` and `cpPolyShape`.
///
/// A crate keeps its space alive; its `deinit` removes the shape and the body from the
/// space and frees both, so no Chipmunk object outlives its owner.
public final class Crate {
    /// The crate's id from the scenario (unique within a world).
    public let id: String
    /// Width and height in world units.
    public let size: Vec2

    let space: Space
    let body: UnsafeMutablePointer<cpBody>
    let shape: UnsafeMutablePointer<cpShape>

    /// Creates the body and shape and adds both to `space`.
    /// `spec` must be validated: Chipmunk aborts on a non-positive mass or moment.
    init(spec: CrateSpec, space: Space) {
        precondition(spec.mass > 0 && spec.size.x > 0 && spec.size.y > 0, "crate specs are validated before they reach the engine")
        self.id = spec.id
        self.size = spec.size
        self.space = space
        let moment = cpMomentForBox(spec.mass, spec.size.x, spec.size.y)
        body = cpBodyNew(spec.mass, moment)!
        EngineCensus.bodyCreated()
        cpBodySetPosition(body, cpv(spec.position.x, spec.position.y))
        cpBodySetAngle(body, spec.angle)
        cpBodySetVelocity(body, cpv(spec.velocity.x, spec.velocity.y))
        cpBodySetAngularVelocity(body, spec.angularVelocity)
        shape = cpBoxShapeNew(body, spec.size.x, spec.size.y, 0)!
        EngineCensus.shapeCreated()
        cpShapeSetFriction(shape, spec.friction)
        cpShapeSetElasticity(shape, spec.elasticity)
        cpSpaceAddBody(space.pointer, body)
        cpSpaceAddShape(space.pointer, shape)
    }

    deinit {
        // Chipmunk: "Must remove these BEFORE freeing the body or you will access dangling pointers."
        cpSpaceRemoveShape(space.pointer, shape)
        cpSpaceRemoveBody(space.pointer, body)
        cpShapeFree(shape)
        EngineCensus.shapeFreed()
        cpBodyFree(body)
        EngineCensus.bodyFreed()
    }

    /// The crate's current pose and velocities.
    /// Reads the body struct inline (`cpBodyGetPosition`, `cpBodyGetAngle`, ... in one pass).
    public var state: BodyState {
        var f = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        withUnsafeMutableBytes(of: &f) { raw in
            tiltbox_body_state(body, raw.baseAddress!.assumingMemoryBound(to: Double.self))
        }
        return BodyState(position: Vec2(f.0, f.1), angle: f.2, velocity: Vec2(f.3, f.4), angularVelocity: f.5)
    }

    /// Writes the state, laid out as `BodyStateLayout` says, to `out[0..<BodyStateLayout.count]`.
    func writeState(to out: UnsafeMutablePointer<Double>) {
        tiltbox_body_state(body, out)
    }
}
