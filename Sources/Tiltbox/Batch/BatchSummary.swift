import Foundation

/// The JSON summary of a batch or of one shard (`tiltbox-batch-result/1`, FORMATS §6),
/// and what `batch-merge` reads back.
///
/// `{"format":"tiltbox-batch-result/1","tiltbox":VERSION,"manifestSHA256":HEX,"shard":[K,N],"jobCount":M,`
/// `"jobs":[{"index","name","status","exit","signal","wallSeconds","steps","digest","firstDivergence",`
/// `"message","metrics","parameters"}]}`. `jobCount` is the number of points of the whole
/// batch (all shards); `metrics` is a run's `RunMetrics` object, or null (verify jobs, runs
/// that ended without a summary).
@_spi(Tools) public struct BatchSummary: Sendable {
    public static let format = "tiltbox-batch-result/1"
    /// The largest summary file `batch-merge` reads: room for the largest batch
    /// (`BatchManifest.maxPoints` jobs) at 1 KiB a job, with a margin.
    public static let maxFileBytes = 256 << 20
    /// The most JSON values one job of a summary may hold (its `parameters` included):
    /// jobs are read one at a time, so this bounds the reader's memory beside the file's bytes.
    public static let maxValuesPerJob = 100_000
    /// Top-level keys of a summary; the values of any other are checked as JSON and dropped.
    static let topLevelKeys: Set<String> = ["format", "tiltbox", "manifestSHA256", "shard", "jobCount", "jobs"]

    public var manifestSHA256: String
    public var shard: BatchShard
    /// Points in the whole batch, every shard included.
    public var jobCount: Int
    /// This shard's results, in index order.
    public var jobs: [BatchJobResult]

    public init(manifestSHA256: String, shard: BatchShard, jobCount: Int, jobs: [BatchJobResult]) {
        self.manifestSHA256 = manifestSHA256
        self.shard = shard
        self.jobCount = jobCount
        self.jobs = jobs.sorted { $0.index < $1.index }
    }

    // MARK: - Writing

    public func jsonText() -> String {
        var out = JSONLineBuffer()
        out.append("{\"format\":")
        out.append(string: Self.format)
        out.append(",\"tiltbox\":")
        out.append(string: TiltboxVersion.current)
        out.append(",\"manifestSHA256\":")
        out.append(string: manifestSHA256)
        out.append(",\"shard\":[")
        out.append(integer: shard.index)
        out.append(byte: UInt8(ascii: ","))
        out.append(integer: shard.count)
        out.append("],\"jobCount\":")
        out.append(integer: jobCount)
        out.append(",\"jobs\":[")
        for (i, job) in jobs.enumerated() {
            out.append(i == 0 ? "\n" : ",\n")
            out.append("{\"index\":")
            out.append(integer: job.index)
            out.append(",\"name\":")
            out.append(string: job.name)
            out.append(",\"status\":")
            out.append(string: job.status.rawValue)
            out.append(",\"exit\":")
            if let exit = job.exit { out.append(integer: Int(exit)) } else { out.append("null") }
            out.append(",\"signal\":")
            if let signal = job.signal { out.append(integer: Int(signal)) } else { out.append("null") }
            out.append(",\"wallSeconds\":")
            out.append(number: job.wallSeconds.isFinite ? job.wallSeconds : 0)
            out.append(",\"steps\":")
            if let steps = job.steps { out.append(integer: steps) } else { out.append("null") }
            out.append(",\"digest\":")
            out.append(optionalString: job.digest)
            out.append(",\"firstDivergence\":")
            out.append(optionalString: job.firstDivergence)
            out.append(",\"message\":")
            out.append(optionalString: job.message)
            out.append(",\"metrics\":")
            if let metrics = job.metrics { out.append(raw: metrics.jsonText) } else { out.append("null") }
            if !job.expectations.isEmpty {
                out.append(",\"expectations\":[")
                for (j, expectation) in job.expectations.enumerated() {
                    if j > 0 { out.append(byte: UInt8(ascii: ",")) }
                    out.append("{\"label\":")
                    out.append(string: expectation.label)
                    out.append(",\"holds\":")
                    out.append(expectation.holds ? "true" : "false")
                    out.append(",\"message\":")
                    out.append(optionalString: expectation.line)
                    out.append("}")
                }
                out.append("]")
            }
            out.append(",\"parameters\":{")
            for (j, parameter) in job.parameters.enumerated() {
                if j > 0 { out.append(byte: UInt8(ascii: ",")) }
                out.append(string: parameter.path)
                out.append(byte: UInt8(ascii: ":"))
                out.append(raw: parameter.json)
            }
            out.append("}}")
        }
        out.append("\n]}\n")
        return String(decoding: out.bytes, as: UTF8.self)
    }

    // MARK: - Reading

