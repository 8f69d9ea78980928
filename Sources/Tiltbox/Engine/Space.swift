internal import CChipmunk

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Owns one `cpSpace`. Bodies, walls and joints keep a strong reference to it.
///
/// Two ways to go: a world that goes away frees its space first, with everything still in it
/// (`free()`), and its bodies, shapes and constraints are then freed without being removed; a
/// space released by its last holder (a body, wall or joint outliving it) is freed then, after
/// each of them has removed itself.
final class Space {
    let pointer: UnsafeMutablePointer<cpSpace>
    /// Whether `free()` freed the `cpSpace`: `pointer` then points at nothing, and the objects
    /// that were in it must only be freed, never removed.
    private(set) var isFreed = false

    init() {
        BannerGuard.silenceOnce()
        pointer = cpSpaceNew()!
        EngineCensus.spaceCreated()
    }

    /// Calls the setter of every space setting `world` gives, and no other: an absent key
    /// keeps `cpSpaceNew`'s value exactly. Also chooses the broad phase.
    /// `world` must be validated (Chipmunk asserts on some values).
    func apply(_ world: WorldSettings) {
        switch world.spatialIndex {
        case .bbtree:
            break // Chipmunk's default.
        case .hash(let cellSize, let count):
            cpSpaceUseSpatialHash(pointer, cellSize, Int32(count))
        }
        if let iterations = world.iterations { cpSpaceSetIterations(pointer, Int32(iterations)) }
        if let damping = world.damping { cpSpaceSetDamping(pointer, damping) }
        if let slop = world.collisionSlop { cpSpaceSetCollisionSlop(pointer, slop) }
        if let bias = world.collisionBias { cpSpaceSetCollisionBias(pointer, bias) }
        if let persistence = world.collisionPersistence {
            cpSpaceSetCollisionPersistence(pointer, cpTimestamp(persistence))
        }
        if let sleep = world.sleepTimeThreshold { cpSpaceSetSleepTimeThreshold(pointer, sleep) }
        if let idle = world.idleSpeedThreshold { cpSpaceSetIdleSpeedThreshold(pointer, idle) }
    }

    /// The space's settings as its getters report them.
    var settings: SpaceSettings {
        SpaceSettings(
            iterations: Int(cpSpaceGetIterations(pointer)),
            damping: cpSpaceGetDamping(pointer),
            collisionSlop: cpSpaceGetCollisionSlop(pointer),
            collisionBias: cpSpaceGetCollisionBias(pointer),
            collisionPersistence: Int(cpSpaceGetCollisionPersistence(pointer)),
            sleepTimeThreshold: cpSpaceGetSleepTimeThreshold(pointer),
            idleSpeedThreshold: cpSpaceGetIdleSpeedThreshold(pointer))
    }

    /// Frees the `cpSpace` now, with the bodies, shapes and constraints still in it
    /// (`cpSpaceFree`, linear in what it holds): it frees the indexes, the arbiters and contacts,
    /// and the collision handlers, never the bodies, shapes or constraints, whose owners free them
    /// afterwards (`cpShapeFree`, `cpBodyFree`, `cpConstraintFree`: none of them looks at a space).
    /// The caller wakes every sleeping body first (`World.deinit`): `cpSpaceFree`'s own wake-up
    /// misses some, and a sleeping body's saved contacts are freed only as it wakes. Nothing may
    /// call into the space after.
    func free() {
        guard !isFreed else { return }
        isFreed = true
        cpSpaceFree(pointer)
        EngineCensus.spaceFreed()
    }

    deinit {
        // Chipmunk: "cpSpaceFree() ... does not free any bodies or shapes"; those
        // are freed by their owners, which hold this object alive until they are gone.
        free()
    }
}

/// Debian's Chipmunk is a debug build: the first `cpSpaceNew` in a process prints a
/// two-line banner with `printf`. That would corrupt `--trace -`, so the first space is
/// created once with file descriptor 1 pointed at `/dev/null`.
enum BannerGuard {
    private static let silenced: Void = {
        fflush(nil) // every C stream, stdout included
        let saved = dup(STDOUT_FILENO)
        let devNull = open("/dev/null", O_WRONLY)
        if saved >= 0, devNull >= 0 {
            dup2(devNull, STDOUT_FILENO)
        }
        let probe = cpSpaceNew()
        cpSpaceFree(probe)
        fflush(nil) // every C stream, stdout included
        if saved >= 0, devNull >= 0 {
            dup2(saved, STDOUT_FILENO)
        }
        if devNull >= 0 { close(devNull) }
        if saved >= 0 { close(saved) }
    }()

    static func silenceOnce() { _ = silenced }
}
