import Foundation

/// Reads and validates scenario files (`tiltbox-scenario/1`, docs/formats.md §1).
///
/// A `Scenario` that comes out of here is safe to hand to `World`: every number is
/// finite and within `ScenarioLimits`, every key is known, crate ids are unique and
/// every crate starts inside the world. Anything else is an `InputError` naming the
/// file, the line and column of the offending JSON value and its field path
/// (`crates[3].size[1]`). The loader never opens the tilt file; it only resolves its path.
///
/// Defaults (docs/formats.md §1 and `Scenario.swift`), plus the choices this loader makes:
/// - `name`: the file's base name without extension; `description`: `""`.
/// - `world.spatialIndex`: `"bbtree"`, or `{"hash": {"cellSize": 20, "count": 4000}}`
///   where both inner keys are optional with those defaults.
/// - Integer fields (`iterations`, `columns`, ...) accept any integral JSON number (`8` or `8.0`).
/// - `grids[i]`: `origin`, `columns`, `rows` and `spacing` are required; `idPrefix`
///   defaults to `"g<i>_"` (so grid 0's crates are `g0_0_0`, `g0_0_1`, ...); `crate`
///   takes the crate keys other than `id` and `position`, with the crate defaults.
///   Crate `(row, col)` sits at `origin + (col·spacing.x, row·spacing.y)` with id
///   `<idPrefix><row>_<col>`; crates are made row by row, row 0 first, columns left to right.
/// - `tilt.file` is resolved against the scenario file's folder when relative.
/// - `$schema` (any string) is allowed at the top level for editors and ignored.
public enum ScenarioLoader {
    /// The caps enforced on every scenario.
    public static let limits = ScenarioLimits()

    /// The only accepted value of the `format` key.
    public static let format = "tiltbox-scenario/1"

    /// Reads, parses and validates the scenario file at `path`.
    ///
    /// The file must be a regular file of at most `limits.maxFileBytes` bytes of UTF-8
    /// JSON; a relative `tilt.file` is resolved against the folder of `path`.
    ///
    /// `overrides` (`--set`) are applied to the parsed JSON before validation, in order;
    /// an error in a value one of them set names it
    /// (`--set crates[*].friction=-1: crates[0].friction: must be ≥ 0`).
    public static func load(path: String, overrides: [ScenarioOverride] = []) throws(InputError) -> Scenario {
        try load(data: try readFile(path), path: path, overrides: overrides).scenario
    }

    /// A scenario as loaded, with the overlap census its checks took (for `warnings`).
    struct Checked {
        var scenario: Scenario
        var census: OverlapCensus
        /// `warnings(for:)` from the census already taken.
        var warnings: [String] { ScenarioLoader.warnings(for: scenario, census: census) }
    }

