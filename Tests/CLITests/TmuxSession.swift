import Foundation
import Testing

/// A detached tmux session of a fixed size on a private server socket, running one
/// shell command: the real-terminal harness for the live view.
final class TmuxSession {
    let socket: String
    let name = "t"
    let directory: TemporaryDirectory

    /// Starts `command` (a shell command line) in a new detached session of `columns`×`rows`.
    /// After the command, the shell writes its exit status and `stty -a` into the folder
    /// and lingers, so the pane can still be read.
    init(command: String, columns: Int = 100, rows: Int = 30, directory: TemporaryDirectory) throws {
        self.directory = directory
        socket = "tiltbox-test-\(UUID().uuidString.prefix(8))"
        let script =
            "\(command); echo $? > \(directory.path("exit-status")); stty -a > \(directory.path("stty")); sleep 60"
        try Self.tmux(["-L", socket, "new-session", "-d", "-s", name, "-x", "\(columns)", "-y", "\(rows)", script])
    }

    deinit {
        _ = try? Self.tmux(["-L", socket, "kill-server"])
    }

    /// Runs the tmux client and returns its standard output.
    ///
    /// Launched with `posix_spawn` and reaped with `waitpid`, output through a file:
    /// `new-session` forks the tmux server, which inherits the client's descriptors, and
    /// Foundation's `Process` on Linux would wait for those to close, for ever.
    @discardableResult
    static func tmux(_ arguments: [String]) throws -> String {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tmux-\(UUID().uuidString).out").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ["tmux"] + arguments
        var cArgs = argv.map { strdup($0) } + [nil]
        defer { for p in cArgs { free(p) } }
        var pid = pid_t()
        let spawned = posix_spawnp(&pid, "tmux", &actions, nil, &cArgs, environ)
        guard spawned == 0 else { throw CocoaError(.executableNotLoadable) }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
    }

    static var isAvailable: Bool {
        (try? tmux(["-V"]).hasPrefix("tmux")) ?? false
    }

    /// The visible screen, one line per row; with `escapes`, with the colours and
    /// attributes of the text as ANSI escape sequences (`capture-pane -e`).
    func capture(escapes: Bool = false) throws -> String {
        try Self.tmux(["-L", socket, "capture-pane", "-p"] + (escapes ? ["-e"] : []) + ["-t", name])
    }

    /// A tmux format value for the pane, such as `#{alternate_on}` or `#{cursor_flag}`.
    func display(_ format: String) throws -> String {
        try Self.tmux(["-L", socket, "display-message", "-p", "-t", name, format])
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func send(_ keys: String...) throws {
        try Self.tmux(["-L", socket, "send-keys", "-t", name] + keys)
    }

    /// Waits until `condition` holds, polling every 50 ms, up to `seconds`.
    func wait(seconds: Double, until condition: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return try condition()
    }

    /// The command's exit status once it has ended (waits up to `seconds`).
    func exitStatus(within seconds: Double) -> Int32? {
        let file = directory.path("exit-status")
        _ = wait(seconds: seconds) { FileManager.default.fileExists(atPath: directory.path("stty")) }
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        return Int32(text.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// `stty -a` as the shell saw it after the command ended.
    var sttyAfterExit: String { (try? String(contentsOfFile: directory.path("stty"), encoding: .utf8)) ?? "" }
}

extension String {
    /// True when the text holds at least one non-blank braille cell (U+2801…U+28FF).
    var containsBraille: Bool {
        unicodeScalars.contains { $0.value > 0x2800 && $0.value <= 0x28FF }
    }
}
