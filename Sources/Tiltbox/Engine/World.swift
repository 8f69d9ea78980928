internal import CChipmunk

/// A running physics world: one Chipmunk space with its static segments, bodies and joints.
///
/// `World` is the only owner of Chipmunk objects in Tiltbox. Dropping it frees every
/// shape and body, then the space. Build it from a validated `WorldDefinition` (a
/// scenario's is `Scenario.worldDefinition`; `World(scenario:)` builds it); it never
/// sees unchecked user data, because Debian's debug build of Chipmunk aborts the
/// process on a failed assertion.
public final class World {
    /// Every body in trace order: a scenario's crates, then its other bodies.
    @exclusivity(unchecked) public internal(set) var bodies: [Body] {
        // Spawns and removals change the bodies: the per-step read rebuilds its list before it
        // next reads (once, however many bodies a step spawns or removes: rebuilding at each
        // change cost the square of their number).
        didSet { stateReadersAreStale = true }
    }
    /// Whether `stateBodies` and `stateOrigins` no longer list `bodies` (a body was added or
    /// removed since they were made); the next read rebuilds them.
    @exclusivity(unchecked) private var stateReadersAreStale = false

    let space: Space
    private let walls: [Wall]
    /// Each joint holds the owners of its bodies, so its constraint is removed and freed
    /// before any body it joins, whatever order these properties are released in.
    /// Set once, at the end of `init` (after the kinematic bodies take their step-0 poses).
    var joints: [Joint] = []
    @exclusivity(unchecked) private var currentGravity: Vec2
    /// The kinematic bodies that follow a path.
    @exclusivity(unchecked) var driven: [Body]
    /// Steps taken, for attributing Chipmunk's messages.
    /// (`@exclusivity(unchecked)`: touched by the stepping thread alone, once a step, where
    /// the run-time exclusivity check would cost more than the rest of the wrapper's step.)
    @exclusivity(unchecked) private var stepsTaken = 0
    /// What Chipmunk printed during the steps so far.
    @exclusivity(unchecked) private var diagnostics = EngineDiagnostics()
    /// With a spatial hash, the largest `|x|` or `|y|` any point of a shape may reach
    /// (`hashIndexLimit(cellSize:)`); `nil` with the bounding-box tree.
    private let hashReach: Double?
    /// Each body's `cpBody` in trace order, and whether its x, y is its origin (1) or its
    /// centre (0, a crate), for `tiltbox_read_states`: the per-step read goes through
    /// these instead of the `Body` objects (one C call for the world, no reference counting).
    /// Storage the world owns (rebuilt when the bodies change, freed in `deinit`) rather than
    /// arrays: reading an array property in a step retains and releases its buffer.
    @exclusivity(unchecked) private var stateBodies = UnsafeMutableBufferPointer<UnsafeMutablePointer<cpBody>?>(
        start: nil, count: 0)
    @exclusivity(unchecked) private var stateOrigins = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    /// For each body in trace order, the distance from its origin to its farthest shape point.
    var reaches: [Double]
    private let dt: Double
    /// Every body's id by its serial number (`Body.serial` − 1), removed ones included.
    var idsBySerial: [String] = []
    /// The collision rules' handlers and the queue of their calls; `nil` without rules.
    var collisions: CollisionRecorder?
    /// Bodies and joints by id, built at the first change between steps (`World+Changes`);
    /// `nil` for a world that never changes, so building one costs nothing more.
    var changeIndex: WorldChangeIndex?

    /// The largest magnitude any state value may reach before the world counts as
    /// diverged. Beyond it the next step could overflow to infinity inside Chipmunk,
    /// whose debug build aborts the process on a non-finite body
    /// (`cpBodySanityCheck`); stopping here turns that abort into a reported error.
    public static let divergenceLimit = 1e100

    /// The largest `|x|` or `|y|`, in world units, that any point of a shape may reach in a
    /// spatial hash of cells `cellSize` wide: 2³⁰ cells. Chipmunk's hash turns a bounding box
    /// into cell indices with a C `int` (`floor_int(bb.l / dim)` in cpSpaceHash.c); past 2³¹
    /// the conversion overflows and the loop over the box's cells never ends. Half that range
    /// leaves a margin of 2³⁰ cells for the motion of the next step beyond what the run-time
    /// guard accounts for (`|v|·dt`).
    public static func hashIndexLimit(cellSize: Double) -> Double { 1_073_741_824 * cellSize }