    /// `load(path:overrides:)` on the bytes already read from `path` (`readFile`), so a
    /// caller can hash the very bytes it loaded.
    static func load(data: Data, path: String, overrides: [ScenarioOverride] = []) throws(InputError) -> Checked {
        let (parsed, kind): (Result<JSONNode, JSONSyntaxError>, TiltboxFileKind?) = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            let parsed = Result { () throws(JSONSyntaxError) in try JSONParser.parse(utf8: bytes) }
            // Not one JSON document: a trace (JSON lines) given by mistake is named as such.
            guard case .failure = parsed else { return (parsed, nil) }
            return (parsed, TiltboxFileKind.of(bytes, maxWholeBytes: 0))
        }
        if let kind, kind != .scenario {
            throw InputError(file: path, reason: "this is \(kind.name), not a scenario")
        }
        return try build(parsed, file: path, baseDirectory: directory(of: path), overrides: overrides)
    }

    /// Parses and validates scenario text; `file` is used in error messages and for the
    /// default name, `baseDirectory` (when not `nil`) to resolve a relative tilt path.
    /// For tests and the built-in default scenario.
    public static func parse(
        text: String, file: String, baseDirectory: String?,
        overrides: [ScenarioOverride] = []
    ) throws(InputError) -> Scenario {
        try parseChecked(text: text, file: file, baseDirectory: baseDirectory, overrides: overrides).scenario
    }

    /// `parse(text:...)` with the overlap census its checks took.
    static func parseChecked(
        text: String, file: String, baseDirectory: String?,
        overrides: [ScenarioOverride] = []
    ) throws(InputError) -> Checked {
        guard text.utf8.count <= limits.maxFileBytes else {
            throw InputError(
                file: file,
                reason: "scenario is \(text.utf8.count) bytes, more than the limit of \(limits.maxFileBytes)")
        }
        let parsed = Result { () throws(JSONSyntaxError) in try JSONParser.parse(text) }
        return try build(parsed, file: file, baseDirectory: baseDirectory, overrides: overrides)
    }

    // MARK: - Files

    /// Reads the whole file after checking from its attributes that it is a regular
    /// file small enough to read (so `/dev/zero`, a FIFO or a 10 GB file fail at once).
    static func readFile(_ path: String) throws(InputError) -> Data {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path, reason: "no such file")
        }
        guard !isDirectory.boolValue else {
            throw InputError(file: path, reason: "is a directory, not a scenario file")
        }
        return try RegularFile.read(path, maxBytes: limits.maxFileBytes) { size in
            "file is \(size) bytes, more than the limit of \(limits.maxFileBytes)"
        }
    }

    /// The folder part of `path` (`nil` for a bare file name, which resolves against
    /// the working directory anyway).
    static func directory(of path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// `file` as given when absolute or when there is no base, else `base/file`.
    static func resolve(_ file: String, against base: String?) -> String {
        guard let base, !base.isEmpty, !file.hasPrefix("/") else { return file }
        return base.hasSuffix("/") ? base + file : base + "/" + file
    }

    /// The file's base name without its extension, the default scenario name.
    static func defaultName(for file: String) -> String {
        var base = Substring(file)
        if let slash = base.lastIndex(of: "/") { base = base[base.index(after: slash)...] }
        if let dot = base.lastIndex(of: "."), dot != base.startIndex { base = base[..<dot] }
        return base.isEmpty ? "scenario" : String(base)
    }

    // MARK: - Keys

    /// The top-level keys. `$schema` names the JSON Schema an editor checks the file against
    /// (docs/schema/scenario.schema.json): any string, read and ignored.
    static let topKeys = [
        "format", "name", "description", "world", "timestep", "duration",
        "walls", "segments", "crates", "grids", "bodies", "joints", "tilt", "timeline", "rules", "expect", schemaKey,
    ]
    /// The key editors read to find the file's JSON Schema; its value is not used.
    static let schemaKey = "$schema"
    static let worldKeys = [
        "size", "gravity", "iterations", "damping", "collisionSlop", "collisionBias",
        "collisionPersistence", "sleepTimeThreshold", "idleSpeedThreshold", "spatialIndex", "cull",
    ]
    static let timestepKeys = ["hz", "dt", "maxStepsPerFrame"]
    static let wallKeys = ["box", "radius", "friction", "elasticity"] + shapeCollisionKeys
    static let segmentKeys = ["from", "to", "radius", "friction", "elasticity"] + shapeCollisionKeys
    static let crateBodyKeys =
        ["size", "angle", "mass", "friction", "elasticity", "velocity", "angularVelocity"] + shapeCollisionKeys
    static let crateKeys = ["id", "position"] + crateBodyKeys
    static let gridKeys = ["idPrefix", "origin", "columns", "rows", "spacing", "crate"]
    static let tiltKeys = ["file", "orientation", "g"]
    static let hashKeys = ["cellSize", "count"]

    // MARK: - Building

    /// `build(root:...)` after applying `overrides`, with errors in the values they set named after them.
    private static func build(
        _ parsed: Result<JSONNode, JSONSyntaxError>, file: String,
        baseDirectory: String?, overrides: [ScenarioOverride]
    ) throws(InputError) -> Checked {
        let root: JSONNode
        switch parsed {
        case .success(let node): root = node
        case .failure(let error): throw InputError(file: file, location: error.location, reason: error.reason)
        }
        // Without overrides, or when the file is not an object (the loader says so), build as read.
        guard !overrides.isEmpty, case .object = root.value else {
            return try build(root: root, file: file, baseDirectory: baseDirectory)
        }
        let applied = try ScenarioOverride.apply(overrides, to: root)
        do {
            return try build(root: applied.root, file: file, baseDirectory: baseDirectory)
        } catch {
            throw ScenarioOverride.attribute(error, setBy: applied.setBy)
        }
    }

    private static func build(root: JSONNode, file: String, baseDirectory: String?) throws(InputError) -> Checked {
        let reader = FieldReader(file: file)
        guard case .object = root.value else {
            throw InputError(
                file: file, location: root.location,
                reason: "expected a scenario object at the top level, got \(root.value.typeName)")
        }
        // Check the format before the keys: a tilt file or trace passed by mistake should
        // be named as such, not as a list of unknown keys.
        guard let formatNode = root["format"] else {
            throw reader.error(at: root, "format", "missing required key \"format\" (expected \"\(format)\")")
        }
        let formatValue = try reader.string(formatNode, "format", allowEmpty: true)
        guard formatValue == format else {
            // The value is not echoed: only a scenario's own keys and values are.
            var reason = "unknown format (expected \"\(format)\")"
            if let kind = TiltboxFileKind(format: formatValue), kind != .scenario {
                reason += ": this is \(kind.name), not a scenario"
            }
            throw reader.error(at: formatNode, "format", reason)
        }
        let top = try reader.object(root, "", keys: topKeys)
        // For editors only: a string, never used.
        _ = try top.string(schemaKey, default: "", allowEmpty: true)

        let name = try top.string("name", default: defaultName(for: file), allowEmpty: false)
        let description = try top.string("description", default: "", allowEmpty: true)

        guard let worldObject = try top.object("world", keys: worldKeys) else {
            throw reader.error(at: root, "world", "missing required key \"world\" (it needs at least \"size\")")
        }
        let world = try worldSettings(worldObject)

        let timestep = try timestepSettings(top.object("timestep", keys: timestepKeys))
        let duration = try top.number("duration", default: 10, .positive(max: limits.maxDuration))
        try checkTotalSteps(duration: duration, timestep: timestep, top: top)

        let walls = try wallSettings(top.object("walls", keys: wallKeys))
        let segments = try segmentSpecs(top)
        let crates = try crateSpecs(top, world: world)
        let bodies = try bodySpecs(top, crates: crates, world: world)
        let joints = try jointSpecs(top, crates: crates, bodies: bodies, dt: timestep.dt)
        let tilt = try tiltSettings(top.object("tilt", keys: tiltKeys), baseDirectory: baseDirectory)

        var scenario = Scenario(
            name: name, description: description, world: world, timestep: timestep,
            duration: duration, walls: walls, segments: segments, crates: crates, bodies: bodies,
            joints: joints, tilt: tilt)
        scenario.timeline = try timeline(top, scenario: scenario)
        let typeOrder = collisionTypeOrder(root)
        scenario.numberCollisionTypes(typeOrder)
        try readRules(top, into: &scenario, collisionTypes: typeOrder)
        scenario.cullMargin = try cullMargin(worldObject)
        scenario.expectations = try expectations(top, scenario: scenario, collisionTypes: typeOrder, root: root)
        try checkHashCells(scenario, worldObject: worldObject)
        try checkHashExtent(scenario, worldObject: worldObject)
        try checkPersistence(scenario, worldObject: worldObject)
        try checkSleepWithKinematicBodies(scenario, worldObject: worldObject)
        let census = try checkOverlaps(scenario, top: top)
        return Checked(scenario: scenario, census: census)
    }

    /// The space settings are read only when present: an absent key stays `nil`, and the
    /// engine then leaves Chipmunk's own default in place.
    private static func worldSettings(_ object: ObjectReader) throws(InputError) -> WorldSettings {
        let defaults = WorldSettings(size: .zero)
        return try WorldSettings(
            size: object.vec2("size", default: nil, .positive(max: limits.maxWorldSize)),
            gravity: object.vec2("gravity", default: defaults.gravity, .magnitude(limits.maxGravity)),
            iterations: object.optionalInteger("iterations", min: 1, max: limits.maxIterations),
            damping: object.optionalNumber("damping", .closed(0, 1)),
            collisionSlop: object.optionalNumber("collisionSlop", .nonNegative(max: limits.maxRadius)),
            collisionBias: object.optionalNumber("collisionBias", .closed(0, 1)),
            collisionPersistence: object.optionalInteger(
                "collisionPersistence", min: 0, max: limits.maxCollisionPersistence),
            sleepTimeThreshold: object.optionalNumber("sleepTimeThreshold", .nonNegative(max: limits.maxDuration)),
            idleSpeedThreshold: object.optionalNumber("idleSpeedThreshold", .nonNegative(max: limits.maxSpeed)),
            spatialIndex: spatialIndex(object)
        )
    }

    private static func spatialIndex(_ world: ObjectReader) throws(InputError) -> SpatialIndex {
        guard let node = world["spatialIndex"] else { return .bbtree }
        let path = world.path("spatialIndex")
        let expected = "expected \"bbtree\" or {\"hash\": {\"cellSize\": 20, \"count\": 4000}}"
        switch node.value {
        case .string("bbtree"):
            return .bbtree
        case .string(let other):
            throw world.reader.error(at: node, path, "unknown spatial index \"\(other)\"; \(expected)")
        case .object:
            let wrapper = try world.reader.object(node, path, keys: ["hash"])
            guard let hash = try wrapper.object("hash", keys: hashKeys) else {
                throw world.reader.error(at: node, path, "missing key \"hash\"; \(expected)")
            }
            return try .hash(
                cellSize: hash.number("cellSize", default: 20, .positive(max: limits.maxHashCellSize)),
                count: hash.integer("count", default: 4000, min: 1, max: limits.maxHashCount)
            )
        default:
            throw world.reader.error(at: node, path, "\(expected), got \(node.value.typeName)")
        }
    }

    private static func timestepSettings(_ object: ObjectReader?) throws(InputError) -> TimestepSettings {
        let defaults = TimestepSettings()
        guard let object else { return defaults }
        let maxStepsPerFrame = try object.integer(
            "maxStepsPerFrame", default: defaults.maxStepsPerFrame, min: 1, max: limits.maxStepsPerFrame)
        // `dt` (docs/formats.md §8): any finite step in (0, 1] seconds, used as given; exclusive with `hz`.
        if let dtNode = object["dt"] {
            if object["hz"] != nil {
                throw object.reader.error(
                    at: dtNode, object.path("dt"), "give \"hz\" or \"dt\", not both (dt is the step, 1/hz)")
            }
            let dt = try object.reader.number(dtNode, object.path("dt"), .positive(max: 1))
            return TimestepSettings(dt: dt, maxStepsPerFrame: maxStepsPerFrame)
        }
        return try TimestepSettings(
            hz: object.number("hz", default: defaults.hz, .positive(max: limits.maxHz)),
            maxStepsPerFrame: maxStepsPerFrame)
    }

    /// A run takes `duration × hz` (or `duration / dt`) steps, rounded: at least one, at most `maxTotalSteps`.
    private static func checkTotalSteps(duration: Double, timestep: TimestepSettings, top: ObjectReader)
        throws(InputError)
    {
        let steps = timestep.steps(in: duration)
        guard steps < 1 || steps > Double(limits.maxTotalSteps) else { return }
        if let dt = timestep.givenDT {
            // Blame whichever of the two the file set (duration first); steps may be +inf for a tiny dt.
            let (node, path) =
                top["duration"].map { ($0, "duration") }
                ?? top["timestep"]?["dt"].map { ($0, "timestep.dt") } ?? (top.node, "duration")
            let count = steps.isFinite ? NumberFormat.shortest(steps) : "more than \(limits.maxTotalSteps)"
            throw top.reader.error(
                at: node, path,
                "duration / timestep.dt = \(NumberFormat.shortest(duration)) / \(NumberFormat.shortest(dt)) "
                    + "gives \(count) steps; a run needs between 1 and \(limits.maxTotalSteps)")
        }
        // Blame whichever of the two the file set (duration first); both bounded, so steps is finite.
        let (node, path) =
            top["duration"].map { ($0, "duration") }
            ?? top["timestep"]?["hz"].map { ($0, "timestep.hz") }
            ?? (top.node, "duration")
        let reason =
            "duration × timestep.hz = \(NumberFormat.shortest(duration)) × \(NumberFormat.shortest(timestep.hz)) "
            + "gives \(NumberFormat.shortest(steps)) steps; a run needs between 1 and \(limits.maxTotalSteps)"
        throw top.reader.error(at: node, path, reason)
    }

    private static func wallSettings(_ object: ObjectReader?) throws(InputError) -> WallSettings {
        let defaults = WallSettings()
        guard let object else { return defaults }
        return try WallSettings(
            box: object.bool("box", default: defaults.box),
            radius: object.number("radius", default: defaults.radius, .nonNegative(max: limits.maxRadius)),
            friction: object.number("friction", default: defaults.friction, .nonNegative(max: limits.maxMaterial)),
            elasticity: object.number(
                "elasticity", default: defaults.elasticity, .nonNegative(max: limits.maxMaterial)),
            collision: shapeCollision(object)
        )
    }

    private static func segmentSpecs(_ top: ObjectReader) throws(InputError) -> [SegmentSpec] {
        let nodes = try top.array("segments", maxCount: limits.maxSegments)
        var segments: [SegmentSpec] = []
        segments.reserveCapacity(nodes.count)
        let defaults = SegmentSpec(from: .zero, to: .zero)
        for (index, node) in nodes.enumerated() {
            let object = try top.reader.object(
                node, FieldReader.element(top.path("segments"), index), keys: segmentKeys)
            let segment = try SegmentSpec(
                from: object.vec2("from", default: nil, .magnitude(limits.maxCoordinate)),
                to: object.vec2("to", default: nil, .magnitude(limits.maxCoordinate)),
                radius: object.number("radius", default: defaults.radius, .nonNegative(max: limits.maxRadius)),
                friction: object.number("friction", default: defaults.friction, .nonNegative(max: limits.maxMaterial)),
                elasticity: object.number(
                    "elasticity", default: defaults.elasticity, .nonNegative(max: limits.maxMaterial)),
                collision: shapeCollision(object)
            )
            if segment.from == segment.to, let toNode = object["to"] {
                throw top.reader.error(
                    at: toNode, object.path("to"), "a segment's \"to\" must differ from its \"from\"")
            }
            segments.append(segment)
        }
        return segments
    }

    private static func tiltSettings(_ object: ObjectReader?, baseDirectory: String?) throws(InputError)
        -> TiltSettings?
    {
        guard let object else { return nil }
        let file = try object.string("file", default: nil, allowEmpty: false)
        var orientation = Orientation.portrait
        if let node = object["orientation"] {
            let raw = try object.reader.string(node, object.path("orientation"), allowEmpty: true)
            guard let value = Orientation(rawValue: raw) else {
                let valid = Orientation.allCases.map(\.rawValue).joined(separator: ", ")
                throw object.reader.error(
                    at: node, object.path("orientation"), "unknown orientation \"\(raw)\"; valid: \(valid)")
            }
            orientation = value
        }
        let g = try object.optionalNumber("g", .positive(max: limits.maxGravity))
        let declaration = object["file"].map {
            InputError(file: object.reader.file, location: $0.location, path: object.path("file"), reason: "")
        }
        return TiltSettings(
            file: resolve(file, against: baseDirectory), orientation: orientation, g: g,
            fileDeclaration: declaration)
    }

    // MARK: - Crates

    /// Where a crate id was defined, for duplicate-id messages.
    private struct IDOrigin {
        var path: String
        var location: SourceLocation
    }

    /// A grid read and checked, not yet expanded.
    private struct GridPlan {
        var path: String
        var node: JSONNode
        var prefix: String
        var origin: Vec2
        var columns: Int
        var rows: Int
        var spacing: Vec2
        var template: CrateSpec
    }

    /// The listed crates, then every grid expanded row by row, with unique ids, all inside the world.
    private static func crateSpecs(_ top: ObjectReader, world: WorldSettings) throws(InputError) -> [CrateSpec] {
        let reader = top.reader
        let listed = try top.array("crates", maxCount: limits.maxCrates)
        let gridNodes = try top.array("grids", maxCount: limits.maxCrates)

        // Read every grid and check the total against the cap before making any crate:
        // columns × rows in overflow-checked arithmetic, so a 10⁹-crate grid fails at once.
        var plans: [GridPlan] = []
        var total = listed.count
        for (index, node) in gridNodes.enumerated() {
            let plan = try gridPlan(node, index: index, top: top)
            let (count, overflow) = plan.columns.multipliedReportingOverflow(by: plan.rows)
            let (sum, overflowSum) = total.addingReportingOverflow(count)
            if overflow || overflowSum || sum > limits.maxCrates {
                let made = overflow ? "more than \(Int.max)" : String(count)
                throw reader.error(
                    at: node, plan.path,
                    "columns × rows = \(plan.columns) × \(plan.rows) = \(made) crates; "
                        + "with the \(total) before this grid that is more than the limit of \(limits.maxCrates) crates"
                )
            }
            total = sum
            plans.append(plan)
        }

        var crates: [CrateSpec] = []
        crates.reserveCapacity(total)
        var origins: [String: IDOrigin] = [:]
        origins.reserveCapacity(total)

        for (index, node) in listed.enumerated() {
            let path = FieldReader.element(top.path("crates"), index)
            let object = try reader.object(node, path, keys: crateKeys)
            let idNode = try object.required("id")
            let id = try reader.string(idNode, object.path("id"), allowEmpty: false)
            let positionNode = try object.required("position")
            let position = try reader.vec2(positionNode, object.path("position"), .magnitude(limits.maxCoordinate))
            if !inside(position, world) {
                throw reader.error(
                    at: positionNode, object.path("position"),
                    "crate \"\(id)\" at \(show(position)) lies outside the world \(showBounds(world))")
            }
            if let first = origins[id] {
                throw reader.error(
                    at: idNode, object.path("id"),
                    "duplicate crate id \"\(id)\" (first used at \(first.path), \(first.location))")
            }
            origins[id] = IDOrigin(path: object.path("id"), location: idNode.location)
            crates.append(try crateBody(object, id: id, position: position))
        }

        for plan in plans {
            for row in 0..<plan.rows {
                for column in 0..<plan.columns {
                    let id = "\(plan.prefix)\(row)_\(column)"
                    let position = Vec2(
                        plan.origin.x + Double(column) * plan.spacing.x,
                        plan.origin.y + Double(row) * plan.spacing.y)
                    if !inside(position, world) {
                        throw reader.error(
                            at: plan.node, plan.path,
                            "grid crate \"\(id)\" (row \(row), column \(column)) at "
                                + "\(show(position)) lies outside the world \(showBounds(world))")
                    }
                    if let first = origins[id] {
                        throw reader.error(
                            at: plan.node, plan.path,
                            "grid crate \"\(id)\" (row \(row), column \(column)) "
                                + "duplicates the crate id first used at \(first.path), \(first.location)")
                    }
                    origins[id] = IDOrigin(
                        path: "\(plan.path) (row \(row), column \(column))", location: plan.node.location)
                    var crate = plan.template
                    crate.id = id
                    crate.position = position
                    crates.append(crate)
                }
            }
        }
        return crates
    }

    private static func gridPlan(_ node: JSONNode, index: Int, top: ObjectReader) throws(InputError) -> GridPlan {
        let path = FieldReader.element(top.path("grids"), index)
        let object = try top.reader.object(node, path, keys: gridKeys)
        let template: CrateSpec
        if let crateObject = try object.object("crate", keys: crateBodyKeys) {
            template = try crateBody(crateObject, id: "", position: .zero)
        } else {
            template = CrateSpec(id: "", position: .zero)
        }
        return try GridPlan(
            path: path, node: node,
            prefix: object.string("idPrefix", default: "g\(index)_", allowEmpty: true),
            origin: object.vec2("origin", default: nil, .magnitude(limits.maxCoordinate)),
            columns: object.integer("columns", default: nil, min: 1, max: limits.maxCrates),
            rows: object.integer("rows", default: nil, min: 1, max: limits.maxCrates),
            spacing: object.vec2("spacing", default: nil, .magnitude(limits.maxCoordinate)),
            template: template
        )
    }

    /// The crate keys shared by listed crates and grid templates (all but `id` and `position`).
    private static func crateBody(_ object: ObjectReader, id: String, position: Vec2) throws(InputError) -> CrateSpec {
        let defaults = CrateSpec(id: id, position: position)
        return try CrateSpec(
            id: id, position: position,
            size: object.vec2(
                "size", default: defaults.size,
                Bounds(min: limits.minCrateSize, minInclusive: true, max: limits.maxCrateSize)),
            angle: object.number("angle", default: defaults.angle, .magnitude(limits.maxAngle)),
            mass: object.number("mass", default: defaults.mass, .closed(limits.minMass, limits.maxMass)),
            friction: object.number("friction", default: defaults.friction, .nonNegative(max: limits.maxMaterial)),
            elasticity: object.number(
                "elasticity", default: defaults.elasticity, .nonNegative(max: limits.maxMaterial)),
            velocity: object.vec2("velocity", default: defaults.velocity, .magnitude(limits.maxSpeed)),
            angularVelocity: object.number(
                "angularVelocity", default: defaults.angularVelocity,
                .magnitude(limits.maxAngularVelocity)),
            collision: shapeCollision(object)
        )
    }

    static func inside(_ p: Vec2, _ world: WorldSettings) -> Bool {
        p.x >= 0 && p.x <= world.size.x && p.y >= 0 && p.y <= world.size.y
    }

    static func show(_ p: Vec2) -> String {
        "[\(NumberFormat.shortest(p.x)), \(NumberFormat.shortest(p.y))]"
    }

    static func showBounds(_ world: WorldSettings) -> String {
        "[0, \(NumberFormat.shortest(world.size.x))] × [0, \(NumberFormat.shortest(world.size.y))]"
    }

    // MARK: - Overlaps

    /// At most `limits.maxOverlappingPairs` pairs of crates may overlap at t = 0.
    private static func checkOverlaps(_ scenario: Scenario, top: ObjectReader) throws(InputError) -> OverlapCensus {
        let census = OverlapCensus(scenario: scenario, stopAfter: limits.maxOverlappingPairs)
        guard census.stoppedEarly else { return census }
        let example =
            census.cratePairExamples.first.map {
                " (the first: \"\(scenario.crates[$0.first].id)\" and \"\(scenario.crates[$0.second].id)\")"
            } ?? ""
        // Blame the grids when a grid crate is in the first pair, else the listed crates.
        let listed = top["crates"]?.arrayValue?.count ?? 0
        let gridFirst = (census.cratePairExamples.first?.second ?? 0) >= listed
        let (node, path) =
            (gridFirst ? top["grids"].map { ($0, "grids") } : nil)
            ?? top["crates"].map { ($0, "crates") } ?? top["grids"].map { ($0, "grids") } ?? (top.node, "crates")
        throw top.reader.error(
            at: node, path,
            "more than \(limits.maxOverlappingPairs) pairs of crates overlap at t = 0\(example); the limit is "
                + "\(limits.maxOverlappingPairs) (Chipmunk resolves every overlapping pair on every step): spread the crates out"
        )
    }

    /// Warnings for a scenario that loads but probably does not do what was meant:
    /// crates overlapping each other or a wall at t = 0 (Chipmunk pushes them apart
    /// violently on the first steps), and a crate `angle` larger than 2π in magnitude
    /// (degrees written where radians are expected). One line each, without the file name.
    public static func warnings(for scenario: Scenario) -> [String] {
        warnings(for: scenario, census: OverlapCensus(scenario: scenario, stopAfter: limits.maxOverlappingPairs))
    }

    /// `warnings(for:)` from a census of `scenario` already taken (by its load).
    static func warnings(for scenario: Scenario, census: OverlapCensus) -> [String] {
        var lines: [String] = []
        let crates = scenario.crates
        func ids(_ pairs: [String], total: Int) -> String {
            pairs.joined(separator: ", ") + (total > pairs.count ? " and \(total - pairs.count) more" : "")
        }
        if census.cratePairs > 0 {
            let pairs = census.cratePairExamples.map { "\"\(crates[$0.first].id)\" and \"\(crates[$0.second].id)\"" }
            lines.append(
                "\(census.cratePairs) pair\(census.cratePairs == 1 ? "" : "s") of crates overlap at t = 0: "
                    + ids(pairs, total: census.cratePairs))
        }
        if census.wallContacts > 0 {
            let boxWalls = scenario.walls.box ? 4 : 0
            let pairs = census.wallContactExamples.map { contact -> String in
                let wall =
                    contact.segment < boxWalls
                    ? ["bottom", "right", "top", "left"][contact.segment] + " wall"
                    : "segments[\(contact.segment - boxWalls)]"
                return "\"\(crates[contact.crate].id)\" and the \(wall)"
            }
            lines.append(
                "\(census.wallContacts) crate\(census.wallContacts == 1 ? "" : "s")-wall overlap\(census.wallContacts == 1 ? "" : "s") at t = 0: "
                    + ids(pairs, total: census.wallContacts))
        }
        let tilted = crates.filter { abs($0.angle) > 2 * Double.pi }
        if let first = tilted.first {
            let more = tilted.count > 1 ? " (and \(tilted.count - 1) more crates)" : ""
            lines.append(
                "crate \"\(first.id)\" has angle \(NumberFormat.shortest(first.angle)), more than 2π in magnitude\(more): radians expected"
            )
        }
        return lines
    }

    // MARK: - Sleeping

    /// A `sleepTimeThreshold` of 0 is refused when the scenario has a kinematic body, at start or
    /// later (a timeline spawn or `set`).
    ///
    /// Chipmunk 7.0.3 keeps kinematic bodies in the space's list of dynamic bodies and never
    /// advances their idle time, but `cpBodyActivate` resets to 0 the idle time of every
    /// non-static body touching the body it wakes ("Reset the idle timer of things the body is
    /// touching as well"), kinematic ones included. `cpSpaceProcessComponents` then puts to sleep
    /// a kinematic body whose idle time is not below the threshold: with a threshold of 0, one
    /// that touches a dynamic body, and `cpSpaceDeactivateBody` aborts ("Internal error:
    /// Attempting to deactivate a non-dynamic body."). Any positive threshold keeps 0 below it.
    private static func checkSleepWithKinematicBodies(_ scenario: Scenario, worldObject: ObjectReader)
        throws(InputError)
    {
        guard scenario.world.sleepTimeThreshold == 0, let node = worldObject["sleepTimeThreshold"],
            let kinematic = firstKinematic(scenario)
        else { return }
        throw worldObject.reader.error(
            at: node, worldObject.path("sleepTimeThreshold"),
            "0 cannot be used with a kinematic body (\(kinematic)): Chipmunk 7.0.3 would try to put the kinematic "
                + "body to sleep once it touches a dynamic one and abort (\"Attempting to deactivate a non-dynamic body\"); "
                + "use a threshold above 0")
    }

    /// The first body that is kinematic at start, or that a timeline spawn or `set` makes kinematic
    /// later, for a message; `nil` when no body is ever kinematic.
    private static func firstKinematic(_ scenario: Scenario) -> String? {
        if let body = scenario.bodies.first(where: { $0.type == .kinematic }) { return "\"\(body.id)\"" }
        for (index, entry) in scenario.timeline.entries.enumerated() {
            switch entry.action {
            case .spawn(let body) where body.type == .kinematic:
                return "\"\(body.id)\" spawned by timeline[\(index)]"
            case .set(let setting) where setting.type == .kinematic:
                return "\"\(setting.body)\" made kinematic by timeline[\(index)]"
            default:
                continue
            }
        }
        // A rule's `set` of `type` is refused whenever sleepTimeThreshold is given (`readRules`).
        return nil
    }

    // MARK: - Contact persistence

    /// Above Chipmunk's default of 3, `collisionPersistence × dynamic shapes` at most
    /// `limits.maxPersistentShapeSteps` (Chipmunk keeps that many steps of contacts).
    private static func checkPersistence(_ scenario: Scenario, worldObject: ObjectReader) throws(InputError) {
        guard let persistence = scenario.world.collisionPersistence, persistence > 3,
            let node = worldObject["collisionPersistence"]
        else { return }
        var shapes = scenario.bodyDefinitions.reduce(0) { $0 + ($1.type == .dynamic ? $1.shapes.count : 0) }
        // Spawned dynamic bodies count with their repetitions (`maxShapes` bounds the sum).
        for entry in scenario.timeline.entries {
            if case .spawn(let body) = entry.action, body.type == .dynamic { shapes += body.shapes.count * entry.count }
        }
        guard persistence * shapes > limits.maxPersistentShapeSteps else { return }
        throw worldObject.reader.error(
            at: node, worldObject.path("collisionPersistence"),
            "\(persistence) steps × \(shapes) dynamic shapes = \(persistence * shapes), more than "
                + "\(limits.maxPersistentShapeSteps): Chipmunk keeps every contact of the last collisionPersistence steps, "
                + "so memory would grow by hundreds of MB; at most \(Swift.max(3, limits.maxPersistentShapeSteps / Swift.max(shapes, 1))) "
                + "with \(shapes) dynamic shapes")
    }

    // MARK: - Spatial hash

    /// With a spatial hash, every shape must start within `World.hashIndexLimit(cellSize:)`
    /// (2³⁰ cells) of the origin: Chipmunk's hash indexes cells with a C `int` and hangs past 2³¹.
    /// Moving bodies are watched during the run (`World.firstDivergence(in:)`).
    private static func checkHashExtent(_ scenario: Scenario, worldObject: ObjectReader) throws(InputError) {
        guard case .hash(let cellSize, _) = scenario.world.spatialIndex else { return }
        let limit = World.hashIndexLimit(cellSize: cellSize)
        var farthest = (0.0, "")
        func consider(_ extent: Double, _ what: String) {
            if extent > farthest.0 { farthest = (extent, what) }
        }
        for segment in scenario.allSegments {
            consider(
                Swift.max(abs(segment.from.x), abs(segment.from.y), abs(segment.to.x), abs(segment.to.y))
                    + segment.radius, "a segment")
        }
        for body in scenario.bodyDefinitions {
            consider(Swift.max(abs(body.position.x), abs(body.position.y)) + body.reach, "\(body.kind) \"\(body.id)\"")
        }
        // Bodies that arrive or are moved later: a spawn at its pose, a `set` at its position.
        var reaches: [String: Double] = [:]
        let moves = scenario.timeline.entries.contains {
            if case .set(let setting) = $0.action { return setting.position != nil }
            return false
        }
        if moves { for body in scenario.bodyDefinitions { reaches[body.id] = body.reach } }
        for (index, entry) in scenario.timeline.entries.enumerated() {
            switch entry.action {
            case .spawn(let body):
                consider(
                    Swift.max(abs(body.position.x), abs(body.position.y)) + body.reach,
                    "body \"\(body.id)\" spawned by timeline[\(index)]")
                if moves {
                    for k in 0..<entry.count { reaches[entry.spawnedID(k) ?? body.id] = body.reach }
                }
            case .set(let setting):
                guard let position = setting.position else { continue }
                consider(
                    Swift.max(abs(position.x), abs(position.y)) + (reaches[setting.body] ?? 0),
                    "body \"\(setting.body)\" moved by timeline[\(index)]")
            default:
                continue
            }
        }
        guard farthest.0 > limit else { return }
        let hash = worldObject["spatialIndex"]?["hash"]
        let (node, path) =
            hash?["cellSize"].map { ($0, "world.spatialIndex.hash.cellSize") }
            ?? (hash ?? worldObject.node, "world.spatialIndex.hash")
        throw worldObject.reader.error(
            at: node, path,
            "cell size \(NumberFormat.shortest(cellSize)) is too small for the scene: \(farthest.1) reaches "
                + "\(NumberFormat.shortest(farthest.0)) from the origin, beyond 2^30 cells (±\(NumberFormat.shortest(limit))); "
                + "Chipmunk's spatial hash indexes cells with a C int and hangs past 2^31: use a cell size of at least "
                + "\(NumberFormat.shortest(farthest.0 / 1_073_741_824)) or \"bbtree\"")
    }

    /// With a spatial hash, no shape's bounding box may cover more than
    /// `limits.maxHashCellsPerShape` cells, and all shapes together no more than
    /// `limits.maxHashCellsTotal` (Chipmunk walks every one of them).
    private static func checkHashCells(_ scenario: Scenario, worldObject: ObjectReader) throws(InputError) {
        guard case .hash(let cellSize, _) = scenario.world.spatialIndex else { return }
        func cells(_ width: Double, _ height: Double) -> Double {
            ((width / cellSize).rounded(.down) + 2) * ((height / cellSize).rounded(.down) + 2)
        }
        var worst: (cells: Double, what: String)?
        var total = 0.0
        func consider(_ count: Double, _ what: String) {
            total += count
            if count > Double(limits.maxHashCellsPerShape), count > (worst?.cells ?? 0) { worst = (count, what) }
        }
        for segment in scenario.allSegments {
            consider(
                cells(
                    abs(segment.to.x - segment.from.x) + 2 * segment.radius,
                    abs(segment.to.y - segment.from.y) + 2 * segment.radius), "a segment")
        }
        for body in scenario.bodyDefinitions {
            // Any rotation fits in a square of side twice the reach (a crate's diagonal).
            consider(cells(2 * body.reach, 2 * body.reach), "\(body.kind) \"\(body.id)\"")
        }
        // Spawned bodies count as if all were present: each repetition covers its own cells.
        for (index, entry) in scenario.timeline.entries.enumerated() {
            guard case .spawn(let body) = entry.action else { continue }
            let one = cells(2 * body.reach, 2 * body.reach)
            consider(one, "body \"\(body.id)\" spawned by timeline[\(index)]")
            total += one * Double(entry.count - 1)
        }
        if worst == nil, total > Double(limits.maxHashCellsTotal) {
            worst = (total, "all shapes together")
        }
        guard let worst else { return }
        // Blame cellSize where the file set it, else the hash object that defaulted it.
        let hash = worldObject["spatialIndex"]?["hash"]
        let (node, path) =
            hash?["cellSize"].map { ($0, "world.spatialIndex.hash.cellSize") }
            ?? (hash ?? worldObject.node, "world.spatialIndex.hash")
        throw worldObject.reader.error(
            at: node, path,
            "cell size \(NumberFormat.shortest(cellSize)) is too small: \(worst.what) would cover about "
                + "\(NumberFormat.shortest(worst.cells)) hash cells, more than the limit of "
                + "\(worst.what == "all shapes together" ? limits.maxHashCellsTotal : limits.maxHashCellsPerShape)")
    }
}
