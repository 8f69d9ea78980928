import Foundation

/// Debian's GNU parallel (package `parallel`), the way a user spreads jobs over cores:
/// each job sees its 1-based sequence number in `PARALLEL_SEQ`.
///
/// Always run with `--will-cite`: GNU parallel's citation notice (printed only when
/// standard error is a terminal) must never wait for an answer.
enum GNUParallel {
    /// Runs `parallel --will-cite arguments...` to the end (killed after `timeout` seconds)
    /// and returns its exit status and output. With `directory`, the jobs run there.
    static func run(
        _ arguments: [String], environment: [String: String] = [:], directory: URL? = nil,
        timeout: TimeInterval = 120
    ) throws -> TiltboxBinary.Result {
        let parallel = try ExternalCommand.executable("parallel", package: "parallel")
        return try ExternalCommand.run(
            parallel, ["--will-cite"] + arguments, environment: environment,
            directory: directory, timeout: timeout)
    }
}
