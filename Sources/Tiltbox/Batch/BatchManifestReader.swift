/// Reads the jobs of a batch manifest from located JSON, field by field, so every error
/// names the file, the line:column and the field path (`jobs[1].orientation`).
struct BatchManifestReader {
    let file: String
    let baseDirectory: String?
    /// The manifest's folder as the file system resolves it (`PathArithmetic.physical`), inside
    /// which every `trace` must lie; `nil` when `--allow-outputs-outside` lets them go anywhere.
    var outputsFolder: String? = nil

    static let verifyKeys = ["name", "verify", "tilt", "orientation", "interpolate", "g", "convention", "set"]
    static let runKeys = [
        "name", "run", "tilt", "orientation", "interpolate", "g", "convention",
        "duration", "every", "trace", "hashes", "set", "sweep",
    ]

    private func error(_ node: JSONNode, _ path: String, _ reason: String) -> InputError {
        InputError(file: file, location: node.location, path: path.isEmpty ? nil : path, reason: reason)
    }

    func jobs(_ root: JSONNode) throws(InputError) -> [BatchJob] {
        guard let members = root.objectMembers else {
            throw error(root, "", "expected an object, got \(root.value.typeName)")
        }
        // The format before the keys: an unknown key is named only in a file that is a manifest.
        guard let format = root["format"] else {
            throw error(root, "", "missing \"format\": \"\(BatchManifest.format)\"")
        }
        guard format.stringValue == BatchManifest.format else {
            throw error(format, "format", "expected \"\(BatchManifest.format)\"")
        }
        for member in members where !["format", "jobs"].contains(member.key) {
            throw InputError(
                file: file, location: member.node.keyLocation ?? member.node.location, path: member.key,
                reason: "unknown key \"\(member.key)\"; valid keys: format, jobs")
        }
        guard let list = root["jobs"] else { throw error(root, "", "missing \"jobs\"") }
        guard let elements = list.arrayValue else {
            throw error(list, "jobs", "expected an array, got \(list.value.typeName)")
        }
        guard !elements.isEmpty else { throw error(list, "jobs", "no jobs") }
        var jobs: [BatchJob] = []
        var names: [String: Int] = [:]
        var points = 0
        for (i, element) in elements.enumerated() {
            let job = try self.job(element, "jobs[\(i)]")
            if let first = names[job.name] {
                throw error(
                    element["name"] ?? element, "jobs[\(i)].name",
                    "\"\(job.name)\" is already the name of jobs[\(first)]")
            }
            names[job.name] = i
            points += job.sweep.reduce(1) { $0 * $1.values.count }
            guard points <= BatchManifest.maxPoints else {
                throw error(element, "jobs[\(i)]", "the jobs expand to more than \(BatchManifest.maxPoints) runs")
            }
            jobs.append(job)
        }
        return jobs
    }

    private func job(_ node: JSONNode, _ path: String) throws(InputError) -> BatchJob {
        guard let members = node.objectMembers else {
            throw error(node, path, "expected an object, got \(node.value.typeName)")
        }
        let isVerify = node["verify"] != nil
        if isVerify, node["run"] != nil {
            throw error(node, path, "a job has one of \"verify\" and \"run\", not both")
        }
        guard isVerify || node["run"] != nil else {
            throw error(node, path, "a job needs \"verify\" (a golden trace) or \"run\" (a scenario)")
        }
        let keys = isVerify ? Self.verifyKeys : Self.runKeys
        for member in members where !keys.contains(member.key) {
            throw InputError(
                file: file, location: member.node.keyLocation ?? member.node.location, path: "\(path).\(member.key)",
                reason: "unknown key \"\(member.key)\" in a \(isVerify ? "verify" : "run") job; valid keys: "
                    + keys.joined(separator: ", "))
        }
        guard let nameNode = node["name"] else { throw error(node, path, "missing \"name\"") }
        let name = try string(nameNode, "\(path).name")
        guard !name.contains(where: { $0.isNewline }) else {
            throw error(nameNode, "\(path).name", "a name is one line")
        }
        var job =
            isVerify
            ? BatchJob(name: name, kind: .verify(golden: try self.path(node["verify"]!, "\(path).verify")))
            : BatchJob(name: name, kind: .run(scenario: try self.path(node["run"]!, "\(path).run")))
        for member in members {
            let at = "\(path).\(member.key)"
            let value = member.node
            switch member.key {
            case "tilt":
                let tilt = try self.path(value, at)
                job.inputs.append(tilt)
                job.options += ["--tilt", tilt]
            case "orientation":
                job.options += ["--orientation", try choice(value, at, Orientation.allCases.map(\.rawValue))]
            case "interpolate":
                job.options += ["--interpolate", try choice(value, at, Interpolation.allCases.map(\.rawValue))]
            case "convention":
                job.options += ["--convention", try choice(value, at, SensorConvention.allCases.map(\.rawValue))]
            case "g":
                job.options += [
                    "--g",
                    NumberFormat.shortest(try number(value, at, above: 0, atMost: ScenarioLoader.limits.maxGravity)),
                ]
            case "duration":
                job.options += [
                    "--duration",
                    NumberFormat.shortest(try number(value, at, above: 0, atMost: ScenarioLoader.limits.maxDuration)),
                ]
            case "every":
                let every = try number(value, at, above: 0, atMost: Double(ScenarioLoader.limits.maxTotalSteps))
                guard every.rounded() == every else { throw error(value, at, "expected a whole number ≥ 1") }
                job.options += ["--every", String(Int(every))]
            case "trace":
                let trace = try self.path(value, at)
                try requireInside(trace, value, at)
                job.outputs.append(trace)
                job.options += ["--trace", trace]
            case "hashes":
                guard case .bool(let on) = value.value else {
                    throw error(value, at, "expected true or false, got \(value.value.typeName)")
                }
                job.hashes = on
            case "set":
                job.overrides = try overrides(value, at).map { ($0.path, $0.node.compactJSONText) }
            case "sweep":
                for entry in try overrides(value, at) {
                    let listAt = "\(at).\(entry.path)"
                    guard let values = entry.node.arrayValue else {
                        throw error(entry.node, listAt, "expected an array of values, got \(entry.node.value.typeName)")
                    }
                    guard !values.isEmpty else { throw error(entry.node, listAt, "an empty list sweeps nothing") }
                    job.sweep.append((entry.path, values.map(\.compactJSONText)))
                }
            default:
                break
            }
        }
        return job
    }