    /// Reads a summary written by `tiltbox batch --json`, one job at a time: memory for the
    /// file's bytes (at most `maxFileBytes`), the results, and one job's JSON.
    public static func load(path: String) throws(InputError) -> BatchSummary {
        let data = try RegularFile.read(path, maxBytes: maxFileBytes) { size in
            "file is \(size) bytes, more than the limit of \(maxFileBytes) for a batch summary"
        }
        var jobs: [(job: BatchJobResult, node: JSONNode)] = []
        var jobError: InputError?
        let options = JSONParser.Options(maxDepth: 16, keptTopLevelKeys: topLevelKeys, maxValues: maxValuesPerJob)
        let parsed: Result<JSONNode?, JSONSyntaxError> = data.withUnsafeBytes { raw in
            Result { () throws(JSONSyntaxError) -> JSONNode? in
                try JSONParser.parse(utf8: raw.bindMemory(to: UInt8.self), options: options, streamingArrayAt: "jobs") {
                    i, element in
                    do throws(InputError) {
                        let job = try readJob(element, at: "jobs[\(i)]", file: path)
                        // Only the element's location is kept, not its tree.
                        jobs.append((job, JSONNode(value: .null, location: element.location)))
                        return true
                    } catch {
                        jobError = error
                        return false
                    }
                }
            }
        }
        if let jobError { throw jobError }
        switch parsed {
        case .success(let root?): return try read(root, jobs: jobs, file: path)
        case .success(nil): throw InputError(file: path, reason: "cannot read the jobs")
        case .failure(let syntax): throw InputError(file: path, location: syntax.location, reason: syntax.reason)
        }
    }

    private static func fail(_ file: String, _ node: JSONNode, _ path: String?, _ reason: String) -> InputError {
        InputError(file: file, location: node.location, path: path, reason: reason)
    }

    private static func member(_ file: String, _ node: JSONNode, _ key: String, _ path: String) throws(InputError)
        -> JSONNode
    {
        guard let value = node[key] else { throw fail(file, node, path, "missing \"\(key)\"") }
        return value
    }

    private static func integer(_ file: String, _ node: JSONNode, _ path: String) throws(InputError) -> Int {
        guard let d = node.numberValue, d.rounded() == d, abs(d) < 1e15 else {
            throw fail(file, node, path, "expected a whole number")
        }
        return Int(d)
    }

    /// One element of `jobs`.
    private static func readJob(_ element: JSONNode, at: String, file: String) throws(InputError) -> BatchJobResult {
        func optionalString(_ node: JSONNode, _ path: String) throws(InputError) -> String? {
            if case .null = node.value { return nil }
            guard let s = node.stringValue else { throw fail(file, node, path, "expected a string or null") }
            return s
        }
        /// A job's `metrics`: missing or null is nil (summaries of earlier versions hold null).
        func metrics(_ node: JSONNode?, _ path: String) throws(InputError) -> RunMetrics? {
            guard let node else { return nil }
            if case .null = node.value { return nil }
            guard let metrics = RunMetrics.read(node) else {
                throw fail(
                    file, node, path,
                    "expected null or an object of kineticEnergy, maxSpeed, restTime, bounds and digest")
            }
            return metrics
        }
        guard element.objectMembers != nil else { throw fail(file, element, at, "expected an object") }
        let index = try integer(file, try member(file, element, "index", at), "\(at).index")
        guard let name = try member(file, element, "name", at).stringValue else {
            throw fail(file, element, "\(at).name", "expected a string")
        }
        guard let statusText = try member(file, element, "status", at).stringValue,
            let status = BatchJobResult.Status(rawValue: statusText)
        else {
            throw fail(file, element, "\(at).status", "expected one of passed, diverged, failed, error")
        }
        func optionalInt(_ key: String) throws(InputError) -> Int? {
            let node = try member(file, element, key, at)
            if case .null = node.value { return nil }
            return try integer(file, node, "\(at).\(key)")
        }
        let exit = try optionalInt("exit").map { Int32(truncatingIfNeeded: $0) }
        let signal = try optionalInt("signal").map { Int32(truncatingIfNeeded: $0) }
        let wall = try member(file, element, "wallSeconds", at).numberValue ?? 0
        let parametersNode = try member(file, element, "parameters", at)
        guard let parameters = parametersNode.objectMembers else {
            throw fail(file, parametersNode, "\(at).parameters", "expected an object")
        }
        var expectations: [ReportedExpectation] = []
        for (j, node) in (element["expectations"]?.arrayValue ?? []).enumerated() {
            guard let label = node["label"]?.stringValue, case .bool(let holds)? = node["holds"]?.value else {
                throw fail(file, node, "\(at).expectations[\(j)]", "expected an object of label, holds and message")
            }
            expectations.append(ReportedExpectation(label: label, holds: holds, line: node["message"]?.stringValue))
        }
        var result = BatchJobResult(
            index: index, name: name, status: status, exit: exit, signal: signal, wallSeconds: wall,
            steps: try optionalInt("steps"),
            digest: try optionalString(try member(file, element, "digest", at), "\(at).digest"),
            metrics: try metrics(element["metrics"], "\(at).metrics"),
            firstDivergence: try optionalString(
                try member(file, element, "firstDivergence", at), "\(at).firstDivergence"),
            message: try element["message"].map { node throws(InputError) in try optionalString(node, "\(at).message") }
                ?? nil,
            parameters: parameters.map { ($0.key, $0.node.compactJSONText) })
        result.expectations = expectations
        return result
    }

