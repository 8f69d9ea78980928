internal import CChipmunk

/// One static segment shape hung off the space's embedded static body.
///
/// The static body belongs to the space and is never freed on its own; the wall owns
/// only its `cpSegmentShape`, which it frees in `deinit` (removing it first unless the world
/// freed the space already, `Space.free()`).
final class Wall {
    let space: Space
    let shape: UnsafeMutablePointer<cpShape>

    init(spec: SegmentSpec, space: Space) {
        self.space = space
        let staticBody = cpSpaceGetStaticBody(space.pointer)
        shape = cpSegmentShapeNew(staticBody, cpv(spec.from.x, spec.from.y), cpv(spec.to.x, spec.to.y), spec.radius)!
        EngineCensus.shapeCreated()
        cpShapeSetFriction(shape, spec.friction)
        cpShapeSetElasticity(shape, spec.elasticity)
        ChipmunkShape.apply(spec.collision, to: shape)
        cpSpaceAddShape(space.pointer, shape)
    }

    deinit {
        if !space.isFreed { cpSpaceRemoveShape(space.pointer, shape) }
        cpShapeFree(shape)
        EngineCensus.shapeFreed()
    }
}
