internal import CChipmunk

/// One body in a `World`, a crate or any other: owns its `cpBody` and its `cpShape`s.
///
/// How it is built is its definition's `build` (`BodyDefinition.Build`), each way in
/// exactly the order of Chipmunk calls it has always had, so traces keep their bits:
/// - a crate: `cpBodyNew(mass, cpMomentForBox(mass, w, h))`, its pose and velocities,
///   `cpBoxShapeNew(body, w, h, 0)`, friction, elasticity, its collision keys, `cpSpaceAddBody`, `cpSpaceAddShape`;
/// - any other body, the way pymunk builds one, so a scene made the same way there gives
///   the same bits: the body (`cpBodyNew(0, 0)` for a dynamic body, `cpBodyNewKinematic`,
///   `cpBodyNewStatic`), its pose and velocities, `cpSpaceAddBody`; then each shape in
///   listed order: created on the body, friction, elasticity, `cpShapeSetMass` or
///   `cpShapeSetDensity` (dynamic bodies), its collision keys (`ChipmunkShape.apply`), `cpSpaceAddShape`, which makes Chipmunk
///   accumulate the body's mass, moment and centre of gravity from its shapes.
///
/// A body keeps its space alive. The world removes it from the space when it removes the body
/// mid-run (`removeFromSpace()`); its `deinit` frees the shapes, then the body, after removing them
/// from the space if they are still in one. When the whole world goes away, the world frees the
/// space first (`Space.free()`) and the bodies are only freed: Chipmunk's `cpShapeFree` and
/// `cpBodyFree` never look at a space.
public final class Body {
    /// The body's id (unique within a world).
    public let id: String
    /// Dynamic, kinematic or static (a crate is dynamic); changed by `World.setBody` (`cpBodySetType`).
    public internal(set) var type: BodyType
    /// `crate` for a body built the crate way, else `body`: how messages name it
    /// (`BodyDefinition.kind`).
    public let kind: String

    let space: Space
    let body: UnsafeMutablePointer<cpBody>
    let shapes: [UnsafeMutablePointer<cpShape>]
    /// The body's number in its world, from 1 in creation order (never reused), kept as the
    /// `cpBody`'s user data so a collision handler can name the body (`CollisionRecorder`).
    let serial: Int
    /// What sets a kinematic body's pose before each step (`nil` for a body without a path).
    let driver: (any KinematicDriver)?
    /// True for a crate, whose centre of gravity is its origin: its state is read straight
    /// from the body struct (`p`), as it always was; other bodies' x, y is their origin
    /// (`cpBodyGetPosition`).
    let centreIsOrigin: Bool
    /// The body's place among the bodies a world ever held, increasing in trace order
    /// (`WorldChangeIndex`): a removal finds the body's index by binary search on it.
    var sequence = 0
    /// Whether the body and its shapes are in the space: from `init` until `removeFromSpace()`.
    private var inSpace = true

    /// Creates the body and its shapes and adds them to `space`.
    /// `definition` must be validated: Chipmunk aborts on a dynamic body whose mass or
    /// moment is not positive, on a negative radius, friction or elasticity.
    init(_ definition: BodyDefinition, space: Space, serial: Int) {
        precondition(!definition.shapes.isEmpty, "body definitions are validated before they reach the engine")
        id = definition.id
        self.serial = serial
        type = definition.type
        driver = definition.makeDriver?()
        self.space = space
        kind = definition.kind
        switch definition.build {
        case .crate(let mass, let size):
            precondition(mass > 0 && size.x > 0 && size.y > 0, "crates are validated before they reach the engine")
            centreIsOrigin = true
            let moment = cpMomentForBox(mass, size.x, size.y)
            guard let made = cpBodyNew(mass, moment) else { preconditionFailure("Chipmunk could not allocate a body") }
            body = made
            EngineCensus.bodyCreated()
            cpBodySetUserData(body, UnsafeMutableRawPointer(bitPattern: serial))
            Body.setPose(body, definition)
            let spec = definition.shapes[0]
            let shape = ChipmunkShape.make(.box(size: size, radius: 0), body: body)
            cpShapeSetFriction(shape, spec.friction)
            cpShapeSetElasticity(shape, spec.elasticity)
            ChipmunkShape.apply(spec.collision, to: shape)
            cpSpaceAddBody(space.pointer, body)
            cpSpaceAddShape(space.pointer, shape)
            shapes = [shape]
        case .fromShapes:
            centreIsOrigin = false
            let made: UnsafeMutablePointer<cpBody>?
            switch definition.type {
            case .dynamic:
                if let given = definition.givenMass {
                    precondition(given.mass > 0 && given.moment > 0, "given masses are validated")
                    made = cpBodyNew(given.mass, given.moment)
                    made.map { cpBodySetCenterOfGravity($0, cpv(given.centreOfGravity.x, given.centreOfGravity.y)) }
                } else {
                    made = cpBodyNew(0, 0)
                }
            case .kinematic: made = cpBodyNewKinematic()
            case .static: made = cpBodyNewStatic()
            }
            guard let made else { preconditionFailure("Chipmunk could not allocate a body") }
            body = made
            EngineCensus.bodyCreated()
            cpBodySetUserData(body, UnsafeMutableRawPointer(bitPattern: serial))
            Body.setPose(body, definition)
            if definition.givenMass != nil {
                // cpBodySetPosition places the centre of gravity with the angle the body has at
                // that moment (0): set once more after the angle, so `position` is the origin.
                cpBodySetPosition(body, cpv(definition.position.x, definition.position.y))
            }
            cpSpaceAddBody(space.pointer, body)
            var shapes: [UnsafeMutablePointer<cpShape>] = []
            shapes.reserveCapacity(definition.shapes.count)
            for spec in definition.shapes {
                let shape = ChipmunkShape.make(spec.geometry, body: body)
                cpShapeSetFriction(shape, spec.friction)
                cpShapeSetElasticity(shape, spec.elasticity)
                if definition.type == .dynamic {
                    switch spec.mass {
                    case .mass(let m)?: cpShapeSetMass(shape, m)
                    case .density(let d)?: cpShapeSetDensity(shape, d)
                    case nil: break
                    }
                }
                ChipmunkShape.apply(spec.collision, to: shape)
                cpSpaceAddShape(space.pointer, shape)
                shapes.append(shape)
            }
            self.shapes = shapes
        }
    }

