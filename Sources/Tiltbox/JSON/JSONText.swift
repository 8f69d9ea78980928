/// A parsed JSON value written back as compact JSON text (numbers in shortest round-trip form).
enum JSONText {
    static func of(_ node: JSONNode) -> String {
        var out = JSONLineBuffer()
        append(node, to: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    private static func append(_ node: JSONNode, to out: inout JSONLineBuffer) {
        switch node.value {
        case .null: out.append("null")
        case .bool(let value): out.append(raw: value ? "true" : "false")
        case .number(let value): out.append(number: value)
        case .string(let value): out.append(string: value)
        case .array(let elements):
            out.append("[")
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(",") }
                append(element, to: &out)
            }
            out.append("]")
        case .object(let members):
            out.append("{")
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(",") }
                out.append(string: member.key)
                out.append(":")
                append(member.node, to: &out)
            }
            out.append("}")
        }
    }
}
