import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A single-node Slurm cluster of its own, in a temporary folder: the harness for tests that
/// submit work the way a team's scheduler runs it (`sbatch --array`).
///
/// Built from Debian's `slurm-wlm` and `munge` (`make test` installs them): a `munged` with
/// its own key, socket and seed in the folder, then `slurmctld` and `slurmd` in the
/// foreground as child processes of the test, with a `slurm.conf` whose state, spool and pid
/// paths are in the folder and whose two ports were free when the cluster started, so
/// clusters started by different tests never meet. The one node is this host (its short
/// name) with 2 CPUs, in a default partition `debug`. Starting returns once `sinfo` shows
/// the node idle.
///
/// The daemons run as the current user (the tests run as root). `stop()` (also called when
/// the cluster is released, and when starting fails) ends every daemon it started and any
/// process they left behind. A failure to start throws `StartFailed` with the daemons'
/// logs in its message.
///
/// Commands for the cluster (`sbatch`, `squeue`, `sinfo`, `scontrol`) must be given
/// `environment` (it sets `SLURM_CONF`); `command(_:_:)` and `sbatch(_:)` do that.
final class SlurmCluster {
    struct StartFailed: Error, CustomStringConvertible {
        /// The cluster's folder (removed by the time the error is seen).
        var folder: String
        var description: String
    }

    /// One daemon the cluster started, and where its standard output and error go.
    private struct Daemon {
        var name: String
        var process: ChildProcess
        var log: String
    }

    let directory: TemporaryDirectory
    /// The node's name: this host's short name, as `slurmd` finds it.
    let nodeName: String
    let controllerPort: Int
    let nodePort: Int
    /// The munge socket the cluster's daemons and commands authenticate through.
    let mungeSocket: String
    let configPath: String
    private var daemons: [Daemon] = []

    /// The environment a Slurm command needs to talk to this cluster.
    var environment: [String: String] { ["SLURM_CONF": configPath] }

    /// The process ids of the daemons started (running or not).
    var daemonProcessIDs: [pid_t] { daemons.map(\.process.pid) }

    /// Starts munged, slurmctld and slurmd and waits (up to `timeout` seconds) for the node to
    /// be idle. `extraConfiguration` (lines of `slurm.conf`) is added before the node and
    /// partition lines; a key given again there overrides the one set here.
    init(timeout: TimeInterval = 120, extraConfiguration: String = "") throws {
        directory = try TemporaryDirectory()
        nodeName = Self.shortHostName()
        let ports = try Self.freePorts(2)
        controllerPort = ports[0]
        nodePort = ports[1]
        mungeSocket = directory.path("munge/munge.socket")
        configPath = directory.path("slurm.conf")
        do {
            try start(timeout: timeout, extraConfiguration: extraConfiguration)
        } catch {
            // No graceful stop: a slurmd that cannot reach its controller ignores SIGTERM.
            stop(grace: 5)
            let reason = (error as? StartFailed)?.description ?? String(describing: error)
            throw StartFailed(
                folder: directory.url.path,
                description: "the test Slurm cluster in \(directory.url.path) did not start: \(reason)\n"
                    + diagnostics())
        }
    }

    deinit {
        stop()
    }

    // MARK: - Commands

    /// Runs a Slurm command (`sinfo`, `squeue`, `scontrol`…) against this cluster, killed
    /// after `timeout` seconds.
    func command(
        _ name: String, _ arguments: [String], directory: URL? = nil,
        timeout: TimeInterval = 60
    ) throws -> TiltboxBinary.Result {
        try ExternalCommand.run(
            try ExternalCommand.executable(name, package: "slurm-wlm"), arguments,
            environment: environment, directory: directory, timeout: timeout)
    }

    /// Runs `sbatch arguments...` in `directory` (default: the cluster's folder, where
    /// `slurm-%j.out` files then land). With `--wait` it returns when the job has ended and its
    /// status is the job's (for an array, the highest of its tasks').
    func sbatch(_ arguments: [String], directory: URL? = nil, timeout: TimeInterval = 300) throws
        -> TiltboxBinary.Result
    {
        try command("sbatch", arguments, directory: directory ?? self.directory.url, timeout: timeout)
    }

