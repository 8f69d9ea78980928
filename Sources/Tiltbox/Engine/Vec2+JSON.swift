// Reading and writing the engine's vector as JSON `[x, y]`: the JSON layer sits below the
// engine and knows no engine type, so the engine adds these itself.

extension FieldReader {
    /// A `[x, y]` pair, each component checked against `bounds` at `path[0]`, `path[1]`.
    func vec2(_ node: JSONNode, _ path: String, _ bounds: Bounds) throws(InputError) -> Vec2 {
        guard case .array(let elements) = node.value else {
            throw error(at: node, path, "expected an array of two numbers [x, y], got \(node.value.typeName)")
        }
        guard elements.count == 2 else {
            throw error(at: node, path, "expected an array of two numbers [x, y], got \(elements.count) elements")
        }
        let x = try number(elements[0], FieldReader.element(path, 0), bounds)
        let y = try number(elements[1], FieldReader.element(path, 1), bounds)
        return Vec2(x, y)
    }
}

extension ObjectReader {
    func vec2(_ key: String, default fallback: Vec2?, _ bounds: Bounds) throws(InputError) -> Vec2 {
        guard let node = try member(key, required: fallback == nil) else { return fallback ?? .zero }
        return try reader.vec2(node, path(key), bounds)
    }
}

extension JSONLineBuffer {
    /// Appends `[a,b]`, the JSON form of a vector.
    mutating func append(pair value: Vec2) {
        append(byte: UInt8(ascii: "["))
        append(number: value.x)
        append(byte: UInt8(ascii: ","))
        append(number: value.y)
        append(byte: UInt8(ascii: "]"))
    }
}
