/// One key of a JSON object in a trace header (the header line itself, its `source`, its
/// `platform`, a segment or a joint): the key's name, when and how its value is written from
/// an `Owner`, and how it is read back into one.
///
/// Each object's keys are declared once, in a table in the order they are written
/// (`TraceHeader.keys`, TraceHeader+Keys.swift). The writer (`writeObject`) and the reader
/// (`readMembers`) both walk that table, so a new key is one entry in it. A key's value is
/// written and read by a `TraceHeaderValue`, which also names the key's field path in errors.
struct TraceHeaderKey<Owner>: Sendable {
    /// The JSON key.
    let name: String
    /// The owner's field the key holds (`\TraceHeader.Source.tilt` for `source.tilt`).
    let field: AnyKeyPath & Sendable
    /// What notes for people call the value, such as `Chipmunk library` for `chipmunkSHA256`.
    private(set) var label: String?
    /// Whether a reader refuses an unknown key one or two edits from this one as a misspelling.
    private(set) var refusesMisspellings = true
    /// Whether `owner` has a value to write for this key; a key without one is left out.
    let isWritten: @Sendable (Owner) -> Bool
    /// Appends the key's value (what follows `"name":`).
    let writeValue: @Sendable (Owner, inout JSONLineBuffer) -> Void
    /// Reads the key's member (`nil`: the object has none) of `object` into the owner;
    /// the `String` is the member's field path, such as `source.g`.
    let read: @Sendable (JSONNode?, _ object: JSONNode, String, TraceLineReader, inout Owner) throws(InputError) -> Void

    /// This key with `label` as what notes for people call its value.
    func labelled(_ label: String) -> Self {
        var key = self
        key.label = label
        return key
    }

    /// This key, with unknown keys near its name ignored instead of refused as misspellings.
    func acceptingNearNames() -> Self {
        var key = self
        key.refusesMisspellings = false
        return key
    }

    /// The name of the key of `keys` that holds `field`; a field no key holds is a programmer error.
    static func name(of field: PartialKeyPath<Owner>, in keys: [Self]) -> String {
        guard let key = keys.first(where: { $0.field as AnyKeyPath == field }) else {
            preconditionFailure("no header key holds \(field)")
        }
        return key.name
    }

    /// The value as written (without the key), or `nil` when `owner` leaves the key out.
    func text(of owner: Owner) -> [UInt8]? {
        guard isWritten(owner) else { return nil }
        var out = JSONLineBuffer()
        writeValue(owner, &out)
        return out.bytes
    }
}

// MARK: - Kinds of keys

extension TraceHeaderKey {
    /// A key every object has: always written; an object without it is refused (`missing "name"`).
    static func required<V>(
        _ name: String, _ field: WritableKeyPath<Owner, V> & Sendable,
        _ value: TraceHeaderValue<V>
    ) -> Self {
        Self(
            name: name, field: field, isWritten: { _ in true },
            writeValue: { owner, out in value.write(owner[keyPath: field], &out) },
            read: { node, object, path, lines, owner throws(InputError) in
                guard let node else { throw lines.error(at: object, reason: "missing \"\(name)\"") }
                if let read = try value.read(node, path, lines) { owner[keyPath: field] = read }
            })
    }

    /// A key written when its field is set; absent, it reads as `nil` (a `null` is read as a
    /// value, and refused by every kind of value but `nullable`'s).
    static func optional<V>(
        _ name: String, _ field: WritableKeyPath<Owner, V?> & Sendable,
        _ value: TraceHeaderValue<V>
    ) -> Self {
        optional(name, field) { _ in value }
    }

    /// An optional key whose kind of value depends on what the keys before it read, such as a
    /// list with one entry per body of the header's `bodies`.
    static func optional<V>(
        _ name: String, _ field: WritableKeyPath<Owner, V?> & Sendable,
        _ value: @escaping @Sendable (Owner) -> TraceHeaderValue<V>
    ) -> Self {
        Self(
            name: name, field: field, isWritten: { $0[keyPath: field] != nil },
            writeValue: { owner, out in
                if let set = owner[keyPath: field] { value(owner).write(set, &out) }
            },
            read: { node, _, path, lines, owner throws(InputError) in
                guard let node else { return }
                owner[keyPath: field] = try value(owner).read(node, path, lines)
            })
    }

    /// A key whose `null` means the same as its absence: `nil`. Written when set, or with
    /// `writesNull` always (`null` when not set).
    static func nullable<V>(
        _ name: String, _ field: WritableKeyPath<Owner, V?> & Sendable,
        _ value: TraceHeaderValue<V>, writesNull: Bool = false
    ) -> Self {
        Self(
            name: name, field: field, isWritten: { writesNull || $0[keyPath: field] != nil },
            writeValue: { owner, out in
                if let set = owner[keyPath: field] { value.write(set, &out) } else { out.append("null") }
            },
            read: { node, _, path, lines, owner throws(InputError) in
                guard let node, !node.isNull else { return }
                owner[keyPath: field] = try value.read(node, path, lines)
            })
    }

    /// A key with a default: the owner's value as a reader starts from it is kept when the key
    /// is absent (or, with `nullIsDefault`, `null`). Written always, or with `omittedWhen`
    /// unless the field holds that value.
    static func defaulted<V: Equatable & Sendable>(
        _ name: String, _ field: WritableKeyPath<Owner, V> & Sendable,
        _ value: TraceHeaderValue<V>, omittedWhen omitted: V? = nil,
        nullIsDefault: Bool = false
    ) -> Self {
        Self(
            name: name, field: field, isWritten: { omitted == nil || $0[keyPath: field] != omitted },
            writeValue: { owner, out in value.write(owner[keyPath: field], &out) },
            read: { node, _, path, lines, owner throws(InputError) in
                guard let node, !(nullIsDefault && node.isNull) else { return }
                if let read = try value.read(node, path, lines) { owner[keyPath: field] = read }
            })
    }
}

// MARK: - Objects

extension TraceHeaderKey {
    /// Appends `owner` as one JSON object, `{"a":…,"b":…}`: the keys in table order, each
    /// left out when it has nothing to write.
    static func writeObject(_ owner: Owner, _ keys: [Self], to out: inout JSONLineBuffer) {
        out.append("{")
        var first = true
        for key in keys where key.isWritten(owner) {
            if !first { out.append(",") }
            first = false
            out.append(string: key.name)
            out.append(":")
            key.writeValue(owner, &out)
        }
        out.append("}")
    }

    /// Refuses an unknown key of `object` (at field path `path`, `""` for the header line) that
    /// is one or two edits from one of `keys`; other unknown keys are left (a later version's).
    static func refuseMisspellings(
        in object: JSONNode, _ keys: [Self], path: String,
        lines: TraceLineReader
    ) throws(InputError) {
        try lines.reader.refuseMisspeltKeys(object, path, keys: keys.filter(\.refusesMisspellings).map(\.name))
    }

    /// Reads the members of `object` (at field path `path`) named by `keys` into `owner`, in
    /// table order: the first problem in that order is the one reported.
    static func readMembers(
        of object: JSONNode, _ keys: [Self], path: String, lines: TraceLineReader,
        into owner: inout Owner
    ) throws(InputError) {
        for key in keys {
            try key.read(object[key.name], object, FieldReader.member(path, key.name), lines, &owner)
        }
    }
}

extension JSONNode {
    /// Whether the value is JSON's `null`.
    var isNull: Bool {
        if case .null = value { return true }
        return false
    }
}
