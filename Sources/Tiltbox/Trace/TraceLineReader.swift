/// Typed access to one line of a trace's JSON, with errors located at the file's line:
/// what the header's keys (`TraceHeaderKey`), the records and the end line are read with.
struct TraceLineReader {
    let file: String
    var lineNumber = 0

    init(file: String) {
        self.file = file
    }

    /// The shared typed reader, locating errors at this line of the file.
    var reader: FieldReader { FieldReader(file: file, firstLine: lineNumber) }

    func error(at node: JSONNode?, path: String? = nil, reason: String) -> InputError {
        guard let node else {
            return InputError(
                file: file, location: SourceLocation(line: lineNumber, column: 1), path: path, reason: reason)
        }
        return reader.error(at: node, path, reason)
    }

    func member(_ object: JSONNode, _ key: String) throws(InputError) -> JSONNode {
        guard let node = object[key] else { throw error(at: object, reason: "missing \"\(key)\"") }
        return node
    }

    /// A finite number: a trace never holds `1e400` (read as infinity), whatever the field.
    func number(_ node: JSONNode, _ path: String) throws(InputError) -> Double {
        guard let value = node.numberValue else {
            throw error(at: node, path: path, reason: "expected a number, got \(node.value.typeName)")
        }
        guard value.isFinite else { throw error(at: node, path: path, reason: "must be a finite number") }
        return value
    }

    func integer(_ node: JSONNode, _ path: String, minimum: Int) throws(InputError) -> Int {
        let value = try number(node, path)
        guard let integer = Int(exactly: value) else {
            throw error(at: node, path: path, reason: "expected a whole number, got \(NumberFormat.shortest(value))")
        }
        guard integer >= minimum else {
            throw error(at: node, path: path, reason: "must be at least \(minimum), got \(integer)")
        }
        return integer
    }

    func string(_ node: JSONNode, _ path: String) throws(InputError) -> String {
        try reader.string(node, path, allowEmpty: true)
    }

    func array(_ node: JSONNode, _ path: String, count: Int? = nil) throws(InputError) -> [JSONNode] {
        guard let elements = node.arrayValue else {
            throw error(at: node, path: path, reason: "expected an array, got \(node.value.typeName)")
        }
        if let count, elements.count != count {
            throw error(at: node, path: path, reason: "expected \(count) elements, got \(elements.count)")
        }
        return elements
    }

    func pair(_ node: JSONNode, _ path: String) throws(InputError) -> Vec2 {
        let elements = try array(node, path, count: 2)
        return Vec2(try number(elements[0], path + "[0]"), try number(elements[1], path + "[1]"))
    }

    func strings(_ node: JSONNode, _ path: String) throws(InputError) -> [String] {
        var result: [String] = []
        for (i, element) in try array(node, path).enumerated() {
            result.append(try string(element, "\(path)[\(i)]"))
        }
        return result
    }
}
