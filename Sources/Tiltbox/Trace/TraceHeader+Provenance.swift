/// The self-describing part of a trace header (docs/formats.md §3): what was run and where.
///
/// `tiltbox` is the version that wrote the trace, `source` the scenario and gravity input
/// with their SHA-256 and the options that shaped the input, and `platform` the machine's
/// fingerprint. `verify` re-runs what `source` describes and, when the traces diverge,
/// uses both to say why (the scenario changed, or another platform computed the reference).
/// All three are optional: traces written before they existed read as before.
extension TraceHeader {
    /// The scenario and gravity input of a run, with the options applied to the input.
    ///
    /// Paths are as a trace holds them: relative to the trace file's folder (for a trace on
    /// standard output, to the working directory), or absolute. `relativized(toTrace:)`
    /// turns working-directory paths into these; `resolvedPath(_:forTrace:)` turns them back.
    public struct Source: Hashable, Sendable {
        /// The scenario file, or `nil` for the built-in default scenario.
        public var scenario: String?
        /// SHA-256 of the scenario file's bytes (hex); `nil` for the built-in scenario.
        public var scenarioSHA256: String?
        /// The tilt input (a file, folder or zip), or `nil` when gravity came from `world.gravity`.
        public var tilt: String?
        /// SHA-256 of the tilt file actually read (the zip for a file inside one).
        public var tiltSHA256: String?
        /// The tilt input's format (`TiltFormat` raw value, such as `tiltboxCSV`).
        public var tiltFormat: String?
        /// The orientation, interpolation, world units per g and sign convention applied to
        /// the tilt input (each `nil` when there is no tilt input or it does not apply).
        public var orientation: Orientation?
        /// `source.interpolate`: how a recording was read between samples.
        public var interpolate: Interpolation?
        /// `source.g`: world units per 1 g.
        public var g: Double?
        /// `source.convention`: the sign convention applied to a Sensor Logger or phyphox recording.
        public var convention: SensorConvention?
        /// Scenario overrides by field path, each value as JSON text, in the order given.
        public var overrides: [Override]

        /// One scenario override: a field path and its JSON value as text.
        public struct Override: Hashable, Sendable {
            /// The field path in canonical form, such as `crates[*].friction` (the key in `source.overrides`).
            public var path: String
            /// The value as compact JSON text, such as `[0,-500]`.
            public var json: String
            /// Creates an override from its path and JSON text, taken as given.
            public init(path: String, json: String) {
                self.path = path
                self.json = json
            }
        }

        /// Creates a source; every input detail left out is `nil` (written as absent or `null`), and no overrides.
        public init(scenario: String?, scenarioSHA256: String? = nil, tilt: String? = nil, tiltSHA256: String? = nil,
                    tiltFormat: String? = nil, orientation: Orientation? = nil, interpolate: Interpolation? = nil,
                    g: Double? = nil, convention: SensorConvention? = nil, overrides: [Override] = []) {
            self.scenario = scenario
            self.scenarioSHA256 = scenarioSHA256
            self.tilt = tilt
            self.tiltSHA256 = tiltSHA256
            self.tiltFormat = tiltFormat
            self.orientation = orientation
            self.interpolate = interpolate
            self.g = g
            self.convention = convention
            self.overrides = overrides
        }

        /// This source with its working-directory paths rewritten relative to the folder of
        /// the trace at `tracePath` (`-`: standard output, paths stay relative to the working directory).
        public func relativized(toTrace tracePath: String) -> Source {
            guard tracePath != "-" else { return self }
            let folder = PathArithmetic.folder(of: PathArithmetic.absolute(tracePath))
            var copy = self
            copy.scenario = scenario.map { PathArithmetic.relative(PathArithmetic.absolute($0), from: folder) }
            copy.tilt = tilt.map { PathArithmetic.relative(PathArithmetic.absolute($0), from: folder) }
            return copy
        }

        /// A path read from the header of the trace at `tracePath`, as a path usable from
        /// the working directory.
        public static func resolvedPath(_ path: String, forTrace tracePath: String) -> String {
            guard tracePath != "-", !path.hasPrefix("/") else { return path }
            let folder = PathArithmetic.folder(of: tracePath)
            return PathArithmetic.normalized(folder.isEmpty ? path : folder + "/" + path)
        }
    }

