import Foundation

/// Finds the scenarios `tiltbox test` runs: every scenario file with `expect` among the
/// files and folders given (folders searched recursively, sorted, skipping hidden folders).
@_spi(Tools) public enum ScenarioDiscovery {
    /// The largest file looked at in a folder; larger JSON files are not read (a scenario's
    /// own limit is `ScenarioLimits.maxFileBytes`).
    public static let maxFileBytes = ScenarioLoader.limits.maxFileBytes

    /// The scenario files with `expect` under `paths`, in order: each folder's `.json` files
    /// that are scenarios (`"format": "tiltbox-scenario/1"`) with an `expect` key, sorted by path;
    /// a file named directly must be one.
    /// - Throws: `InputError` for a path that does not exist, or a file named directly that
    ///   is not a scenario with `expect`.
    public static func scenarios(in paths: [String]) throws(InputError) -> [String] {
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw InputError(file: path, reason: "no such file or folder")
            }
            if isDirectory.boolValue {
                found += folder(path).filter { declaresExpectations($0) == true }
            } else {
                switch declaresExpectations(path) {
                case true?: found.append(path)
                case false?: throw InputError(file: path, reason: "this scenario has no \"expect\": nothing to test")
                case nil: throw InputError(file: path, reason: "not a scenario file (tiltbox-scenario/1)")
                }
            }
        }
        var seen = Set<String>()
        return found.filter { seen.insert($0).inserted }
    }

    /// What a `tiltbox test` summary records as its `manifestSHA256`: the SHA-256 of the
    /// scenario paths found, one per line (the list stands for a manifest).
    public static func listSHA256(_ scenarios: [String]) -> String {
        SHA256.hex(of: Array(scenarios.joined(separator: "\n").utf8))
    }

    /// Every `.json` file under `root`, sorted, hidden files and folders left out.
    static func folder(_ root: String) -> [String] {
        guard let walker = FileManager.default.enumerator(atPath: root) else { return [] }
        var files: [String] = []
        while let relative = walker.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            if name.hasPrefix(".") {
                walker.skipDescendants()
                continue
            }
            guard name.hasSuffix(".json") else { continue }
            files.append(root.hasSuffix("/") ? root + relative : root + "/" + relative)
        }
        return files.sorted()
    }

    /// `true` for a scenario with `expect`, `false` for one without, `nil` for a file that is
    /// not a scenario (not JSON, another format, too large, unreadable).
    static func declaresExpectations(_ path: String) -> Bool? {
        guard let data = try? RegularFile.read(path, maxBytes: maxFileBytes, tooLarge: { _ in "too large" }) else {
            return nil
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(String(decoding: data, as: UTF8.self))
        } catch {
            return nil
        }
        guard root["format"]?.stringValue == ScenarioLoader.format else { return nil }
        return root["expect"] != nil
    }
}
