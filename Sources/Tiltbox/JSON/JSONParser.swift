#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A parsed JSON value that remembers where it stood in the source, so that a
/// semantic error (`crates[3].size[1] must be > 0`) can still name a line and column.
@_spi(Tools) public struct JSONNode: Sendable {
    public var value: JSONValue
    public var location: SourceLocation
    /// For an object member, where its key stood (the opening quote), so that an
    /// unknown key can be reported at the key rather than at its value.
    public var keyLocation: SourceLocation? = nil
}

/// The JSON data model. Objects keep their members in source order (never a
/// dictionary, whose order is not stable), and numbers are parsed to the nearest
/// `Double` (correctly rounded, so a shortest round-trip number reads back to its bits).
@_spi(Tools) public enum JSONValue: Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONNode])
    case object([(key: String, node: JSONNode)])

    /// A short name of the value's type, for error messages ("expected a number, got a string").
    public var typeName: String {
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

/// A JSON syntax error at a 1-based line and column.
@_spi(Tools) public struct JSONSyntaxError: Error, Sendable, CustomStringConvertible {
    public var location: SourceLocation
    public var reason: String

    public var description: String { "\(location): \(reason)" }
}

/// A strict RFC 8259 JSON parser over UTF-8 bytes that records the location of every value.
///
/// Nesting is capped (`maxDepth`) so hostile input cannot exhaust the stack; duplicate
/// object keys are rejected because which one "wins" would be ambiguous.
@_spi(Tools) public struct JSONParser {
    /// The deepest nesting of arrays and objects accepted.
    public static let maxDepth = 256

    private let bytes: UnsafeBufferPointer<UInt8>
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var depthLimit = JSONParser.maxDepth
    /// Top-level keys whose values are kept (`nil`: all); see `Options.keptTopLevelKeys`.
    private var keptTopLevelKeys: Set<String>?
    /// Above 0 while parsing a value that is checked and dropped: nothing is kept.
    private var discarding = 0
    /// The top-level key whose array's elements go to `elementSink` one at a time.
    private var streamedKey: String?
    private var elementSink: ((Int, JSONNode) -> Bool)?
    /// `Options.maxValues`, and how many more values may be kept.
    private var valueBudget = Int.max
    private var valuesLeft = Int.max

    /// How far a parse may go and what it keeps, for readers that must stay bounded.
    public struct Options: Sendable {
        /// The deepest nesting accepted (at most `JSONParser.maxDepth`).
        public var maxDepth: Int
        /// When set, the values of top-level object members with other keys are checked
        /// as JSON but not kept (read as `null`): a reader that ignores unknown keys then
        /// holds nothing for them, however large. Duplicate keys inside them are not looked for.
        public var keptTopLevelKeys: Set<String>?
        /// The most values (numbers, strings, arrays, ...) kept for the document, or for
        /// each element of a streamed array: a bound on the tree's memory whatever the text.
        public var maxValues: Int

        /// Options with the given limits; the defaults are `parse(utf8:)`'s (depth `JSONParser.maxDepth`, all kept, no value bound).
        public init(maxDepth: Int = JSONParser.maxDepth, keptTopLevelKeys: Set<String>? = nil, maxValues: Int = .max) {
            self.maxDepth = min(maxDepth, JSONParser.maxDepth)
            self.keptTopLevelKeys = keptTopLevelKeys
            self.maxValues = maxValues
        }
    }

    private init(bytes: UnsafeBufferPointer<UInt8>, options: Options = Options()) {
        self.bytes = bytes
        depthLimit = options.maxDepth
        keptTopLevelKeys = options.keptTopLevelKeys
        valueBudget = options.maxValues
        valuesLeft = options.maxValues
    }

    /// Parses one JSON document from UTF-8 text; trailing non-space text is an error.
    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONNode {
        var copy = text
        let result: Result<JSONNode, JSONSyntaxError> = copy.withUTF8 { buffer in
            Result { () throws(JSONSyntaxError) in try parse(utf8: buffer) }
        }
        return try result.get()
    }

    /// Parses one JSON document from UTF-8 bytes; trailing non-space text is an error.
    public static func parse(utf8 buffer: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONNode {
        try parse(utf8: buffer, options: Options())
    }

    /// Parses one JSON document from UTF-8 bytes within `options`.
    public static func parse(utf8 buffer: UnsafeBufferPointer<UInt8>, options: Options) throws(JSONSyntaxError)
        -> JSONNode
    {
        var parser = JSONParser(bytes: buffer, options: options)
        return try parser.parseDocument()
    }

    /// Parses one JSON document whose top level is an object, handing the elements of the
    /// array at its key `key` to `element` one at a time (index, element) instead of keeping
    /// them: memory for the largest element, not for the whole array. The returned object
    /// holds that array empty. `element` returns `false` to stop; the parse then ends with
    /// the returned tree cut short (the caller has its own error to report).
    public static func parse(
        utf8 buffer: UnsafeBufferPointer<UInt8>, options: Options = Options(), streamingArrayAt key: String,
        element: (Int, JSONNode) -> Bool
    ) throws(JSONSyntaxError) -> JSONNode? {
        let result: Result<JSONNode, JSONSyntaxError> = withoutActuallyEscaping(element) { sink in
            var parser = JSONParser(bytes: buffer, options: options)
            parser.streamedKey = key
            parser.elementSink = sink
            return Result { () throws(JSONSyntaxError) in try parser.parseDocument() }
        }
        switch result {
        case .success(let node): return node
        case .failure(let error) where error.reason == Self.stopped: return nil
        case .failure(let error): throw error
        }
    }

    private static let stopped = "\u{0}stopped by the reader"

    private mutating func parseDocument() throws(JSONSyntaxError) -> JSONNode {
        skipByteOrderMark()
        skipWhitespace()
        let node = try parseValue(depth: 0)
        skipWhitespace()
        if index < bytes.count {
            throw error("unexpected text after the JSON value")
        }
        return node
    }

    // MARK: - Scanning

    private var location: SourceLocation {
        // Columns count UTF-8 bytes from 1, which matches characters for ASCII text.
        SourceLocation(line: line, column: index - lineStart + 1)
    }

    private func error(_ reason: String) -> JSONSyntaxError {
        JSONSyntaxError(location: location, reason: reason)
    }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private mutating func skipByteOrderMark() {
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            index = 3
            lineStart = 3
        }
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D:
                index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default:
                return
            }
        }
    }

    private func describe(_ byte: UInt8?) -> String {
        guard let byte else { return "end of file" }
        if byte >= 0x20 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16))"
    }

    // MARK: - Values

    private mutating func parseValue(depth: Int) throws(JSONSyntaxError) -> JSONNode {
        let start = location
        guard let byte = current else { throw error("expected a value, found end of file") }
        if discarding == 0 {
            guard valuesLeft > 0 else { throw error("more than \(valueBudget) values") }
            valuesLeft -= 1
        }
        switch byte {
        case UInt8(ascii: "{"):
            guard depth < depthLimit else { throw error("nesting deeper than \(depthLimit) levels") }
            return JSONNode(value: try parseObject(depth: depth + 1), location: start)
        case UInt8(ascii: "["):
            guard depth < depthLimit else { throw error("nesting deeper than \(depthLimit) levels") }
            return JSONNode(value: try parseArray(depth: depth + 1), location: start)
        case UInt8(ascii: "\""):
            return JSONNode(value: .string(try parseString()), location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return JSONNode(value: .number(try parseNumber()), location: start)
        case UInt8(ascii: "t"):
            try expectLiteral("true")
            return JSONNode(value: .bool(true), location: start)
        case UInt8(ascii: "f"):
            try expectLiteral("false")
            return JSONNode(value: .bool(false), location: start)
        case UInt8(ascii: "n"):
            try expectLiteral("null")
            return JSONNode(value: .null, location: start)
        default:
            throw error("expected a value, found \(describe(byte))")
        }
    }

    private mutating func expectLiteral(_ word: String) throws(JSONSyntaxError) {
        let start = index
        let w = Array(word.utf8)
        let count = w.count
        var matched = index + count <= bytes.count
        if matched {
            for i in 0..<count where bytes[start + i] != w[i] { matched = false }
        }
        guard matched else { throw error("expected '\(word)'") }
        index += count
    }

    private mutating func parseObject(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1 // {
        var members: [(key: String, node: JSONNode)] = []
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw error("expected a key in double quotes, found \(describe(current))")
            }
            let keyLocation = location
            let key = try parseString()
            if discarding == 0, members.contains(where: { $0.key == key }) {
                throw JSONSyntaxError(location: keyLocation, reason: "duplicate key \"\(key)\"")
            }
            skipWhitespace()
            guard current == UInt8(ascii: ":") else {
                throw error("expected ':' after a key, found \(describe(current))")
            }
            index += 1
            skipWhitespace()
            let topLevel = depth == 1 && discarding == 0
            if topLevel, let streamedKey, key == streamedKey, current == UInt8(ascii: "[") {
                let start = location
                var node = JSONNode(value: try streamArray(depth: depth), location: start)
                node.keyLocation = keyLocation
                members.append((key: key, node: node))
            } else if topLevel, let keptTopLevelKeys, !keptTopLevelKeys.contains(key) {
                let start = location
                discarding += 1
                _ = try parseValue(depth: depth)
                discarding -= 1
                var node = JSONNode(value: .null, location: start)
                node.keyLocation = keyLocation
                members.append((key: key, node: node))
            } else {
                var node = try parseValue(depth: depth)
                node.keyLocation = keyLocation
                if discarding == 0 { members.append((key: key, node: node)) }
            }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                return .object(members)
            default:
                throw error("expected ',' or '}' in object, found \(describe(current))")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        index += 1 // [
        var elements: [JSONNode] = []
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            let element = try parseValue(depth: depth)
            if discarding == 0 { elements.append(element) }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                return .array(elements)
            default:
                throw error("expected ',' or ']' in array, found \(describe(current))")
            }
        }
    }

    /// The array at the streamed key: each element parsed, handed over and let go.
    private mutating func streamArray(depth: Int) throws(JSONSyntaxError) -> JSONValue {
        guard depth < depthLimit else { throw error("nesting deeper than \(depthLimit) levels") }
        index += 1 // [
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return .array([])
        }
        var count = 0
        while true {
            skipWhitespace()
            valuesLeft = valueBudget
            let element = try parseValue(depth: depth + 1)
            if let elementSink, !elementSink(count, element) {
                throw JSONSyntaxError(location: location, reason: Self.stopped)
            }
            count += 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                // What follows the array has a budget of its own, as each element had.
                valuesLeft = valueBudget
                return .array([])
            default:
                throw error("expected ',' or ']' in array, found \(describe(current))")
            }
        }
    }

    private mutating func parseString() throws(JSONSyntaxError) -> String {
        index += 1 // opening quote
        var utf8: [UInt8] = []
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let b = bytes[index]
            if b == UInt8(ascii: "\"") {
                let s = decodeUTF8(UnsafeBufferPointer(rebasing: bytes[start..<index]))
                index += 1
                if let s { return s }
                throw JSONSyntaxError(
                    location: SourceLocation(line: line, column: start - lineStart), reason: "string is not valid UTF-8"
                )
            }
            if b == UInt8(ascii: "\\") || b < 0x20 { break }
            index += 1
        }
        utf8.append(contentsOf: bytes[start..<index])
        while true {
            guard let b = current else { throw error("unterminated string") }
            switch b {
            case UInt8(ascii: "\""):
                index += 1
                guard let s = decodeUTF8(utf8) else { throw error("string is not valid UTF-8") }
                return s
            case UInt8(ascii: "\\"):
                index += 1
                guard let e = current else { throw error("unterminated string") }
                index += 1
                switch e {
                case UInt8(ascii: "\""): utf8.append(0x22)
                case UInt8(ascii: "\\"): utf8.append(0x5C)
                case UInt8(ascii: "/"): utf8.append(0x2F)
                case UInt8(ascii: "b"): utf8.append(0x08)
                case UInt8(ascii: "f"): utf8.append(0x0C)
                case UInt8(ascii: "n"): utf8.append(0x0A)
                case UInt8(ascii: "r"): utf8.append(0x0D)
                case UInt8(ascii: "t"): utf8.append(0x09)
                case UInt8(ascii: "u"):
                    var scalar = try parseHex4()
                    if (0xD800..<0xDC00).contains(scalar) {
                        guard current == UInt8(ascii: "\\"), index + 1 < bytes.count,
                            bytes[index + 1] == UInt8(ascii: "u")
                        else {
                            throw error("unpaired UTF-16 surrogate in \\u escape")
                        }
                        index += 2
                        let low = try parseHex4()
                        guard (0xDC00..<0xE000).contains(low) else {
                            throw error("unpaired UTF-16 surrogate in \\u escape")
                        }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    } else if (0xDC00..<0xE000).contains(scalar) {
                        throw error("unpaired UTF-16 surrogate in \\u escape")
                    }
                    guard let u = Unicode.Scalar(scalar) else { throw error("invalid \\u escape") }
                    utf8.append(contentsOf: Array(String(Character(u)).utf8))
                default:
                    index -= 1
                    throw error("invalid escape '\\\(Character(Unicode.Scalar(e)))'")
                }
            default:
                if b < 0x20 { throw error("control character in string (write it as an escape)") }
                utf8.append(b)
                index += 1
            }
        }
    }

    private mutating func parseHex4() throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard let b = current else { throw error("unterminated \\u escape") }
            let digit: UInt8
            switch b {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = b - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = b - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = b - UInt8(ascii: "A") + 10
            default: throw error("expected a hex digit in \\u escape, found \(describe(b))")
            }
            value = value * 16 + UInt32(digit)
            index += 1
        }
        return value
    }

    private func decodeUTF8<C: Collection<UInt8>>(_ bytes: C) -> String? {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        var scalars = String.UnicodeScalarView()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue(let s): scalars.append(s)
            case .emptyInput: return String(scalars)
            case .error: return nil
            }
        }
    }

    /// Parses a JSON number with the grammar checked by hand and the value by `strtod`,
    /// which rounds correctly, so shortest round-trip text reads back to the same bits.
    private mutating func parseNumber() throws(JSONSyntaxError) -> Double {
        let start = index
        func isDigit(_ b: UInt8?) -> Bool { b.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        if current == UInt8(ascii: "-") { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if isDigit(current) { throw error("leading zeros are not allowed in numbers") }
        } else if isDigit(current) {
            while isDigit(current) { index += 1 }
        } else {
            throw error("expected a digit, found \(describe(current))")
        }
        if current == UInt8(ascii: ".") {
            index += 1
            guard isDigit(current) else { throw error("expected a digit after '.', found \(describe(current))") }
            while isDigit(current) { index += 1 }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            guard isDigit(current) else { throw error("expected a digit in the exponent, found \(describe(current))") }
            while isDigit(current) { index += 1 }
        }
        return JSONParser.strtodBytes(UnsafeBufferPointer(rebasing: bytes[start..<index]))
    }

    /// Converts validated number text to a `Double` with the C library's correctly rounded `strtod`.
    static func strtodBytes(_ text: UnsafeBufferPointer<UInt8>) -> Double {
        let count = text.count
        if count < 64 {
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
                for i in 0..<count { buffer[i] = CChar(bitPattern: text[i]) }
                buffer[count] = 0
                return strtod(buffer.baseAddress!, nil)
            }
        }
        var copy = text.map { CChar(bitPattern: $0) }
        copy.append(0)
        return strtod(copy, nil)
    }
}