    /// Where a trace was computed: bit-identical results are promised on one platform only.
    public struct Platform: Hashable, Sendable {
        /// `uname -m`, such as `x86_64` or `aarch64`.
        public var arch: String
        /// `linux`, `darwin`.
        public var os: String
        /// The C library and its version, such as `glibc 2.36` (it supplies `sin`, `cos`, …).
        public var libc: String
        /// SHA-256 of the Chipmunk library file loaded into the process.
        public var chipmunkSHA256: String?
        /// Whether the CPU has fused multiply-add (glibc picks FMA variants of its maths by it).
        public var fma: Bool?

        /// Creates a fingerprint from its values; `nil` where they could not be found out.
        public init(arch: String, os: String, libc: String, chipmunkSHA256: String?, fma: Bool?) {
            self.arch = arch
            self.os = os
            self.libc = libc
            self.chipmunkSHA256 = chipmunkSHA256
            self.fma = fma
        }

        /// The names of the fields where `other` differs from this one, in header order
        /// (`arch`, `os`, `libc`, `chipmunkSHA256`, `fma`); empty when they agree.
        public func differences(from other: Platform) -> [String] {
            var names: [String] = []
            if arch != other.arch { names.append("arch") }
            if os != other.os { names.append("os") }
            if libc != other.libc { names.append("libc") }
            if chipmunkSHA256 != other.chipmunkSHA256 { names.append("chipmunkSHA256") }
            if fma != other.fma { names.append("fma") }
            return names
        }

        /// One line for people: `aarch64 linux, glibc 2.36, FMA, Chipmunk 1a2b3c4d…`.
        public var summary: String {
            var text = "\(arch) \(os), \(libc)"
            if let fma { text += fma ? ", FMA" : ", no FMA" }
            if let chipmunkSHA256 { text += ", Chipmunk library \(chipmunkSHA256.prefix(12))…" }
            return text
        }
    }

    // MARK: - Writing

    /// Appends `,"tiltbox":…,"source":{…},"platform":{…}` for the keys that are set.
    func appendProvenance(to out: inout JSONLineBuffer) {
        if let tiltbox {
            out.append(",\"tiltbox\":")
            out.append(string: tiltbox)
        }
        if let source {
            out.append(",\"source\":{\"scenario\":")
            out.append(optionalString: source.scenario)
            if let hash = source.scenarioSHA256 {
                out.append(",\"scenarioSHA256\":")
                out.append(string: hash)
            }
            out.append(",\"tilt\":")
            out.append(optionalString: source.tilt)
            if let hash = source.tiltSHA256 {
                out.append(",\"tiltSHA256\":")
                out.append(string: hash)
            }
            if let format = source.tiltFormat {
                out.append(",\"tiltFormat\":")
                out.append(string: format)
            }
            if let orientation = source.orientation {
                out.append(",\"orientation\":")
                out.append(string: orientation.rawValue)
            }
            if let interpolate = source.interpolate {
                out.append(",\"interpolate\":")
                out.append(string: interpolate.rawValue)
            }
            if let g = source.g {
                out.append(",\"g\":")
                out.append(number: g)
            }
            if let convention = source.convention {
                out.append(",\"convention\":")
                out.append(string: convention.rawValue)
            }
            out.append(",\"overrides\":{")
            for (i, override) in source.overrides.enumerated() {
                if i > 0 { out.append(",") }
                out.append(string: override.path)
                out.append(":")
                out.append(raw: override.json)
            }
            out.append("}}")
        }
        if let platform {
            out.append(",\"platform\":{\"arch\":")
            out.append(string: platform.arch)
            out.append(",\"os\":")
            out.append(string: platform.os)
            out.append(",\"libc\":")
            out.append(string: platform.libc)
            if let hash = platform.chipmunkSHA256 {
                out.append(",\"chipmunkSHA256\":")
                out.append(string: hash)
            }
            if let fma = platform.fma {
                out.append(fma ? ",\"fma\":true" : ",\"fma\":false")
            }
            out.append("}")
        }
    }

    // MARK: - Reading

