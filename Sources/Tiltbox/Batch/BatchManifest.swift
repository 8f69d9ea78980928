import Foundation

/// A batch manifest (`tiltbox-batch/1`): the jobs `tiltbox batch` runs, read from located
/// JSON so every error names the file, line:column and field path (`jobs[2].duration`).
///
/// ```json
/// { "format": "tiltbox-batch/1",
///   "jobs": [ { "name": "pile", "verify": "golden/pile.jsonl" },
///             { "name": "book", "run": "book.json", "orientation": "landscapeLeft", "duration": 5 } ] }
/// ```
/// Relative paths are relative to the manifest's folder.
@_spi(Tools) public struct BatchManifest: Sendable {
    /// The only accepted value of the `format` key.
    public static let format = "tiltbox-batch/1"
    /// The largest manifest file read, in bytes.
    public static let maxFileBytes = 16 << 20
    /// The most jobs a manifest may hold after sweep expansion.
    public static let maxPoints = 100_000

    /// The jobs, in manifest order.
    public var jobs: [BatchJob]
    /// The SHA-256 of the manifest's bytes (lower-case hex): shards of one manifest share it.
    public var sha256: String

    public init(jobs: [BatchJob], sha256: String) {
        self.jobs = jobs
        self.sha256 = sha256
    }

    /// Every job after sweep expansion, in manifest order: the list shards are cut from.
    public func points() -> [BatchPoint] {
        var points: [BatchPoint] = []
        for job in jobs {
            for point in job.expanded() {
                points.append(BatchPoint(index: points.count, name: point.name, job: job, parameters: point.parameters))
            }
        }
        return points
    }

    /// Reads and validates the manifest at `path`.
    /// - Parameter allowOutputsOutside: accept a job `trace` outside the manifest's folder
    ///   (`--allow-outputs-outside`); by default such a manifest is refused.
    public static func load(path: String, allowOutputsOutside: Bool = false) throws(InputError) -> BatchManifest {
        let bytes = try readFile(path)
        let parsed = Result { () throws(JSONSyntaxError) in
            try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                // Only "format" and "jobs" are kept: an unknown key is still named, but its value costs nothing.
                try JSONParser.parse(utf8: buffer, options: JSONParser.Options(keptTopLevelKeys: ["format", "jobs"]))
            }
        }
        let root: JSONNode
        switch parsed {
        case .success(let node): root = node
        case .failure(let syntax): throw InputError(file: path, location: syntax.location, reason: syntax.reason)
        }
        var reader = BatchManifestReader(file: path, baseDirectory: ScenarioLoader.directory(of: path))
        if !allowOutputsOutside {
            reader.outputsFolder = PathArithmetic.physical(ScenarioLoader.directory(of: path) ?? ".")
        }
        let jobs = try reader.jobs(root)
        return BatchManifest(jobs: jobs, sha256: SHA256.hex(of: bytes))
    }

    /// The manifest of `tiltbox batch --verify GLOB`: one verify job per golden, named by
    /// its path as matched. Its hash is that of the equivalent manifest text, so shards of one
    /// shorthand batch (the same goldens in the same order) merge.
    public static func verifying(goldens: [String]) -> BatchManifest {
        var text = JSONLineBuffer()
        text.append("{\"format\":")
        text.append(string: format)
        text.append(",\"jobs\":[")
        var jobs: [BatchJob] = []
        for (i, golden) in goldens.enumerated() {
            if i > 0 { text.append(byte: UInt8(ascii: ",")) }
            text.append("{\"name\":")
            text.append(string: golden)
            text.append(",\"verify\":")
            text.append(string: golden)
            text.append(byte: UInt8(ascii: "}"))
            jobs.append(BatchJob(name: golden, kind: .verify(golden: golden)))
        }
        text.append("]}\n")
        return BatchManifest(jobs: jobs, sha256: SHA256.hex(of: text.bytes))
    }

    /// The manifest's bytes, through the bounded reader (`RegularFile.read`): at most
    /// `maxFileBytes`, a FIFO, device or kernel file refused before it is opened.
    private static func readFile(_ path: String) throws(InputError) -> [UInt8] {
        [UInt8](
            try RegularFile.read(path, maxBytes: maxFileBytes) { size in
                "file is \(size) bytes, more than the limit of \(maxFileBytes)"
            })
    }
}

/// One job of a manifest: verify a golden trace, or run a scenario (perhaps swept).
@_spi(Tools) public struct BatchJob: Sendable {
    /// What the job does, with its main path resolved against the manifest's folder.
    public enum Kind: Sendable, Equatable {
        case verify(golden: String)
        case run(scenario: String)
    }

    public var name: String
    public var kind: Kind
    /// Command-line options for the child, in manifest order (`["--orientation", "landscapeLeft"]`).
    public var options: [String] = []
    /// `set`: overrides as (path, JSON text), in manifest order.
    public var overrides: [(path: String, json: String)] = []
    /// `sweep`: value lists as (path, JSON texts), in manifest order.
    public var sweep: [(path: String, values: [String])] = []
    /// `hashes`: write a hash trace.
    public var hashes = false
    /// The resolved paths the job reads (golden, scenario, tilt) and writes (trace).
    public var inputs: [String] = []
    public var outputs: [String] = []

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
        switch kind {
        case .verify(let golden): inputs = [golden]
        case .run(let scenario): inputs = [scenario]
        }
    }

    /// The job's points: itself when it has no sweep, else one per sweep point.
    public func expanded() -> [(name: String, parameters: [(path: String, json: String)])] {
        guard !sweep.isEmpty else { return [(name, [])] }
        return SweepExpansion.points(sweep).enumerated().map { i, parameters in ("\(name)[\(i)]", parameters) }
    }
}

/// One unit of work after sweep expansion: a job, or one point of a swept job.
@_spi(Tools) public struct BatchPoint: Sendable {
    /// The position in the expanded list (what `--shard K/N` counts).
    public var index: Int
    /// The job's name, or `NAME[i]` for sweep point `i`.
    public var name: String
    public var job: BatchJob
    /// The sweep values of this point, as (path, JSON text).
    public var parameters: [(path: String, json: String)]

    /// The child's arguments (after the executable): `verify --against GOLDEN ...` or
    /// `run SCENARIO --view none --quiet --summary-json SUMMARY ...`, then one `--set PATH=JSON`
    /// per override (the job's `set`, then this point's sweep values, in order) and `--hashes`.
    public func childArguments(summaryPath: String) -> [String] {
        let sets = (job.overrides + parameters).flatMap { ["--set", "\($0.path)=\($0.json)"] }
        switch job.kind {
        case .verify(let golden):
            return ["verify", "--against", golden] + job.options + sets
        case .run(let scenario):
            return ["run", scenario, "--view", "none", "--quiet", "--summary-json", summaryPath] + job.options + sets
                + (job.hashes ? ["--hashes"] : [])
        }
    }
}
