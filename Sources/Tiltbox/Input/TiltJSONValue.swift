import Foundation

/// A parsed JSON value, as the keyframe reader sees it.
///
/// `read(_:file:)` is the one place that touches a JSON parser (Foundation's
/// `JSONSerialization` for now), so swapping in the project's own located parser
/// changes this file only.
enum TiltJSONValue {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([TiltJSONValue])
    case object([String: TiltJSONValue])

    /// Parses `data` as JSON. Syntax errors name the line and column.
    static func read(_ data: Data, file: String) throws(TiltError) -> TiltJSONValue {
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
        } catch {
            throw syntaxError(error, data: data, file: file)
        }
        return convert(object)
    }

    /// Foundation reports "… around character N." (or "line L, column C"); turn a
    /// character offset into a 1-based line and column.
    private static func syntaxError(_ error: any Error, data: Data, file: String) -> TiltError {
        let detail = ((error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String)
            ?? error.localizedDescription
        var line: Int?, column: Int?
        if let range = detail.range(of: "character "),
           let offset = Int(detail[range.upperBound...].prefix(while: \.isNumber)) {
            let before = String(decoding: data.prefix(offset), as: UTF8.self)
            let lines = before.split(separator: "\n", omittingEmptySubsequences: false)
            line = lines.count
            column = (lines.last?.count ?? 0) + 1
        }
        return TiltError(file: file, line: line, column: column, reason: "not valid JSON: \(detail)")
    }

    private static let boolType = ObjectIdentifier(type(of: NSNumber(value: true)))

    private static func convert(_ value: Any) -> TiltJSONValue {
        switch value {
        case let string as String: return .string(string)
        case let array as [Any]: return .array(array.map(convert))
        case let object as [String: Any]: return .object(object.mapValues(convert))
        case let number as NSNumber:
            // JSONSerialization gives booleans as NSNumber too; tell them apart by class.
            if ObjectIdentifier(type(of: number)) == boolType { return .bool(number.boolValue) }
            return .number(number.doubleValue)
        default: return .null
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