    /// An object of override paths to values (`set`, `sweep`).
    private func overrides(_ node: JSONNode, _ path: String) throws(InputError) -> [(path: String, node: JSONNode)] {
        guard let members = node.objectMembers else {
            throw error(node, path, "expected an object of PATH: value, got \(node.value.typeName)")
        }
        for member in members where member.key.isEmpty || member.key.contains(where: { $0.isWhitespace }) {
            throw InputError(
                file: file, location: member.node.keyLocation ?? member.node.location, path: path,
                reason: "\"\(member.key)\" is not a scenario path (like world.gravity or crates[*].friction)")
        }
        return members.map { ($0.key, $0.node) }
    }

    private func string(_ node: JSONNode, _ path: String) throws(InputError) -> String {
        guard let text = node.stringValue else {
            throw error(node, path, "expected a string, got \(node.value.typeName)")
        }
        guard !text.isEmpty else { throw error(node, path, "must not be empty") }
        return text
    }

    /// A path, resolved against the manifest's folder (never taken for an option).
    private func path(_ node: JSONNode, _ path: String) throws(InputError) -> String {
        let text = try string(node, path)
        guard !text.contains("\0") else { throw error(node, path, "a path has no NUL character") }
        let resolved = ScenarioLoader.resolve(text, against: baseDirectory)
        return resolved.hasPrefix("-") ? "./" + resolved : resolved
    }

    /// Refuses an output (`trace`) whose folder, once `..` and symbolic links of existing
    /// folders are resolved, is not the manifest's folder or below it: a manifest from
    /// elsewhere must not be able to write over `~/.bashrc` or `../../etc`.
    private func requireInside(_ output: String, _ node: JSONNode, _ path: String) throws(InputError) {
        guard let outputsFolder else { return }
        let folder = PathArithmetic.physical(
            PathArithmetic.folder(of: output).isEmpty ? "." : PathArithmetic.folder(of: output))
        guard PathArithmetic.isInside(folder, folder: outputsFolder) else {
            throw error(
                node, path,
                "the trace would be written outside the manifest's folder (\(outputsFolder)); "
                    + "pass --allow-outputs-outside to allow it")
        }
    }

    private func choice(_ node: JSONNode, _ path: String, _ choices: [String]) throws(InputError) -> String {
        let text = try string(node, path)
        guard choices.contains(text) else {
            throw error(node, path, "\"\(text)\" is not one of " + choices.joined(separator: ", "))
        }
        return text
    }

    private func number(_ node: JSONNode, _ path: String, above low: Double, atMost high: Double) throws(InputError)
        -> Double
    {
        guard let value = node.numberValue else {
            throw error(node, path, "expected a number, got \(node.value.typeName)")
        }
        guard value.isFinite, value > low, value <= high else {
            throw error(
                node, path,
                "\(NumberFormat.shortest(value)) is out of range (\(NumberFormat.shortest(low)), \(NumberFormat.shortest(high))]"
            )
        }
        return value
    }
}

extension JSONNode {
    /// The value as compact JSON text, numbers in shortest round-trip form (`240`, `0.1`),
    /// members in their written order.
    var compactJSONText: String {
        var out = JSONLineBuffer()
        JSONNode.append(self, to: &out)
        return String(decoding: out.bytes, as: UTF8.self)
    }

    private static func append(_ node: JSONNode, to out: inout JSONLineBuffer) {
        switch node.value {
        case .null: out.append("null")
        case .bool(let b): out.append(raw: b ? "true" : "false")
        case .number(let d): if d.isFinite { out.append(number: d) } else { out.append("null") }
        case .string(let s): out.append(string: s)
        case .array(let elements):
            out.append(byte: UInt8(ascii: "["))
            for (i, element) in elements.enumerated() {
                if i > 0 { out.append(byte: UInt8(ascii: ",")) }
                append(element, to: &out)
            }
            out.append(byte: UInt8(ascii: "]"))
        case .object(let members):
            out.append(byte: UInt8(ascii: "{"))
            for (i, member) in members.enumerated() {
                if i > 0 { out.append(byte: UInt8(ascii: ",")) }
                out.append(string: member.key)
                out.append(byte: UInt8(ascii: ":"))
                append(member.node, to: &out)
            }
            out.append(byte: UInt8(ascii: "}"))
        }
    }
}