    /// `cpBodySetPosition`, `cpBodySetAngle`, `cpBodySetVelocity`, `cpBodySetAngularVelocity`, in that order.
    private static func setPose(_ body: UnsafeMutablePointer<cpBody>, _ definition: BodyDefinition) {
        cpBodySetPosition(body, cpv(definition.position.x, definition.position.y))
        cpBodySetAngle(body, definition.angle)
        cpBodySetVelocity(body, cpv(definition.velocity.x, definition.velocity.y))
        cpBodySetAngularVelocity(body, definition.angularVelocity)
    }

    /// Removes the shapes, in listed order, then the body from the space (`cpSpaceRemoveShape`,
    /// `cpSpaceRemoveBody`); Chipmunk calls `separate` for every contact a shape had. Once; the
    /// body's joints must be gone first.
    func removeFromSpace() {
        guard inSpace else { return }
        inSpace = false
        for shape in shapes { cpSpaceRemoveShape(space.pointer, shape) }
        cpSpaceRemoveBody(space.pointer, body)
    }

    deinit {
        // Chipmunk: "Must remove these BEFORE freeing the body or you will access dangling pointers."
        // Unless the space is gone already: then nothing points at them any more.
        if !space.isFreed { removeFromSpace() }
        for shape in shapes {
            cpShapeFree(shape)
            EngineCensus.shapeFreed()
        }
        cpBodyFree(body)
        EngineCensus.bodyFreed()
    }

    /// The body's mass (`cpBodyGetMass`): a crate's given mass, a body's as Chipmunk
    /// accumulated it from its shapes; infinity for kinematic and static bodies.
    public var mass: Double { cpBodyGetMass(body) }

    /// The body's moment of inertia (`cpBodyGetMoment`); infinity for kinematic and static bodies.
    public var moment: Double { cpBodyGetMoment(body) }

    /// The centre of gravity in body coordinates (`cpBodyGetCenterOfGravity`).
    public var centreOfGravity: Vec2 {
        let c = cpBodyGetCenterOfGravity(body)
        return Vec2(c.x, c.y)
    }

    /// The body's current pose and velocities: `position` is its origin
    /// (`cpBodyGetPosition`; a crate's is read inline, its centre being its origin),
    /// `velocity` its centre of gravity's (`cpBodyGetVelocity`).
    public var state: BodyState {
        var f = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        withUnsafeMutableBytes(of: &f) { raw in
            writeState(to: raw.baseAddress!.assumingMemoryBound(to: Double.self))
        }
        return BodyState(position: Vec2(f.0, f.1), angle: f.2, velocity: Vec2(f.3, f.4), angularVelocity: f.5)
    }

    /// Writes the state, laid out as `BodyStateLayout` says, to `out[0..<BodyStateLayout.count]`.
    func writeState(to out: UnsafeMutablePointer<Double>) {
        if centreIsOrigin {
            tiltbox_body_state(body, out)
        } else {
            tiltbox_body_origin_state(body, out)
        }
    }

    /// Sets a kinematic body with a path to its pose and velocities before physics step `n`
    /// (`KinematicDriver.drive`); does nothing for other bodies. The corresponding Chipmunk
    /// calls are `cpBodySetPosition`, `cpBodySetAngle`, `cpBodySetVelocity` and `cpBodySetAngularVelocity`.
    func drive(step n: Int, dt: Double) {
        guard let driver else { return }
        let drive = driver.drive(step: n, dt: dt)
        cpBodySetPosition(body, cpv(drive.position.x, drive.position.y))
        cpBodySetAngle(body, drive.angle)
        cpBodySetVelocity(body, cpv(drive.velocity.x, drive.velocity.y))
        cpBodySetAngularVelocity(body, drive.angularVelocity)
    }

    /// Whether the body sleeps now (`cpBodyIsSleeping`).
    public var isSleeping: Bool { cpBodyIsSleeping(body) != 0 }

    /// Wakes the body (`cpBodyActivate`).
    func activate() { cpBodyActivate(body) }

    /// Makes a body that a diverged run left non-finite sane again, before it is freed
    /// (`tiltbox_body_make_sane`).
    func makeSane() { tiltbox_body_make_sane(body) }
}
