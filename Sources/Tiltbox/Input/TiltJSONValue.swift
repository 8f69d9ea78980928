import Foundation

/// A parsed JSON value, as the keyframe reader sees it.
///
/// `read(_:file:)` is the one place that touches a JSON parser: the project's own
/// `JSONParser`, which rounds numbers exactly and locates syntax errors.
enum TiltJSONValue {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([TiltJSONValue])
    case object([String: TiltJSONValue])

    /// Parses `data` as JSON. Syntax errors name the line and column.
    static func read(_ data: Data, file: String) throws(TiltError) -> TiltJSONValue {
        let parsed: Result<JSONNode, JSONSyntaxError> = data.withUnsafeBytes { raw in
            let bytes = raw.bindMemory(to: UInt8.self)
            return Result { () throws(JSONSyntaxError) in try JSONParser.parse(utf8: bytes) }
        }
        switch parsed {
        case .success(let node):
            return convert(node)
        case .failure(let error):
            return try fail(TiltError(file: file, line: error.location.line, column: error.location.column,
                                      reason: "not valid JSON: \(error.reason)"))
        }
    }

    private static func fail(_ error: TiltError) throws(TiltError) -> TiltJSONValue { throw error }

    private static func convert(_ node: JSONNode) -> TiltJSONValue {
        switch node.value {
        case .null: return .null
        case .bool(let b): return .bool(b)
        case .number(let d): return .number(d)
        case .string(let s): return .string(s)
        case .array(let elements): return .array(elements.map(convert))
        case .object(let members):
            // The parser rejects duplicate keys, so the dictionary loses nothing.
            var object: [String: TiltJSONValue] = [:]
            for member in members { object[member.key] = convert(member.node) }
            return .object(object)
        }
    }

    /// The value as plain Swift values (`String`, `Double`, `Bool`, `[Any]`, `[String: Any]`),
    /// for APIs such as `TimingCurve(jsonValue:)` that take any decoder's output.
    var plain: Any {
        switch self {
        case .null: return Optional<Any>.none as Any
        case .bool(let value): return value
        case .number(let value): return value
        case .string(let value): return value
        case .array(let values): return values.map(\.plain)
        case .object(let members): return members.mapValues(\.plain)
        }
    }

    /// A short name of the value's type, for messages ("expected a number, found a string").
    var typeName: String {
        switch self {
        case .null: return "null"
        case .bool: return "a boolean"
        case .number: return "a number"
        case .string: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }
}