    /// Builds the space, its walls, its bodies (in trace order) and its joints from a
    /// validated definition.
    public init(definition: WorldDefinition) {
        let space = Space()
        self.space = space
        let settings = definition.settings
        space.apply(settings)
        currentGravity = settings.gravity
        cpSpaceSetGravity(space.pointer, cpv(settings.gravity.x, settings.gravity.y))
        walls = definition.segments.map { Wall(spec: $0, space: space) }
        bodies = definition.bodies.enumerated().map { Body($1, space: space, serial: $0 + 1) }
        idsBySerial = definition.bodies.map(\.id)
        driven = bodies.filter { $0.driver != nil }
        dt = definition.dt
        reaches = definition.bodies.map(\.reach)
        if case .hash(let cellSize, _) = settings.spatialIndex {
            hashReach = World.hashIndexLimit(cellSize: cellSize)
        } else {
            hashReach = nil
        }
        rebuildStateReaders()
        driveKinematicBodies(step: 0, dt: definition.dt)
        // Joints last, in listed order, once every body has its initial pose.
        if !definition.joints.isEmpty {
            let ends = JointEnds(space: space, bodies: bodies)
            joints = definition.joints.map { Joint(spec: $0, a: ends[$0.a], b: ends[$0.b], space: space) }
        }
        // Collision rules' handlers, in file order, before the first step.
        if !definition.collisionWatches.isEmpty {
            collisions = CollisionRecorder(watches: definition.collisionWatches, space: space)
        }
    }

    /// The joints as the trace header describes them, in creation order, read back from
    /// Chipmunk (`cpPivotJointGetAnchorA`, ...).
    public var jointOutlines: [JointOutline] { joints.map(\.outline) }

    /// Each joint's effective settings, in creation order, read back from Chipmunk.
    public var jointSettings: [JointSettings] { joints.map(\.settings) }

    /// The space's effective settings, read back from Chipmunk.
    public var spaceSettings: SpaceSettings { space.settings }

    /// The gravity currently applied, in units/s².
    public var gravity: Vec2 { currentGravity }

    /// Sets gravity for the following steps, and wakes every sleeping body.
    ///
    /// A no-op when the value is unchanged (bit for bit), because a gravity change wakes
    /// every sleeping body. Chipmunk 7.0.3's `cpSpaceSetGravity` means to wake them all,
    /// but it walks the array of sleeping components while `cpBodyActivate` removes
    /// entries from that same array, so only about every other component wakes and the
    /// rest hang in the air under the new gravity. So after the call, every dynamic body
    /// still asleep is activated (`cpBodyActivate`), in trace order.
    /// The corresponding Chipmunk call is `cpSpaceSetGravity`.
    public func setGravity(_ g: Vec2) {
        precondition(g.isFinite, "gravity is validated before it reaches the engine")
        if g.bitwiseEquals(currentGravity) { return }
        currentGravity = g
        cpSpaceSetGravity(space.pointer, cpv(g.x, g.y))
        for body in bodies where body.type == .dynamic && body.isSleeping {
            body.activate()
        }
    }

    /// How many dynamic bodies are asleep now (`cpBodyIsSleeping`); always 0 unless the
    /// scenario sets `world.sleepTimeThreshold`.
    public var sleepingBodyCount: Int {
        bodies.reduce(0) { $0 + ($1.type == .dynamic && $1.isSleeping ? 1 : 0) }
    }

    /// Sets every kinematic body that has a `path` to the path's pose at t = n·dt, with the
    /// velocities that carry it to the pose at (n + 1)·dt (docs/formats.md §5), for the
    /// physics step from state `n`. `init` does it for step 0; whoever steps the world does
    /// it when state `n` is reached (`RunSession` does, before reading the states, so record
    /// n holds the path's pose at n·dt).
    public func driveKinematicBodies(step n: Int, dt: Double) {
        for body in driven { body.drive(step: n, dt: dt) }
    }

