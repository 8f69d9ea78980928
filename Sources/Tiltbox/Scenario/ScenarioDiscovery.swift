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
    ///
    /// A `.json` file in a folder that cannot be read or is not valid JSON is an error, not
    /// skipped: a truncated or mangled scenario must not drop out of a CI gate unnoticed. Valid
    /// JSON of another format (a keyframes file, a batch manifest) and files over
    /// `maxFileBytes` are skipped.
    /// - Throws: `InputError` for a path that does not exist, a `.json` file that cannot be
    ///   read or parsed (with the line and column), or a file named directly that is not a
    ///   scenario with `expect`.
    public static func scenarios(in paths: [String]) throws(InputError) -> [String] {
        var found: [String] = []
        for path in paths {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                throw InputError(file: path, reason: "no such file or folder")
            }
            if isDirectory.boolValue {
                for file in folder(path) where try declaresExpectations(file, skippingTooLarge: true) == true {
                    found.append(file)
                }
            } else {
                switch try declaresExpectations(path, skippingTooLarge: false) {
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

    /// `true` for a scenario with `expect`, `false` for one without, `nil` for valid JSON of
    /// another format (or, with `skippingTooLarge`, a file over `maxFileBytes`).
    /// - Throws: `InputError` for a file that cannot be read, is too large (unless skipped) or
    ///   is not valid JSON, at the parser's line and column.
    static func declaresExpectations(_ path: String, skippingTooLarge: Bool) throws(InputError) -> Bool? {
        if skippingTooLarge, let size = try? RegularFile.size(of: path), size > UInt64(maxFileBytes) { return nil }
        let data = try RegularFile.read(path, maxBytes: maxFileBytes) { size in
            "the file is \(size) bytes; a scenario is at most \(maxFileBytes)"
        }
        let root: JSONNode
        do {
            root = try JSONParser.parse(String(decoding: data, as: UTF8.self))
        } catch {
            throw InputError(file: path, location: error.location, reason: "not valid JSON: \(error.reason)")
        }
        guard root["format"]?.stringValue == ScenarioLoader.format else { return nil }
        return root["expect"] != nil
    }
}
