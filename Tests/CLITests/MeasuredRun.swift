import Foundation
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs the built `tiltbox` as one child and measures it: exit status, wall time and the
/// child's own peak resident memory, from `wait4`'s resource usage of exactly that
/// child (not `RUSAGE_CHILDREN`, which would mix in every other test's children).
///
/// Standard input is `/dev/null`; standard output and error go to files in `directory`.
struct MeasuredRun {
    var status: Int32
    /// The signal that ended the child, if one did.
    var signal: Int32?
    var seconds: Double
    /// Peak resident set size of the child, in bytes (`ru_maxrss`).
    var peakBytes: Int
    var stdout: String
    var stderr: String

    var peakMiB: Double { Double(peakBytes) / 1_048_576 }
    /// One line for expectation messages.
    var summary: String {
        "status \(status)\(signal.map { " (signal \($0))" } ?? ""), \(String(format: "%.2f", seconds)) s, "
            + "\(String(format: "%.1f", peakMiB)) MiB peak; stderr: \(stderr)"
    }

    static func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> MeasuredRun {
        let executable = try TiltboxBinary.url().path
        let name = UUID().uuidString
        let out = directory.path("\(name).stdout"), err = directory.path("\(name).stderr")
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, err, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        // The child starts with no signal blocked, whatever the test thread blocks.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))

        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let started = Date()
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
        guard spawned == 0 else { throw SpawnFailed(code: spawned) }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        let seconds = Date().timeIntervalSince(started)
        let exited = (status & 0x7F) == 0
        let result = MeasuredRun(
            status: exited ? (status >> 8) & 0xFF : 128 + (status & 0x7F),
            signal: exited ? nil : status & 0x7F,
            seconds: seconds,
            peakBytes: usage.ru_maxrss * 1024,   // Linux reports kilobytes
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
        unlink(out)
        unlink(err)
        return result
    }

    struct SpawnFailed: Error, CustomStringConvertible {
        var code: Int32
        var description: String { "posix_spawn failed: \(String(cString: strerror(code)))" }
    }
}