    /// Advances the world by one fixed step of `dt` seconds. What Chipmunk prints meanwhile
    /// is kept off standard error and counted in `engineDiagnostics`.
    /// The corresponding Chipmunk call is `cpSpaceStep`.
    public func step(dt: Double) {
        stepsTaken += 1
        // The closure takes the space's pointer, not the `Space` (which the world keeps alive):
        // capturing the object would retain and release it every step.
        let pointer = space.pointer
        ChipmunkMessageCapture.capture(step: stepsTaken, into: &diagnostics) {
            cpSpaceStep(pointer, dt)
        }
        // The step's `separate` calls came in the order of Chipmunk's address-keyed arbiter cache.
        collisions?.settle()
    }

    /// The diagnostics Chipmunk printed during the steps so far (kept off standard error).
    public var engineDiagnostics: EngineDiagnostics { diagnostics }

    /// Frees the world in time linear in what it holds: the space first, with every body, shape
    /// and constraint still in it (`cpSpaceFree`), then each of those, freed without being
    /// removed (`cpShapeFree`, `cpBodyFree` and `cpConstraintFree` never look at a space) as the
    /// properties holding them are released. Removing them one by one would cost the whole
    /// arbiter cache per shape: `cpSpaceRemoveShape` runs `cpSpaceFilterArbiters`, a walk of every
    /// bin of that hash set, which never shrinks from its high-water mark (a world of 25 600
    /// touching crates took 36 to 80 s to free that way).
    deinit {
        // Nothing Chipmunk calls from here on records anything.
        collisions?.detach()
        // A run that diverged leaves a body with non-finite values: make every body sane before
        // Chipmunk handles it below (the world is going away; its state no longer matters).
        for body in bodies where body.type != .static { body.makeSane() }
        // A sleeping body's contacts live in memory of their own until it wakes
        // (`cpSpaceActivateBody` moves them back into the space's buffers and frees it).
        // `cpSpaceFree` means to wake every body first, but like `cpSpaceSetGravity` it walks the
        // array of sleeping components while waking removes entries from it, so it misses some
        // and their contacts would leak: wake them here, in trace order.
        for body in bodies where body.type == .dynamic && body.isSleeping { body.activate() }
        space.free()
        stateBodies.deallocate()
        stateOrigins.deallocate()
    }

    /// Bytes of Chipmunk's contact and arbiter pools in this world's space: blocks it
    /// allocates as contacts peak and keeps until the space is freed (not a leak, a
    /// high-water mark). The soak test reports it beside the process's memory.
    public var enginePoolBytes: Int { Int(tiltbox_space_pool_bytes(space.pointer)) }

    /// Every body's state in trace order.
    public var states: [BodyState] { bodies.map(\.state) }

    /// How many bodies have a state in a record.
    public var bodyCount: Int { bodies.count }

    /// Counts the changes to `bodies` (a body added or removed): a reader that caches
    /// something per body (an index by body, a selection) rebuilds it when this changes,
    /// even when a removal and a spawn leave the count the same.
    public internal(set) var bodyListVersion = 0

    /// The id of body `index` in trace order.
    public func bodyID(at index: Int) -> String { bodies[index].id }

    /// Writes every body's state, laid out as `BodyStateLayout` says, in trace order, into `buffer` (which must hold `BodyStateLayout.count × bodyCount`
    /// doubles). The step loop uses this to read all states without allocating.
    /// A crate's x, y is its centre, which is its origin; another body's is its origin
    /// (`cpBodyGetPosition`), wherever its centre of gravity lies.
    public func readStates(into buffer: UnsafeMutableBufferPointer<Double>) {
        _ = readStatesInRange(into: buffer)
    }

    /// `readStates(into:)`, then the divergence `firstDivergence(in:)` finds in what was read:
    /// the step loop's one pass over the states. The values are read in one C loop
    /// (`tiltbox_read_states`) that also adds up their magnitudes; only when that sum is
    /// beyond `divergenceLimit` (or not finite), or with a spatial hash, does `firstDivergence`
    /// look at each value, so the result is always exactly `firstDivergence`'s.
    /// Allocates nothing.
    public func readStatesFindingDivergence(into buffer: UnsafeMutableBufferPointer<Double>) -> WorldDivergence? {
        let inRange = readStatesInRange(into: buffer)
        guard !inRange || hashReach != nil else { return nil }
        return firstDivergence(in: UnsafeBufferPointer(buffer))
    }

