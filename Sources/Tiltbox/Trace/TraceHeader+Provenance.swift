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
        public init(
            scenario: String?, scenarioSHA256: String? = nil, tilt: String? = nil, tiltSHA256: String? = nil,
            tiltFormat: String? = nil, orientation: Orientation? = nil, interpolate: Interpolation? = nil,
            g: Double? = nil, convention: SensorConvention? = nil, overrides: [Override] = []
        ) {
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

        /// One line for people: `aarch64 linux, glibc 2.36, FMA, Chipmunk 1a2b3c4d…`.
        public var summary: String {
            var text = "\(arch) \(os), \(libc)"
            if let fma { text += fma ? ", FMA" : ", no FMA" }
            if let chipmunkSHA256 { text += ", Chipmunk library \(chipmunkSHA256.prefix(12))…" }
            return text
        }
    }
}

// MARK: - Values of the provenance keys

extension TraceHeaderValue where V == Double {
    /// `source.g`: a positive, finite number.
    static var positiveNumber: Self {
        Self(
            write: { value, out in out.append(number: value) },
            read: { node, path, lines throws(InputError) in
                guard let value = node.numberValue, value.isFinite, value > 0 else {
                    throw lines.error(
                        at: node, path: path, reason: "expected a positive number, got \(node.value.typeName)")
                }
                return value
            })
    }
}

extension TraceHeaderValue where V == Bool {
    /// `true` or `false`.
    static var bool: Self {
        Self(
            write: { value, out in out.append(value ? "true" : "false") },
            read: { node, path, lines throws(InputError) in
                guard case .bool(let value) = node.value else {
                    throw lines.error(
                        at: node, path: path, reason: "expected true or false, got \(node.value.typeName)")
                }
                return value
            })
    }
}

extension TraceHeaderValue where V == [TraceHeader.Source.Override] {
    /// `source.overrides`: `{"path":value,…}`, each value JSON text kept as written.
    static var overrides: Self {
        Self(
            write: { overrides, out in
                out.append("{")
                for (i, override) in overrides.enumerated() {
                    if i > 0 { out.append(",") }
                    out.append(string: override.path)
                    out.append(":")
                    out.append(raw: override.json)
                }
                out.append("}")
            },
            read: { node, path, lines throws(InputError) in
                guard let members = node.objectMembers else {
                    throw lines.error(at: node, path: path, reason: "expected an object, got \(node.value.typeName)")
                }
                return members.map { TraceHeader.Source.Override(path: $0.key, json: JSONText.of($0.node)) }
            })
    }
}
