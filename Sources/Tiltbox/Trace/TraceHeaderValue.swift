/// How one kind of value in a trace header is written and read: a string, a finite number, a
/// list of pairs, an object with its own keys. `TraceHeaderKey` pairs a key with one of these.
///
/// Reading checks the value and throws an `InputError` at its line, column and field path
/// (`sizes[2][0]: expected a number, got a string`).
struct TraceHeaderValue<V>: Sendable {
    /// Appends the value as JSON.
    let write: @Sendable (V, inout JSONLineBuffer) -> Void
    /// Reads the value at the field path given; `nil` when it is well formed but holds nothing
    /// to keep (a `space` object that lacks a setting is ignored as a whole).
    let read: @Sendable (JSONNode, String, TraceLineReader) throws(InputError) -> V?

    /// This kind of value, refusing a value for which `problem` gives a reason
    /// (`dt`: `must be > 0`); `problem` returns `nil` for a value it accepts.
    func checked(_ problem: @escaping @Sendable (V) -> String?) -> Self {
        let read = self.read
        return Self(
            write: write,
            read: { node, path, lines throws(InputError) in
                guard let value = try read(node, path, lines) else { return nil }
                if let reason = problem(value) { throw lines.error(at: node, path: path, reason: reason) }
                return value
            })
    }
}

// MARK: - Scalars

extension TraceHeaderValue where V == String {
    /// Any string, the empty one included.
    static var string: Self {
        Self(
            write: { value, out in out.append(string: value) },
            read: { node, path, lines throws(InputError) in try lines.string(node, path) })
    }
}

extension TraceHeaderValue where V == Double {
    /// A finite number, written in shortest round-trip form.
    static var number: Self {
        Self(
            write: { value, out in out.append(number: value) },
            read: { node, path, lines throws(InputError) in try lines.number(node, path) })
    }
}

extension TraceHeaderValue where V == Int {
    /// A whole number of at least `minimum`.
    static func integer(minimum: Int) -> Self {
        Self(
            write: { value, out in out.append(integer: value) },
            read: { node, path, lines throws(InputError) in try lines.integer(node, path, minimum: minimum) })
    }
}

extension TraceHeaderValue where V == Vec2 {
    /// `[x,y]`, both finite.
    static var pair: Self {
        Self(
            write: { value, out in out.append(pair: value) },
            read: { node, path, lines throws(InputError) in try lines.pair(node, path) })
    }
}

extension TraceHeaderValue where V: RawRepresentable & Sendable, V.RawValue == String {
    /// A string naming one of `V`'s raw values; another is refused with `unknown(text)`.
    static func rawValue(unknown: @escaping @Sendable (String) -> String) -> Self {
        Self(
            write: { value, out in out.append(string: value.rawValue) },
            read: { node, path, lines throws(InputError) in
                let text = try lines.string(node, path)
                guard let value = V(rawValue: text) else {
                    throw lines.error(at: node, path: path, reason: unknown(text))
                }
                return value
            })
    }
}

extension TraceHeaderValue where V: RawRepresentable & CaseIterable & Sendable, V.RawValue == String {
    /// A string naming one of `V`'s cases; another is refused with the list of them (and the
    /// nearest, for a misspelling).
    static var choice: Self {
        Self(
            write: { value, out in out.append(string: value.rawValue) },
            read: { node, path, lines throws(InputError) in try lines.reader.enumeration(node, path, as: V.self) })
    }
}

// MARK: - Lists and objects

extension TraceHeaderValue {
    /// `[e,e,…]`, each element read at `path[i]`; with `count`, exactly that many.
    static func list<E>(_ element: TraceHeaderValue<E>, count: Int? = nil) -> Self where V == [E] {
        Self(
            write: { values, out in
                out.append("[")
                for (i, value) in values.enumerated() {
                    if i > 0 { out.append(",") }
                    element.write(value, &out)
                }
                out.append("]")
            },
            read: { node, path, lines throws(InputError) in
                var values: [E] = []
                for (i, item) in try lines.array(node, path, count: count).enumerated() {
                    if let value = try element.read(item, FieldReader.element(path, i), lines) { values.append(value) }
                }
                return values
            })
    }

    /// An object whose members `keys` write and read, starting from `empty` (which holds the
    /// defaults of keys that may be absent); unknown keys near one of `keys` are refused.
    static func object(_ keys: [TraceHeaderKey<V>], empty: V) -> Self where V: Sendable {
        Self(
            write: { value, out in TraceHeaderKey.writeObject(value, keys, to: &out) },
            read: { node, path, lines throws(InputError) in
                guard node.objectMembers != nil else {
                    throw lines.error(at: node, path: path, reason: "expected an object, got \(node.value.typeName)")
                }
                try TraceHeaderKey.refuseMisspellings(in: node, keys, path: path, lines: lines)
                var value = empty
                try TraceHeaderKey.readMembers(of: node, keys, path: path, lines: lines, into: &value)
                return value
            })
    }
}