    /// Reads the `tiltbox`, `source` and `platform` keys of a header line, when present,
    /// through `reader` (which locates errors at the header's line). Keys it does not know
    /// (such as `space`) are left to others.
    mutating func readProvenance(from header: JSONNode, reader: FieldReader) throws(InputError) {
        let provenance = ProvenanceReader(reader: reader)
        if let node = header["tiltbox"] { tiltbox = try reader.string(node, "tiltbox", allowEmpty: true) }
        if let node = header["source"] { source = try provenance.source(node) }
        if let node = header["platform"] { platform = try provenance.platform(node) }
    }
}

/// Typed reading of the provenance keys, with errors naming the key path, line and column.
private struct ProvenanceReader {
    static let sourceKeys = ["scenario", "scenarioSHA256", "tilt", "tiltSHA256", "tiltFormat", "orientation",
                             "interpolate", "convention", "g", "overrides"]
    static let platformKeys = ["arch", "os", "libc", "chipmunkSHA256", "fma"]

    let reader: FieldReader

    func object(_ node: JSONNode, _ path: String, keys: [String]) throws(InputError) {
        guard node.objectMembers != nil else {
            throw reader.error(at: node, path, "expected an object, got \(node.value.typeName)")
        }
        try reader.refuseMisspeltKeys(node, path, keys: keys)
    }

    func optionalString(_ parent: JSONNode, _ key: String, _ path: String) throws(InputError) -> String? {
        guard let node = parent[key], !isNull(node) else { return nil }
        return try reader.string(node, path + "." + key, allowEmpty: true)
    }

    func choice<T: RawRepresentable & CaseIterable>(_ parent: JSONNode, _ key: String, _ path: String) throws(InputError) -> T?
        where T.RawValue == String
    {
        guard let node = parent[key], !isNull(node) else { return nil }
        return try reader.enumeration(node, path + "." + key, as: T.self)
    }

    func source(_ node: JSONNode) throws(InputError) -> TraceHeader.Source {
        try object(node, "source", keys: Self.sourceKeys)
        var source = TraceHeader.Source(scenario: try optionalString(node, "scenario", "source"))
        source.scenarioSHA256 = try optionalString(node, "scenarioSHA256", "source")
        source.tilt = try optionalString(node, "tilt", "source")
        source.tiltSHA256 = try optionalString(node, "tiltSHA256", "source")
        source.tiltFormat = try optionalString(node, "tiltFormat", "source")
        source.orientation = try choice(node, "orientation", "source")
        source.interpolate = try choice(node, "interpolate", "source")
        source.convention = try choice(node, "convention", "source")
        if let g = node["g"], !isNull(g) {
            guard let value = g.numberValue, value.isFinite, value > 0 else {
                throw reader.error(at: g, "source.g", "expected a positive number, got \(g.value.typeName)")
            }
            source.g = value
        }
        if let overrides = node["overrides"] {
            guard overrides.objectMembers != nil else {
                throw reader.error(at: overrides, "source.overrides", "expected an object, got \(overrides.value.typeName)")
            }
            source.overrides = (overrides.objectMembers ?? []).map {
                TraceHeader.Source.Override(path: $0.key, json: JSONText.of($0.node))
            }
        }
        return source
    }

    func platform(_ node: JSONNode) throws(InputError) -> TraceHeader.Platform {
        try object(node, "platform", keys: Self.platformKeys)
        var fma: Bool?
        if let fmaNode = node["fma"], !isNull(fmaNode) {
            guard case .bool(let value) = fmaNode.value else {
                throw reader.error(at: fmaNode, "platform.fma", "expected true or false, got \(fmaNode.value.typeName)")
            }
            fma = value
        }
        return TraceHeader.Platform(
            arch: try optionalString(node, "arch", "platform") ?? "unknown",
            os: try optionalString(node, "os", "platform") ?? "unknown",
            libc: try optionalString(node, "libc", "platform") ?? "unknown",
            chipmunkSHA256: try optionalString(node, "chipmunkSHA256", "platform"),
            fma: fma)
    }

    private func isNull(_ node: JSONNode) -> Bool {
        if case .null = node.value { return true }
        return false
    }
}
