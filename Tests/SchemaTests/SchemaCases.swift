import Foundation

@_spi(Tools) @testable import Tiltbox

/// The formats docs/schema/ describes: `<rawValue>.schema.json`.
enum SchemaFormat: String, Sendable {
    /// `tiltbox-scenario/1`, read by `ScenarioLoader`.
    case scenario
    /// `tiltbox-tilt/1` keyframe files, read by `KeyframeFile`.
    case keyframes
}

/// One scenario (or keyframe file) text and the JSON Schema's verdict on it, from
/// `schema-cases.py` (Python's `jsonschema`, Draft 2020-12, the schema checked with
/// `check_schema` first).
struct SchemaCase: Sendable {
    /// Where the text comes from.
    enum Origin: String, Sendable {
        /// A file of Scenarios/ as shipped.
        case shipped
        /// Tests/SchemaTests/every-key.json (every-key-keyframes.json and the keyframe fixtures of
        /// InputTests), files with every key of the format.
        case base
        /// A scenario written literally in the test suite's sources.
        case tests
        /// A seed or regression of the fuzz targets that read the format (Fuzz/corpus, Fuzz/regressions).
        case corpus
        /// A deterministic mutation of a shipped scenario.
        case mutation
    }

    var format: SchemaFormat
    var name: String
    var origin: Origin
    var text: String
    /// Whether the schema accepts the text.
    var schemaAccepts: Bool
    /// The schema's first complaint (empty when it accepts).
    var schemaReason: String

    /// The loader's verdict: `nil` when it loads, else its error. Keyframes are read as a run
    /// reads them by default: portrait, 980 units/s² per g.
    var loaderError: InputError? {
        do {
            switch format {
            case .scenario:
                _ = try ScenarioLoader.parse(text: text, file: "Scenarios/case.json", baseDirectory: "Scenarios")
            case .keyframes:
                _ = try KeyframeFile.load(Data(text.utf8), file: "tilt.json", orientation: .portrait, g: 980)
            }
            return nil
        } catch {
            return error
        }
    }
}

/// Runs `schema-cases.py` once per format (about 10 s for scenarios) and keeps its cases for every test.
enum SchemaCases {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// The package root (three folders above this file).
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static let scenarios: Result<[SchemaCase], Failure> = load(.scenario)
    static let keyframes: Result<[SchemaCase], Failure> = load(.keyframes)

    static func cases(_ format: SchemaFormat = .scenario) throws -> [SchemaCase] {
        switch format {
        case .scenario: return try scenarios.get()
        case .keyframes: return try keyframes.get()
        }
    }

    private static func load(_ format: SchemaFormat) -> Result<[SchemaCase], Failure> {
        let script = root.appendingPathComponent("Tests/SchemaTests/schema-cases.py").path
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltbox-schema-cases-\(format.rawValue)-\(getpid()).jsonl")
        defer { try? FileManager.default.removeItem(at: output) }
        guard FileManager.default.createFile(atPath: output.path, contents: nil),
            let handle = try? FileHandle(forWritingTo: output)
        else {
            return .failure(Failure(description: "cannot create \(output.path)"))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, root.path, format.rawValue]
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
            return .failure(
                Failure(
                    description: "python3 \(script) exited \(process.terminationStatus) (is jsonschema "
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
                let accepts = object["schema"] as? Bool, let why = object["why"] as? String
            else {
                return .failure(
                    Failure(
                        description:
                            "unreadable line from \(script): \(String(decoding: line.prefix(200), as: UTF8.self))"))
            }
            cases.append(
                SchemaCase(
                    format: format, name: name, origin: origin, text: text, schemaAccepts: accepts, schemaReason: why))
        }
        return .success(cases)
    }
}
