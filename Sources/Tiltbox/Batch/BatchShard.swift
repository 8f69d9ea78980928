import Foundation

/// Which share of a batch one process runs: the points whose index modulo `count` is
/// `index` (`--shard K/N`), or K and N from the scheduler that started it (`--shard auto`).
@_spi(Tools) public struct BatchShard: Sendable, Equatable, CustomStringConvertible {
    /// K, in 0..<count.
    public var index: Int
    /// N ≥ 1.
    public var count: Int

    /// The whole batch.
    public static let whole = BatchShard(index: 0, count: 1)
    /// The largest N accepted.
    public static let maxCount = 1_000_000

    public init(index: Int, count: Int) {
        self.index = index
        self.count = count
    }

    public var description: String { "\(index)/\(count)" }

    /// Whether the point at `pointIndex` (after sweep expansion) belongs to this shard.
    public func contains(_ pointIndex: Int) -> Bool { pointIndex % count == index }

    /// Parses `K/N` (0 ≤ K < N), or with `auto` reads `environment`; `nil` with the reason.
    public static func parse(_ text: String, environment: [String: String]) -> Result<BatchShard, ShardError> {
        if text == "auto" { return auto(environment: environment) }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let k = Int(parts[0]), let n = Int(parts[1]) else {
            return .failure(ShardError("--shard takes K/N (like 0/4) or auto, not '\(text)'"))
        }
        return checked(k, n, from: "--shard \(text)")
    }

    /// K and N from the environment of a scheduler:
    /// - Slurm job arrays: K = `SLURM_ARRAY_TASK_ID` − `SLURM_ARRAY_TASK_MIN` (0 when unset),
    ///   N = `SLURM_ARRAY_TASK_COUNT`, else `SLURM_ARRAY_TASK_MAX` − `SLURM_ARRAY_TASK_MIN` + 1;
    /// - Kubernetes Indexed Jobs: K = `JOB_COMPLETION_INDEX`, N = `TILTBOX_SHARDS`;
    /// - GNU parallel: K = `PARALLEL_SEQ` − 1 (parallel counts from 1), N = `TILTBOX_SHARDS`.
    public static func auto(environment: [String: String]) -> Result<BatchShard, ShardError> {
        func integer(_ name: String) -> Result<Int?, ShardError> {
            guard let text = environment[name] else { return .success(nil) }
            guard let value = Int(text.trimmingCharacters(in: .whitespaces)) else {
                return .failure(ShardError("--shard auto: \(name)='\(text)' is not a whole number"))
            }
            return .success(value)
        }
        func total(_ source: String) -> Result<Int, ShardError> {
            switch integer("TILTBOX_SHARDS") {
            case .failure(let error): return .failure(error)
            case .success(nil):
                return .failure(
                    ShardError(
                        "--shard auto: \(source) is set but TILTBOX_SHARDS is not; set TILTBOX_SHARDS to the number of shards"
                    ))
            case .success(let n?): return .success(n)
            }
        }
        do {
            if let id = try integer("SLURM_ARRAY_TASK_ID").get() {
                let low = try integer("SLURM_ARRAY_TASK_MIN").get() ?? 0
                if let n = try integer("SLURM_ARRAY_TASK_COUNT").get() {
                    return checked(id - low, n, from: "SLURM_ARRAY_TASK_ID=\(id), SLURM_ARRAY_TASK_COUNT=\(n)")
                }
                if let high = try integer("SLURM_ARRAY_TASK_MAX").get() {
                    return checked(id - low, high - low + 1, from: "SLURM_ARRAY_TASK_ID=\(id) in \(low)…\(high)")
                }
                return .failure(
                    ShardError(
                        "--shard auto: SLURM_ARRAY_TASK_ID is set but neither SLURM_ARRAY_TASK_COUNT nor SLURM_ARRAY_TASK_MAX"
                    ))
            }
            if let index = try integer("JOB_COMPLETION_INDEX").get() {
                return checked(index, try total("JOB_COMPLETION_INDEX").get(), from: "JOB_COMPLETION_INDEX=\(index)")
            }
            if let seq = try integer("PARALLEL_SEQ").get() {
                return checked(seq - 1, try total("PARALLEL_SEQ").get(), from: "PARALLEL_SEQ=\(seq) (shard \(seq - 1))")
            }
        } catch {
            return .failure(error)
        }
        return .failure(
            ShardError(
                "--shard auto found no scheduler: looked for SLURM_ARRAY_TASK_ID (Slurm), JOB_COMPLETION_INDEX (Kubernetes) and PARALLEL_SEQ (GNU parallel), with TILTBOX_SHARDS for the last two; give --shard K/N otherwise"
            ))
    }

    private static func checked(_ k: Int, _ n: Int, from source: String) -> Result<BatchShard, ShardError> {
        guard n >= 1, n <= maxCount else {
            return .failure(ShardError("\(source): the number of shards \(n) is not in 1…\(maxCount)"))
        }
        guard k >= 0, k < n else { return .failure(ShardError("\(source): shard \(k) is not in 0…\(n - 1)")) }
        return .success(BatchShard(index: k, count: n))
    }
}

/// A `--shard` that cannot be used, with one line saying why.
@_spi(Tools) public struct ShardError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
