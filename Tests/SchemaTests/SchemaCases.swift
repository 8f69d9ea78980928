import Foundation
@_spi(Tools) @testable import Tiltbox

/// One scenario text and the JSON Schema's verdict on it, from `schema-cases.py`
/// (Python's `jsonschema`, Draft 2020-12, the schema checked with `check_schema` first).
struct SchemaCase: Sendable {
    /// Where the text comes from.
    enum Origin: String, Sendable {
        /// A file of Scenarios/ as shipped.
        case shipped
        /// Tests/SchemaTests/every-key.json, a scenario with every key of the format.
        case base
        /// A scenario written literally in the test suite's sources.
        case tests
        /// A deterministic mutation of a shipped scenario.
        case mutation
    }

    var name: String
    var origin: Origin
    var text: String
    /// Whether the schema accepts the text.
    var schemaAccepts: Bool
    /// The schema's first complaint (empty when it accepts).
    var schemaReason: String

    /// The loader's verdict: `nil` when it loads, else its error.
    var loaderError: InputError? {
        do {
            _ = try ScenarioLoader.parse(text: text, file: "Scenarios/case.json", baseDirectory: "Scenarios")
            return nil
        } catch {
            return error
        }
    }
}

/// Runs `schema-cases.py` once (about 10 s) and keeps its cases for every test.
enum SchemaCases {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The package root (three folders above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let all: Result<[SchemaCase], Failure> = load()

    static func cases() throws -> [SchemaCase] {
        try all.get()
    }

    private static func load() -> Result<[SchemaCase], Failure> {
        let script = root.appendingPathComponent("Tests/SchemaTests/schema-cases.py").path
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltbox-schema-cases-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: output) }
        guard FileManager.default.createFile(atPath: output.path, contents: nil),
              let handle = try? FileHandle(forWritingTo: output) else {
            return .failure(Failure(description: "cannot create \(output.path)"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, root.path]
        process.standardOutput = handle
        let errors = Pipe()
        process.standardError = errors
        do { try process.run() } catch {
            return .failure(Failure(description: "cannot run python3 \(script): \(error)"))
        }
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try? handle.close()
        guard process.terminationStatus == 0 else {
            return .failure(Failure(description: "python3 \(script) exited \(process.terminationStatus) (is jsonschema "
                + "installed? `make test-deps`): \(String(decoding: stderr, as: UTF8.self))"))
        }
        guard let data = try? Data(contentsOf: output) else {
            return .failure(Failure(description: "cannot read \(output.path)"))
        }
        var cases: [SchemaCase] = []
        for line in data.split(separator: UInt8(ascii: "\n")) {
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let name = object["name"] as? String, let originName = object["origin"] as? String,
                  let origin = SchemaCase.Origin(rawValue: originName), let text = object["text"] as? String,
                  let accepts = object["schema"] as? Bool, let why = object["why"] as? String else {
                return .failure(Failure(description: "unreadable line from \(script): \(String(decoding: line.prefix(200), as: UTF8.self))"))
            }
            cases.append(SchemaCase(name: name, origin: origin, text: text, schemaAccepts: accepts, schemaReason: why))
        }
        return .success(cases)
    }
}
