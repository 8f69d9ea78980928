internal import CChipmunk

/// One body of the scenario's `bodies` list in a `World`: owns its `cpBody` and its
/// `cpShape`s.
///
/// Built the way pymunk builds a body, so a scene made the same way there gives the same
/// bits: the body (`cpBodyNew(0, 0)` for a dynamic body, `cpBodyNewKinematic`,
/// `cpBodyNewStatic`), its pose and velocities, `cpSpaceAddBody`; then each shape in
/// listed order: created on the body, friction, elasticity, `cpShapeSetMass` or
/// `cpShapeSetDensity` (dynamic bodies), `cpSpaceAddShape`, which makes Chipmunk
/// accumulate the body's mass, moment and centre of gravity from its shapes.
///
/// A body keeps its space alive; its `deinit` removes the shapes and the body from the
/// space, then frees the shapes before the body.
public final class Body {
    /// The body's id from the scenario (unique across crates and bodies).
    public let id: String
    /// Dynamic, kinematic or static.
    public let type: BodyType

    let space: Space
    let body: UnsafeMutablePointer<cpBody>
    let shapes: [UnsafeMutablePointer<cpShape>]
    /// A kinematic body's path, ready to evaluate (`nil` for a body without one).
    let track: KinematicPathTrack?

    /// Creates the body and its shapes and adds them to `space`.
    /// `spec` must be validated (`ScenarioLoader`): Chipmunk aborts on a dynamic body
    /// whose mass or moment is not positive, on a negative radius, friction or elasticity.
    init(spec: BodySpec, space: Space) {
        precondition(!spec.shapes.isEmpty, "body specs are validated before they reach the engine")
        id = spec.id
        type = spec.type
        self.space = space
        track = spec.path.map { KinematicPathTrack($0, bodyAngle: spec.angle) }
        let made: UnsafeMutablePointer<cpBody>?
        switch spec.type {
        case .dynamic: made = cpBodyNew(0, 0)
        case .kinematic: made = cpBodyNewKinematic()
        case .static: made = cpBodyNewStatic()
        }
        guard let made else { preconditionFailure("Chipmunk could not allocate a body") }
        body = made
        EngineCensus.bodyCreated()
        cpBodySetPosition(body, cpv(spec.position.x, spec.position.y))
        cpBodySetAngle(body, spec.angle)
        cpBodySetVelocity(body, cpv(spec.velocity.x, spec.velocity.y))
        cpBodySetAngularVelocity(body, spec.angularVelocity)
        cpSpaceAddBody(space.pointer, body)
        var shapes: [UnsafeMutablePointer<cpShape>] = []
        shapes.reserveCapacity(spec.shapes.count)
        for shapeSpec in spec.shapes {
            let shape = ChipmunkShape.make(shapeSpec.geometry, body: body)
            cpShapeSetFriction(shape, shapeSpec.friction)
            cpShapeSetElasticity(shape, shapeSpec.elasticity)
            if spec.type == .dynamic {
                switch shapeSpec.mass {
                case .mass(let m)?: cpShapeSetMass(shape, m)
                case .density(let d)?: cpShapeSetDensity(shape, d)
                case nil: break
                }
            }
            cpSpaceAddShape(space.pointer, shape)
            shapes.append(shape)
        }
        self.shapes = shapes
    }

    deinit {
        // Chipmunk: "Must remove these BEFORE freeing the body or you will access dangling pointers."
        for shape in shapes { cpSpaceRemoveShape(space.pointer, shape) }
        cpSpaceRemoveBody(space.pointer, body)
        for shape in shapes {
            cpShapeFree(shape)
            EngineCensus.shapeFreed()
        }
        cpBodyFree(body)
        EngineCensus.bodyFreed()
    }

    /// The body's mass as Chipmunk accumulated it from its shapes (`cpBodyGetMass`);
    /// infinity for kinematic and static bodies.
    public var mass: Double { cpBodyGetMass(body) }

    /// The body's moment of inertia (`cpBodyGetMoment`); infinity for kinematic and static bodies.
    public var moment: Double { cpBodyGetMoment(body) }

    /// The centre of gravity in body coordinates (`cpBodyGetCenterOfGravity`).
    public var centreOfGravity: Vec2 {
        let c = cpBodyGetCenterOfGravity(body)
        return Vec2(c.x, c.y)
    }

    /// The body's current pose and velocities: `position` is its origin
    /// (`cpBodyGetPosition`), `velocity` its centre of gravity's (`cpBodyGetVelocity`).
    public var state: BodyState {
        var f = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        withUnsafeMutableBytes(of: &f) { raw in
            tiltbox_body_origin_state(body, raw.baseAddress!.assumingMemoryBound(to: Double.self))
        }
        return BodyState(position: Vec2(f.0, f.1), angle: f.2, velocity: Vec2(f.3, f.4), angularVelocity: f.5)
    }

    /// Writes the state, laid out as `BodyStateLayout` says, to `out[0..<BodyStateLayout.count]`.
    func writeState(to out: UnsafeMutablePointer<Double>) {
        tiltbox_body_origin_state(body, out)
    }

    /// Sets a kinematic body with a path to its pose and velocities before physics step `n`
    /// (`KinematicPathTrack.drive`); does nothing for other bodies. The corresponding Chipmunk
    /// calls are `cpBodySetPosition`, `cpBodySetAngle`, `cpBodySetVelocity` and `cpBodySetAngularVelocity`.
    func drive(step n: Int, dt: Double) {
        guard let track else { return }
        let drive = track.drive(step: n, dt: dt)
        cpBodySetPosition(body, cpv(drive.position.x, drive.position.y))
        cpBodySetAngle(body, drive.angle)
        cpBodySetVelocity(body, cpv(drive.velocity.x, drive.velocity.y))
        cpBodySetAngularVelocity(body, drive.angularVelocity)
    }

    /// Whether the body sleeps now (`cpBodyIsSleeping`).
    var isSleeping: Bool { cpBodyIsSleeping(body) != 0 }

    /// Wakes the body (`cpBodyActivate`).
    func activate() { cpBodyActivate(body) }
}