// MARK: - Convenience accessors

extension JSONNode {
    /// The member named `key` when this is an object.
    @_spi(Tools) public subscript(key: String) -> JSONNode? {
        guard case .object(let members) = value else { return nil }
        return members.first(where: { $0.key == key })?.node
    }

    @_spi(Tools) public var numberValue: Double? {
        if case .number(let d) = value { return d }
        return nil
    }

    @_spi(Tools) public var stringValue: String? {
        if case .string(let s) = value { return s }
        return nil
    }

    @_spi(Tools) public var arrayValue: [JSONNode]? {
        if case .array(let a) = value { return a }
        return nil
    }

    @_spi(Tools) public var objectMembers: [(key: String, node: JSONNode)]? {
        if case .object(let m) = value { return m }
        return nil
    }

    /// The value as plain Swift values (`String`, `Double`, `Bool`, `[Any]`,
    /// `[String: Any]`, `nil` for null), for APIs that take any decoder's output, such as
    /// `TimingCurve(jsonValue:)`. Objects lose nothing: the parser rejects duplicate keys.
    @_spi(Tools) public var plainValue: Any {
        switch value {
        case .null: return Optional<Any>.none as Any
        case .bool(let b): return b
        case .number(let d): return d
        case .string(let s): return s
        case .array(let elements): return elements.map(\.plainValue)
        case .object(let members):
            var object: [String: Any] = [:]
            for member in members { object[member.key] = member.node.plainValue }
            return object
        }
    }
}
