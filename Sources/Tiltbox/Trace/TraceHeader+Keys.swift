/// The trace header's keys, declared once (docs/formats.md §3): each table lists an object's
/// keys in the order they are written, with when each is written and how it is read. The
/// writer (`append(to:)`) and the reader (`read(_:lines:)`) both walk these tables, so a new
/// key is one entry here (and its field on the type).
extension TraceHeader {
    /// The key read before all others: a line without it is not a trace header.
    static let formatKey = "format"

    /// The header line's keys. The required part comes first; every optional key is left out
    /// when `nil` (`records` when it is `states`), and `tiltbox`, `source` and `platform` come
    /// last. `records` is read but a key near its name is not refused as a misspelling of it,
    /// as before it was declared here.
    static let keys: [TraceHeaderKey<TraceHeader>] = [
        .required(formatKey, \.format, .string),
        .required("scenario", \.scenario, .string),
        .required("engine", \.engine, .string),
        .required("spatialIndex", \.spatialIndex, .string),
        .required("dt", \.dt, TraceHeaderValue.number.checked { $0 > 0 ? nil : "must be > 0" }),
        .required("every", \.every, .integer(minimum: 1)),
        .required(
            "fields", \.fields,
            TraceHeaderValue.list(.string).checked { $0.isEmpty ? "must name at least one field" : nil }),
        .required("bodies", \.bodies, .list(.string)),
        .defaulted("records", \.records, .recordForm, omittedWhen: .states).acceptingNearNames(),
        .optional("world", \.worldSize, .worldSize),
        .optional(
            "segments", \.segments, .list(.object(Segment.keys, empty: Segment(from: .zero, to: .zero, radius: 0)))),
        .optional("sizes", \.sizes) { .list(.pair, count: $0.bodies.count) },
        .optional("hz", \.hz, .number),
        .optional("duration", \.duration, .number),
        .optional("tilt", \.tilt, .string),
        .optional("masses", \.masses) { .list(.number, count: $0.bodies.count) },
        .optional("space", \.space, .spaceSettings),
        .optional("types", \.types) { .list(.bodyType, count: $0.bodies.count) },
        .optional("shapes", \.shapes) { .list(.list(.shapeGeometry), count: $0.bodies.count) },
        .optional("joints", \.joints) {
            .list(.object(JointOutline.keys(bodies: $0.bodies), empty: JointOutline(kind: "", a: "", b: "")))
        },
        .optional("tiltbox", \.tiltbox, .string),
        .optional("source", \.source, .object(Source.keys, empty: Source(scenario: nil))),
        .optional("platform", \.platform, .object(Platform.keys, empty: .unknown)),
    ]

    /// The name of the header line's key that holds `field` (`records` for `\.records`), for
    /// messages that name a key.
    static func keyName(of field: PartialKeyPath<TraceHeader>) -> String {
        TraceHeaderKey.name(of: field, in: keys)
    }

    /// Appends the header line, newline included. Numbers must be finite.
    func append(to out: inout JSONLineBuffer) {
        TraceHeaderKey.writeObject(self, Self.keys, to: &out)
        out.append("\n")
    }

    /// Reads a header line: its format first (a line that is not a trace header is not
    /// quoted back), then an unknown key near a known one is refused as a misspelling, then
    /// each key in table order.
    static func read(_ line: JSONNode, lines: TraceLineReader) throws(InputError) -> TraceHeader {
        guard line.objectMembers != nil, let formatNode = line[formatKey] else {
            throw lines.error(
                at: line,
                reason:
                    "not a tiltbox trace: the first line must be a header with \"\(formatKey)\": \"\(currentFormat)\"")
        }
        let format = try lines.string(formatNode, formatKey)
        guard format == currentFormat else {
            throw lines.error(
                at: formatNode, path: formatKey, reason: "unsupported trace format (expected \"\(currentFormat)\")")
        }
        try TraceHeaderKey.refuseMisspellings(in: line, keys, path: "", lines: lines)
        var header = TraceHeader(
            format: format, scenario: "", spatialIndex: "", dt: 0, every: 0, fields: [], bodies: [])
        try TraceHeaderKey.readMembers(of: line, keys, path: "", lines: lines, into: &header)
        return header
    }
}

extension TraceHeader.Segment {
    /// `{"from":[x,y],"to":[x,y],"radius":r}`.
    static let keys: [TraceHeaderKey<TraceHeader.Segment>] = [
        .required("from", \.from, .pair),
        .required("to", \.to, .pair),
        .required("radius", \.radius, .number),
    ]
}

extension TraceHeader.JointOutline {
    /// `{"kind":K,"a":ID,"b":ID,"anchorA":[x,y],"anchorB":[x,y]}` and a groove joint's
    /// `"groove":[[x,y],[x,y]]`, and first its `"id"` when the joint has one (docs/formats.md §8);
    /// `a` and `b` must name one of `bodies` or `"static"`.
    static func keys(bodies: [String]) -> [TraceHeaderKey<TraceHeader.JointOutline>] {
        keys(bodies: Set(bodies))
    }

    /// `keys(bodies:)` with the bodies as a set.
    static func keys(bodies: Set<String>) -> [TraceHeaderKey<TraceHeader.JointOutline>] {
        let end = TraceHeaderValue<String>.bodyID(among: bodies)
        return [
            .optional("id", \.id, .string),
            .required("kind", \.kind, .string),
            .required("a", \.a, end),
            .required("b", \.b, end),
            .defaulted("anchorA", \.anchorA, .pair),
            .defaulted("anchorB", \.anchorB, .pair),
            .optional("groove", \.groove, .list(.pair, count: 2)),
        ]
    }
}

