import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A tool the tests drive that is not Tiltbox (GNU parallel, Slurm's commands and daemons),
/// found on PATH (and in /usr/sbin and /sbin, where Debian puts daemons) and run as a child
/// process with standard output and error going to files, so a chatty tool never blocks on a
/// full pipe.
///
/// `make test` installs these tools; a test that needs one that is missing fails with
/// `NotInstalled` naming the Debian package, it is never skipped.
enum ExternalCommand {
    struct NotInstalled: Error, CustomStringConvertible {
        var command: String
        var package: String
        var description: String {
            "`\(command)` is not installed: `make test` installs it (apt-get install \(package))."
        }
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    /// The full path of `name`, or `NotInstalled` naming `package`.
    static func executable(_ name: String, package: String) throws -> String {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let folders = path.split(separator: ":").map(String.init) + ["/usr/sbin", "/sbin", "/usr/bin", "/bin"]
        for folder in folders where !folder.isEmpty {
            let candidate = URL(fileURLWithPath: folder).appendingPathComponent(name).path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        throw NotInstalled(command: name, package: package)
    }

    /// Runs `executable arguments...` to the end and returns its exit status and output.
    /// A run that lasts longer than `timeout` seconds is killed and reported as `Failed`
    /// with what it had printed; so is one that dies of a signal.
    static func run(
        _ executable: String, _ arguments: [String], environment: [String: String] = [:],
        directory: URL? = nil, timeout: TimeInterval
    ) throws -> TiltboxBinary.Result {
        let scratch = FileManager.default.temporaryDirectory
        let name = "tiltbox-command-\(UUID().uuidString)"
        let out = scratch.appendingPathComponent("\(name).stdout").path
        let err = scratch.appendingPathComponent("\(name).stderr").path
        defer {
            try? FileManager.default.removeItem(atPath: out)
            try? FileManager.default.removeItem(atPath: err)
        }
        let child = try ChildProcess(
            executable, arguments, stdout: out, stderr: err,
            environment: environment, directory: directory)
        let finished = child.waitForExit(within: timeout)
        let result = TiltboxBinary.Result(
            status: child.exitStatus ?? -1,
            stdoutData: FileManager.default.contents(atPath: out) ?? Data(),
            stderrData: FileManager.default.contents(atPath: err) ?? Data())
        let commandLine = ([URL(fileURLWithPath: executable).lastPathComponent] + arguments).joined(separator: " ")
        guard finished else {
            throw Failed(
                description: "`\(commandLine)` did not finish within \(Int(timeout)) s and was killed; "
                    + "stdout: \(result.stdout.suffix(2000)) stderr: \(result.stderr.suffix(2000))")
        }
        if let signal = child.signal {
            throw Failed(
                description: "`\(commandLine)` died of signal \(signal); stderr: \(result.stderr.suffix(2000))")
        }
        return result
    }
}

/// A child process started with `posix_spawn` and reaped with `waitpid` on its own pid.
///
/// Not Foundation's `Process`: on Linux it learns that a child ended when a descriptor the
/// child inherited is closed, and daemons such as `slurmctld` close every descriptor when
/// they start, after which `Process` blocks in `waitpid` for a daemon that still runs
/// (and every other `Process` of the test run waits behind it). The child gets standard
/// input from `/dev/null`, no other descriptor of this process, default SIGINT, SIGTERM and
/// SIGPIPE handling and no blocked signal (Swift Testing's worker threads block SIGINT and
/// SIGTERM, and a child would inherit that).
final class ChildProcess {
    let pid: pid_t
    private var waitStatus: Int32?

    /// Starts `executable arguments...` with standard output and error appended to `stdout`
    /// and `stderr` (created when missing; the same path for both is fine); `environment`
    /// adds to (or overrides) this process's environment; `directory` is its working folder.
    init(
        _ executable: String, _ arguments: [String], stdout: String, stderr: String,
        environment: [String: String] = [:], directory: URL? = nil
    ) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let writing = O_WRONLY | O_CREAT | O_APPEND
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, writing, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, writing, 0o644)
        guard Self.addCloseFrom(&actions, 3) == 0 else {
            throw ExternalCommand.Failed(
                description: "cannot keep descriptors from \(executable): no posix_spawn_file_actions_addclosefrom_np")
        }
        if let directory {
            guard Self.addChdir(&actions, directory.path) == 0 else {
                throw ExternalCommand.Failed(description: "cannot start \(executable) in \(directory.path)")
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let merged = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        var argv = ([executable] + arguments).map { strdup($0) } + [nil]
        var envp = merged.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, executable, &actions, &attributes, &argv, &envp)
        guard spawned == 0 else {
            throw ExternalCommand.Failed(
                description: "cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        self.pid = pid
    }

    /// True until the child has ended (and been reaped).
    var isRunning: Bool {
        if waitStatus != nil { return false }
        var status: Int32 = 0
        var reaped: pid_t
        repeat { reaped = waitpid(pid, &status, WNOHANG) } while reaped < 0 && errno == EINTR
        if reaped == pid { waitStatus = status }
        return reaped == 0
    }

    /// The exit status of a child that ended by calling exit, else nil.
    var exitStatus: Int32? {
        guard !isRunning, let status = waitStatus, status & 0x7f == 0 else { return nil }
        return (status >> 8) & 0xff
    }

    /// The signal that ended the child, else nil.
    var signal: Int32? {
        guard !isRunning, let status = waitStatus, status & 0x7f != 0, status & 0x7f != 0x7f else { return nil }
        return status & 0x7f
    }

    /// "ended with status 0", "killed by signal 9" or "running", for messages.
    var state: String {
        if let exitStatus { return "ended with status \(exitStatus)" }
        if let signal { return "killed by signal \(signal)" }
        return isRunning ? "running" : "ended"
    }

    /// Waits up to `seconds` (polling every 20 ms) for the child to end; past that, sends
    /// SIGTERM, then SIGKILL 5 s later, reaps it and returns false.
    @discardableResult
    func waitForExit(within seconds: TimeInterval) -> Bool {
        if poll(seconds) { return true }
        kill(pid, SIGTERM)
        if !poll(5) {
            kill(pid, SIGKILL)
            _ = poll(.infinity)
        }
        return false
    }

    /// Sends `signal`, unless the child has already been reaped (its pid may be reused).
    func send(_ signal: Int32) {
        if isRunning { kill(pid, signal) }
    }

    private func poll(_ seconds: TimeInterval) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while isRunning {
            if Date() >= deadline { return false }
            usleep(20_000)
        }
        return true
    }

    // glibc has both since 2.34 and 2.29; Swift's Glibc module does not export them.
    private typealias AddCloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
    private typealias AddChdir =
        @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, UnsafePointer<CChar>) -> Int32

    private static func addCloseFrom(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ fd: Int32) -> Int32
    {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return -1 }
        return unsafeBitCast(symbol, to: AddCloseFrom.self)(actions, fd)
    }

    private static func addChdir(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>, _ path: String) -> Int32 {
        guard let symbol = dlsym(nil, "posix_spawn_file_actions_addchdir_np") else { return -1 }
        return path.withCString { unsafeBitCast(symbol, to: AddChdir.self)(actions, $0) }
    }
}