    // MARK: - Stopping

    /// Stops every daemon the cluster started, slurmd and slurmctld first, munged last: SIGTERM,
    /// then SIGKILL for one still running after `grace` seconds. Then kills any process left
    /// behind that still names the cluster's folder in its command line or environment (a job
    /// step of a job that was running). Safe to call more than once.
    func stop(grace: TimeInterval = 30) {
        for daemon in daemons.reversed() where daemon.process.isRunning {
            daemon.process.send(SIGTERM)
            daemon.process.waitForExit(within: grace)
        }
        for pid in leftoverProcesses() {
            kill(pid, SIGKILL)
        }
    }

    /// Processes other than this one whose command line or environment mentions the cluster's
    /// folder: the daemons (they were started with paths in it), the job steps and jobs they
    /// started (they inherit `SLURM_CONF`). Empty once the cluster has stopped.
    func leftoverProcesses() -> [pid_t] {
        Self.processes(naming: directory.url.path)
    }

    /// Processes other than this one whose command line or environment contains `path`.
    static func processes(naming path: String) -> [pid_t] {
        let marker = Data(path.utf8)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> pid_t? in
            guard let pid = pid_t(name), pid != getpid() else { return nil }
            for file in ["cmdline", "environ"] {
                if let data = FileManager.default.contents(atPath: "/proc/\(pid)/\(file)"),
                    data.range(of: marker) != nil
                {
                    return pid
                }
            }
            return nil
        }
    }

    /// The last lines of every daemon's log, for a failure message.
    func diagnostics(lines: Int = 40) -> String {
        daemons.map { daemon in
            let text = (try? String(contentsOfFile: daemon.log, encoding: .utf8)) ?? "(no log)"
            let tail = TiltboxBinary.Result.lines(text).suffix(lines).joined(separator: "\n")
            return "--- \(daemon.name) (pid \(daemon.process.pid), \(daemon.process.state)), \(daemon.log):\n\(tail)"
        }.joined(separator: "\n")
    }

    // MARK: - Starting

    private func start(timeout: TimeInterval, extraConfiguration: String) throws {
        let deadline = Date().addingTimeInterval(timeout)
        let fileManager = FileManager.default
        for folder in ["munge", "state", "spool", "log"] {
            try fileManager.createDirectory(
                atPath: directory.path(folder), withIntermediateDirectories: true,
                attributes: [.posixPermissions: 0o700])
        }
        try writeMungeKey(directory.path("munge/munge.key"))
        try Data(configuration(extra: extraConfiguration).utf8).write(to: URL(fileURLWithPath: configPath))

        try launch(
            "munged", package: "munge",
            [
                "--foreground", "--force",
                "--socket=\(mungeSocket)",
                "--key-file=\(directory.path("munge/munge.key"))",
                "--pid-file=\(directory.path("munge/munged.pid"))",
                "--log-file=\(directory.path("log/munged.file.log"))",
                "--seed-file=\(directory.path("munge/munged.seed"))",
            ])
        try waitUntil(deadline, "munged to create its socket \(mungeSocket)") {
            fileManager.fileExists(atPath: mungeSocket)
        }
        try launch("slurmctld", package: "slurm-wlm", ["-D", "-f", configPath])
        try launch("slurmd", package: "slurm-wlm", ["-D", "-f", configPath, "-N", nodeName])
        try waitUntil(deadline, "sinfo to show node \(nodeName) idle") {
            let state = try? command("sinfo", ["--noheader", "--Node", "--format=%T"], timeout: 20)
            return state?.status == 0 && state?.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "idle"
        }
    }

    /// A random 1024-byte munge key readable by its owner only (munged refuses a key others can read).
    private func writeMungeKey(_ path: String) throws {
        var generator = SystemRandomNumberGenerator()
        let key = Data((0..<1024).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        try key.write(to: URL(fileURLWithPath: path))
        try FileManager.default.setAttributes([.posixPermissions: 0o400], ofItemAtPath: path)
    }

    /// `slurm.conf` for the cluster. Beyond the plugins that need no cgroups or accounting:
    /// `CR_CPU`, so tasks share the node by CPU (without it each task takes all the node's
    /// memory and an array runs one task at a time), and `MinJobAge=5`, which makes
    /// `sbatch --wait` poll every 2 s (it backs off to 32 s when finished jobs are kept
    /// longer); `batch_sched_delay=0` starts the next tasks as soon as CPUs are free.
    private func configuration(extra: String) -> String {
        """
        ClusterName=tiltbox
        SlurmctldHost=\(nodeName)(127.0.0.1)
        SlurmctldPort=\(controllerPort)
        SlurmdPort=\(nodePort)
        SlurmUser=\(Self.userName())
        AuthType=auth/munge
        AuthInfo=socket=\(mungeSocket)
        StateSaveLocation=\(directory.path("state"))
        SlurmdSpoolDir=\(directory.path("spool"))
        SlurmctldPidFile=\(directory.path("slurmctld.pid"))
        SlurmdPidFile=\(directory.path("slurmd.pid"))
        ProctrackType=proctrack/linuxproc
        TaskPlugin=task/none
        JobAcctGatherType=jobacct_gather/none
        SelectType=select/cons_tres
        SelectTypeParameters=CR_CPU
        SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
        MinJobAge=5
        MpiDefault=none
        MailProg=/bin/true
        ReturnToService=2
        \(extra)
        NodeName=\(nodeName) NodeAddr=127.0.0.1 CPUs=2 State=UNKNOWN
        PartitionName=debug Nodes=\(nodeName) Default=YES MaxTime=INFINITE State=UP

        """
    }

    private func launch(_ name: String, package: String, _ arguments: [String]) throws {
        let executable = try ExternalCommand.executable(name, package: package)
        let log = directory.path("log/\(name).log")
        let process = try ChildProcess(
            executable, arguments, stdout: log, stderr: log, environment: environment,
            directory: directory.url)
        daemons.append(Daemon(name: name, process: process, log: log))
    }

    /// Polls `condition` every 250 ms until it holds; fails when the deadline passes or a
    /// daemon has ended.
    private func waitUntil(_ deadline: Date, _ what: String, _ condition: () -> Bool) throws {
        while true {
            if condition() { return }
            if let dead = daemons.first(where: { !$0.process.isRunning }) {
                throw StartFailed(
                    folder: directory.url.path,
                    description: "\(dead.name) \(dead.process.state) while waiting for \(what)")
            }
            if Date() >= deadline {
                throw StartFailed(folder: directory.url.path, description: "timed out waiting for \(what)")
            }
            usleep(250_000)
        }
    }

    // MARK: - Host facts

    /// This host's name up to its first dot (`hostname -s`).
    static func shortHostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return String(name.split(separator: ".").first ?? "localhost")
    }

    static func userName() -> String {
        guard let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name else { return "root" }
        return String(cString: name)
    }

    /// `count` distinct TCP ports free on this host right now (the kernel's choice of
    /// ephemeral ports, all held open until every one is chosen).
    static func freePorts(_ count: Int) throws -> [Int] {
        var sockets: [Int32] = []
        defer { for fd in sockets { close(fd) } }
        var ports: [Int] = []
        for _ in 0..<count {
            #if canImport(Glibc)
                let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            #else
                let fd = socket(AF_INET, SOCK_STREAM, 0)
            #endif
            guard fd >= 0 else { throw POSIXError(.EMFILE) }
            sockets.append(fd)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = 0
            address.sin_addr.s_addr = INADDR_ANY
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic -> Bool in
                    bind(fd, generic, length) == 0 && getsockname(fd, generic, &length) == 0
                }
            }
            guard bound else { throw POSIXError(.EADDRINUSE) }
            ports.append(Int(UInt16(bigEndian: address.sin_port)))
        }
        return ports
    }

    /// True when a TCP port can be bound on this host (nothing listens on it any more).
    static func portIsFree(_ port: Int) -> Bool {
        #if canImport(Glibc)
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
            let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var reuse: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = INADDR_ANY
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }
}