    /// The summary around its jobs (read one at a time by `load`).
    private static func read(_ root: JSONNode, jobs: [(job: BatchJobResult, node: JSONNode)], file: String)
        throws(InputError) -> BatchSummary
    {
        guard root.objectMembers != nil else {
            throw fail(file, root, nil, "expected a JSON object (a tiltbox batch --json summary)")
        }
        guard root["format"]?.stringValue == format else {
            throw fail(
                file, root["format"] ?? root, "format",
                "not a tiltbox batch summary (expected \"format\": \"\(format)\")")
        }
        guard let sha = try member(file, root, "manifestSHA256", "manifestSHA256").stringValue else {
            throw fail(file, root, "manifestSHA256", "expected a string")
        }
        let shardNode = try member(file, root, "shard", "shard")
        guard let pair = shardNode.arrayValue, pair.count == 2 else {
            throw fail(file, shardNode, "shard", "expected [K, N]")
        }
        let k = try integer(file, pair[0], "shard[0]"), n = try integer(file, pair[1], "shard[1]")
        guard n >= 1, n <= BatchShard.maxCount, k >= 0, k < n else {
            throw fail(file, shardNode, "shard", "[\(k), \(n)] is not a shard K of N")
        }
        let jobCount = try integer(file, try member(file, root, "jobCount", "jobCount"), "jobCount")
        let list = try member(file, root, "jobs", "jobs")
        guard list.arrayValue != nil else { throw fail(file, list, "jobs", "expected an array") }
        for (i, entry) in jobs.enumerated() where entry.job.index < 0 || entry.job.index >= jobCount {
            throw fail(file, entry.node, "jobs[\(i)].index", "\(entry.job.index) is not in 0..<\(jobCount)")
        }
        return BatchSummary(
            manifestSHA256: sha, shard: BatchShard(index: k, count: n), jobCount: jobCount, jobs: jobs.map(\.job))
    }

    // MARK: - Merging

    /// One summary of the whole batch from the summaries of its shards: all of one manifest
    /// and one N, every K present once.
    public static func merge(_ parts: [(path: String, summary: BatchSummary)]) throws(InputError) -> BatchSummary {
        guard let first = parts.first else { throw InputError(file: "batch-merge", reason: "no summaries given") }
        let n = first.summary.shard.count
        var byShard: [Int: String] = [:]
        for part in parts {
            guard part.summary.manifestSHA256 == first.summary.manifestSHA256 else {
                throw InputError(
                    file: part.path, path: "manifestSHA256",
                    reason:
                        "is a shard of another manifest than \(first.path) (manifest SHA-256 \(part.summary.manifestSHA256.prefix(12))… vs \(first.summary.manifestSHA256.prefix(12))…); refusing to merge"
                )
            }
            guard part.summary.shard.count == n, part.summary.jobCount == first.summary.jobCount else {
                throw InputError(
                    file: part.path, path: "shard",
                    reason:
                        "is shard \(part.summary.shard) of \(part.summary.jobCount) jobs, but \(first.path) is one of \(n) shards of \(first.summary.jobCount) jobs"
                )
            }
            if let other = byShard[part.summary.shard.index] {
                throw InputError(
                    file: part.path, path: "shard",
                    reason: "shard \(part.summary.shard) is given twice (also \(other))")
            }
            byShard[part.summary.shard.index] = part.path
        }
        let missing = (0..<n).filter { byShard[$0] == nil }
        guard missing.isEmpty else {
            throw InputError(
                file: "batch-merge",
                reason: "missing shard\(missing.count == 1 ? "" : "s") "
                    + missing.prefix(20).map { "\($0)/\(n)" }.joined(separator: ", ")
                    + (missing.count > 20 ? " and \(missing.count - 20) more" : "")
                    + " of \(n)")
        }
        let jobs = parts.flatMap(\.summary.jobs)
        var seen = Set<Int>()
        for job in jobs where !seen.insert(job.index).inserted {
            throw InputError(file: "batch-merge", reason: "job \(job.index) (\(job.name)) appears in two shards")
        }
        guard jobs.count == first.summary.jobCount else {
            throw InputError(
                file: "batch-merge",
                reason:
                    "the shards hold \(jobs.count) of the batch's \(first.summary.jobCount) jobs (was a shard interrupted?)"
            )
        }
        return BatchSummary(
            manifestSHA256: first.summary.manifestSHA256, shard: .whole, jobCount: first.summary.jobCount, jobs: jobs)
    }
}