extension TraceHeader.Source {
    /// `scenario` and `tilt` are written as `null` when not set; the input details only when
    /// set; `overrides` always (`{}` for none). A `null` reads as the key's absence.
    static let keys: [TraceHeaderKey<TraceHeader.Source>] = [
        .nullable("scenario", \.scenario, .string, writesNull: true),
        .nullable("scenarioSHA256", \.scenarioSHA256, .string),
        .nullable("tilt", \.tilt, .string, writesNull: true),
        .nullable("tiltSHA256", \.tiltSHA256, .string),
        .nullable("tiltFormat", \.tiltFormat, .string),
        .nullable("orientation", \.orientation, .choice),
        .nullable("interpolate", \.interpolate, .choice),
        .nullable("g", \.g, .positiveNumber),
        .nullable("convention", \.convention, .choice),
        .defaulted("overrides", \.overrides, .overrides),
    ]

    /// The field path in errors of the `source` key that holds `field`, such as `source.tilt`.
    static func fieldPath(of field: PartialKeyPath<TraceHeader.Source>) -> String {
        FieldReader.member(TraceHeader.keyName(of: \.source), TraceHeaderKey.name(of: field, in: keys))
    }
}

extension TraceHeader.Platform {
    /// `arch`, `os` and `libc` always (`unknown` when a reader finds them absent or `null`),
    /// `chipmunkSHA256` and `fma` when known. Each label is how notes for people name the value.
    static let keys: [TraceHeaderKey<TraceHeader.Platform>] = [
        TraceHeaderKey.defaulted("arch", \.arch, .string, nullIsDefault: true).labelled("architecture"),
        TraceHeaderKey.defaulted("os", \.os, .string, nullIsDefault: true).labelled("operating system"),
        TraceHeaderKey.defaulted("libc", \.libc, .string, nullIsDefault: true).labelled("C library"),
        TraceHeaderKey.nullable("chipmunkSHA256", \.chipmunkSHA256, .string).labelled("Chipmunk library"),
        TraceHeaderKey.nullable("fma", \.fma, .bool).labelled("FMA"),
    ]

    /// A fingerprint with nothing known: what a reader starts from.
    static let unknown = TraceHeader.Platform(
        arch: "unknown", os: "unknown", libc: "unknown", chipmunkSHA256: nil, fma: nil)

    /// What notes for people call the value of the key `name` (`Chipmunk library` for
    /// `chipmunkSHA256`); the key itself for a key without a label.
    public static func label(ofKey name: String) -> String {
        keys.first { $0.name == name }?.label ?? name
    }

    /// The names of the keys whose values differ between this fingerprint and `other` (a
    /// key one of them leaves out differs from one it writes), in header order; empty when
    /// they agree.
    public func differences(from other: TraceHeader.Platform) -> [String] {
        Self.keys.filter { $0.text(of: self) != $0.text(of: other) }.map(\.name)
    }
}

// MARK: - Values of the header line

extension TraceHeaderValue where V == TraceRecordForm {
    /// `"states"` or `"hashes"`.
    static var recordForm: Self {
        .rawValue { "unknown record form \"\($0)\" (expected \"states\" or \"hashes\")" }
    }
}

extension TraceHeaderValue where V == Vec2 {
    /// `world`: `{"size":[w,h]}`; an object without `size` is accepted and holds nothing.
    static var worldSize: Self {
        let object = TraceHeaderValue<Vec2?>.object([.optional("size", \.self, .pair)], empty: nil)
        return Self(
            write: { size, out in object.write(size, &out) },
            read: { node, path, lines throws(InputError) in try object.read(node, path, lines) ?? nil })
    }
}

extension TraceHeaderValue where V == SpaceSettings {
    /// `space`: every setting a number (`sleepTimeThreshold` may be `null`, infinity: sleeping
    /// off, and is written so: JSON has no infinity, and traces hold no non-finite number). An
    /// object missing a setting, or naming another, is accepted and ignored as a whole (a
    /// later version may record more or fewer).
    static var spaceSettings: Self {
        Self(
            write: { space, out in
                out.append("{")
                for (i, setting) in space.namedValues.enumerated() {
                    if i > 0 { out.append(",") }
                    out.append(string: setting.name)
                    out.append(":")
                    if setting.value.isInfinite { out.append("null") } else { out.append(number: setting.value) }
                }
                out.append("}")
            },
            read: { node, path, lines throws(InputError) in
                guard node.objectMembers != nil else {
                    throw lines.error(at: node, path: path, reason: "expected an object, got \(node.value.typeName)")
                }
                func value(_ name: String) throws(InputError) -> Double? {
                    guard let member = node[name] else { return nil }
                    if name == "sleepTimeThreshold", member.isNull { return .infinity }
                    return try lines.number(member, path + "." + name)
                }
                guard let iterations = try value("iterations"), let damping = try value("damping"),
                    let slop = try value("collisionSlop"), let bias = try value("collisionBias"),
                    let persistence = try value("collisionPersistence"), let sleep = try value("sleepTimeThreshold"),
                    let idle = try value("idleSpeedThreshold"),
                    let iterationCount = Int(exactly: iterations), let persistenceCount = Int(exactly: persistence)
                else { return nil }
                return SpaceSettings(
                    iterations: iterationCount, damping: damping, collisionSlop: slop, collisionBias: bias,
                    collisionPersistence: persistenceCount, sleepTimeThreshold: sleep,
                    idleSpeedThreshold: idle)
            })
    }
}
