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
    /// The largest summary file `batch-merge` reads.
    public static let maxFileBytes = 256 << 20

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

    /// Reads a summary written by `tiltbox batch --json`.
    public static func load(path: String) throws(InputError) -> BatchSummary {
        let size = try RegularFile.size(of: path)
        guard size <= UInt64(maxFileBytes) else {
            throw InputError(file: path, reason: "file is \(size) bytes, more than the limit of \(maxFileBytes)")
        }
        let bytes: [UInt8]
        do {
            bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        } catch {
            throw InputError(file: path, reason: "cannot read the file: \(error.localizedDescription)")
        }
        let parsed = Result { () throws(JSONSyntaxError) in
            try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in try JSONParser.parse(utf8: buffer) }
        }
        switch parsed {
        case .success(let root): return try read(root, file: path)
        case .failure(let syntax): throw InputError(file: path, location: syntax.location, reason: syntax.reason)
        }
    }

    private static func read(_ root: JSONNode, file: String) throws(InputError) -> BatchSummary {
        func fail(_ node: JSONNode, _ path: String?, _ reason: String) -> InputError {
            InputError(file: file, location: node.location, path: path, reason: reason)
        }
        func member(_ node: JSONNode, _ key: String, _ path: String) throws(InputError) -> JSONNode {
            guard let value = node[key] else { throw fail(node, path, "missing \"\(key)\"") }
            return value
        }
        func integer(_ node: JSONNode, _ path: String) throws(InputError) -> Int {
            guard let d = node.numberValue, d.rounded() == d, abs(d) < 1e15 else { throw fail(node, path, "expected a whole number") }
            return Int(d)
        }
        func optionalString(_ node: JSONNode, _ path: String) throws(InputError) -> String? {
            if case .null = node.value { return nil }
            guard let s = node.stringValue else { throw fail(node, path, "expected a string or null") }
            return s
        }
        /// A job's `metrics`: missing or null is nil (summaries of earlier versions hold null).
        func metrics(_ node: JSONNode?, _ path: String) throws(InputError) -> RunMetrics? {
            guard let node else { return nil }
            if case .null = node.value { return nil }
            guard let metrics = RunMetrics.read(node) else {
                throw fail(node, path, "expected null or an object of kineticEnergy, maxSpeed, restTime, bounds and digest")
            }
            return metrics
        }
        guard root.objectMembers != nil else { throw fail(root, nil, "expected a JSON object (a tiltbox batch --json summary)") }
        guard root["format"]?.stringValue == format else {
            throw fail(root["format"] ?? root, "format", "not a tiltbox batch summary (expected \"format\": \"\(format)\")")
        }
        guard let sha = try member(root, "manifestSHA256", "manifestSHA256").stringValue else {
            throw fail(root, "manifestSHA256", "expected a string")
        }
        let shardNode = try member(root, "shard", "shard")
        guard let pair = shardNode.arrayValue, pair.count == 2 else { throw fail(shardNode, "shard", "expected [K, N]") }
        let k = try integer(pair[0], "shard[0]"), n = try integer(pair[1], "shard[1]")
        guard n >= 1, n <= BatchShard.maxCount, k >= 0, k < n else { throw fail(shardNode, "shard", "[\(k), \(n)] is not a shard K of N") }
        let jobCount = try integer(try member(root, "jobCount", "jobCount"), "jobCount")
        let list = try member(root, "jobs", "jobs")
        guard let elements = list.arrayValue else { throw fail(list, "jobs", "expected an array") }
        var jobs: [BatchJobResult] = []
        for (i, element) in elements.enumerated() {
            let at = "jobs[\(i)]"
            let index = try integer(try member(element, "index", at), "\(at).index")
            guard index >= 0, index < jobCount else { throw fail(element, "\(at).index", "\(index) is not in 0..<\(jobCount)") }
            guard let name = try member(element, "name", at).stringValue else { throw fail(element, "\(at).name", "expected a string") }
            guard let statusText = try member(element, "status", at).stringValue,
                  let status = BatchJobResult.Status(rawValue: statusText) else {
                throw fail(element, "\(at).status", "expected one of passed, diverged, failed, error")
            }
            func optionalInt(_ key: String) throws(InputError) -> Int? {
                let node = try member(element, key, at)
                if case .null = node.value { return nil }
                return try integer(node, "\(at).\(key)")
            }
            let exit = try optionalInt("exit").map { Int32(truncatingIfNeeded: $0) }
            let signal = try optionalInt("signal").map { Int32(truncatingIfNeeded: $0) }
            let wall = try member(element, "wallSeconds", at).numberValue ?? 0
            let parametersNode = try member(element, "parameters", at)
            guard let parameters = parametersNode.objectMembers else { throw fail(parametersNode, "\(at).parameters", "expected an object") }
            jobs.append(BatchJobResult(
                index: index, name: name, status: status, exit: exit, signal: signal, wallSeconds: wall,
                steps: try optionalInt("steps"),
                digest: try optionalString(try member(element, "digest", at), "\(at).digest"),
                metrics: try metrics(element["metrics"], "\(at).metrics"),
                firstDivergence: try optionalString(try member(element, "firstDivergence", at), "\(at).firstDivergence"),
                message: try element["message"].map { node throws(InputError) in try optionalString(node, "\(at).message") } ?? nil,
                parameters: parameters.map { ($0.key, $0.node.compactJSONText) }))
        }
        return BatchSummary(manifestSHA256: sha, shard: BatchShard(index: k, count: n), jobCount: jobCount, jobs: jobs)
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
                throw InputError(file: part.path, path: "manifestSHA256",
                                 reason: "is a shard of another manifest than \(first.path) (manifest SHA-256 \(part.summary.manifestSHA256.prefix(12))… vs \(first.summary.manifestSHA256.prefix(12))…); refusing to merge")
            }
            guard part.summary.shard.count == n, part.summary.jobCount == first.summary.jobCount else {
                throw InputError(file: part.path, path: "shard",
                                 reason: "is shard \(part.summary.shard) of \(part.summary.jobCount) jobs, but \(first.path) is one of \(n) shards of \(first.summary.jobCount) jobs")
            }
            if let other = byShard[part.summary.shard.index] {
                throw InputError(file: part.path, path: "shard",
                                 reason: "shard \(part.summary.shard) is given twice (also \(other))")
            }
            byShard[part.summary.shard.index] = part.path
        }
        let missing = (0..<n).filter { byShard[$0] == nil }
        guard missing.isEmpty else {
            throw InputError(file: "batch-merge", reason: "missing shard\(missing.count == 1 ? "" : "s") "
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
            throw InputError(file: "batch-merge", reason: "the shards hold \(jobs.count) of the batch's \(first.summary.jobCount) jobs (was a shard interrupted?)")
        }
        return BatchSummary(manifestSHA256: first.summary.manifestSHA256, shard: .whole, jobCount: first.summary.jobCount, jobs: jobs)
    }
}