    /// Makes `stateBodies` and `stateOrigins` list `bodies`.
    private func rebuildStateReaders() {
        stateReadersAreStale = false
        stateBodies.deallocate()
        stateOrigins.deallocate()
        stateBodies = .allocate(capacity: bodies.count)
        stateOrigins = .allocate(capacity: bodies.count)
        for (i, body) in bodies.enumerated() {
            stateBodies.initializeElement(at: i, to: body.body)
            stateOrigins.initializeElement(at: i, to: body.centreIsOrigin ? 0 : 1)
        }
    }

    /// Reads every state into `buffer`; true when they are all within `divergenceLimit` (false
    /// may also mean only that their magnitudes add up to more: then `firstDivergence` decides).
    private func readStatesInRange(into buffer: UnsafeMutableBufferPointer<Double>) -> Bool {
        precondition(buffer.count >= bodyCount * BodyStateLayout.count)
        if stateReadersAreStale { rebuildStateReaders() }
        precondition(stateBodies.count == bodyCount)
        return tiltbox_read_states(
            stateBodies.baseAddress, stateOrigins.baseAddress, stateBodies.count, buffer.baseAddress,
            World.divergenceLimit) != 0
    }

    /// The first body whose state is unusable for the next step: a value non-finite or beyond
    /// `divergenceLimit`, or, with a spatial hash, a body whose shapes could reach past
    /// `hashIndexLimit(cellSize:)` in the next step (`max(|x|, |y|) + reach + max(|vx|, |vy|)·dt`).
    /// Reads the fields laid out by `readStates(into:)`, once per body: the step loop's only
    /// scan of the states.
    public func firstDivergence(in buffer: UnsafeBufferPointer<Double>) -> WorldDivergence? {
        let limit = World.divergenceLimit
        for index in 0..<bodyCount {
            let base = index * BodyStateLayout.count
            for field in 0..<BodyStateLayout.count {
                let value = buffer[base + field]
                if !(abs(value) <= limit) {
                    return WorldDivergence(
                        bodyIndex: index, bodyID: bodyID(at: index),
                        field: BodyStateLayout.fieldNames[field], value: value,
                        kind: bodies[index].kind)
                }
            }
            if let hashReach {
                let x = buffer[base + BodyStateLayout.x], y = buffer[base + BodyStateLayout.y]
                let speed = max(abs(buffer[base + BodyStateLayout.vx]), abs(buffer[base + BodyStateLayout.vy]))
                let far = abs(x) >= abs(y) ? (BodyStateLayout.x, x) : (BodyStateLayout.y, y)
                if abs(far.1) + reaches[index] + speed * dt > hashReach {
                    return WorldDivergence(
                        bodyIndex: index, bodyID: bodyID(at: index),
                        field: BodyStateLayout.fieldNames[far.0], value: far.1,
                        kind: bodies[index].kind, indexLimit: hashReach)
                }
            }
        }
        return nil
    }
}

/// Where a world first left the finite, representable range.
public struct WorldDivergence: Sendable, Equatable, CustomStringConvertible {
    /// The body's index in trace order.
    public var bodyIndex: Int
    /// The body's id.
    public var bodyID: String
    /// The state field that left the range (`x`, `y`, `angle`, `vx`, `vy` or `w`).
    public var field: String
    /// Its value: non-finite, or finite beyond 1e100.
    public var value: Double
    /// `crate` or `body` (a body of the scenario's `bodies`), for the message: the body's `Body.kind`.
    public var kind: String = "crate"
    /// With a spatial hash, the coordinate bound (`World.hashIndexLimit(cellSize:)`) the body's
    /// shapes were about to cross; `nil` when the state itself left the finite range.
    public var indexLimit: Double?

    /// One sentence naming the body, the field and the value, for error messages.
    public var description: String {
        if let indexLimit {
            return "\(kind) '\(bodyID)' \(field) = \(NumberFormat.shortest(value)): its shapes could pass "
                + "±\(NumberFormat.shortest(indexLimit)) in the next step, beyond the cells the spatial hash can index "
                + "(2^30 cells of cellSize); the run stops before Chipmunk's cell index overflows"
        }
        if value.isFinite {
            return
                "\(kind) '\(bodyID)' \(field) = \(NumberFormat.shortest(value)) exceeds the engine's safe range (|value| ≤ 1e100): the simulation diverged"
        }
        return "\(kind) '\(bodyID)' \(field) is \(value) (non-finite): the simulation diverged"
    }
}
