import Foundation
@_spi(Tools) import Tiltbox

/// Runs the points of a batch, each in its own child `tiltbox` process (this same
/// executable), at most `parallel` at a time, and classifies how each ended.
///
/// A child that dies of a signal (a Chipmunk abort, a crash, a kill) is that point's
/// `error`, never the batch's. On SIGINT, SIGTERM, SIGHUP or SIGQUIT the running children
/// are sent SIGTERM and waited for up to `childPatience`; a child still running then is
/// killed (SIGKILL) and its temporary trace files removed. The points that finished keep
/// their results. Each child is tied to the batch (`BatchParent`): if the batch itself is
/// killed outright, its children get SIGTERM and publish nothing.
final class BatchExecutor {
    /// How long a signalled child has to end before it is killed: the child's own
    /// watchdog ends a run stuck in a step after `InterruptWatchdog.patience` (and gives up
    /// on a stuck trace write after `writePatience` more), so this is well past both.
    static let childPatience: Double = 10
    private let executable: URL
    private let scratch: URL
    private let parallel: Int

    init(parallel: Int) throws {
        // The running binary itself, even if it was started through a symbolic link or PATH.
        let link =
            (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? Bundle.main.executablePath ?? CommandLine.arguments[0]
        executable = URL(fileURLWithPath: link)
        var template = Array((FileManager.default.temporaryDirectory.path + "/tiltbox-batch-XXXXXX").utf8CString)
        guard let made = mkdtemp(&template) else {
            throw InputError(
                file: FileManager.default.temporaryDirectory.path,
                reason: "cannot create a scratch folder: \(String(cString: strerror(errno)))")
        }
        scratch = URL(fileURLWithPath: String(cString: made), isDirectory: true)
        self.parallel = max(1, parallel)
    }

    deinit {
        try? FileManager.default.removeItem(at: scratch)
    }

    /// A started child and where its outputs go.
    private struct Running {
        var point: BatchPoint
        var process: Process
        var started: Double
        var stdout: URL
        var stderr: URL
        var summary: URL
    }

    /// Runs `points`; returns the results of those that finished, in index order, and
    /// whether a signal stopped the batch.
    func run(_ points: [BatchPoint], progress: inout BatchProgress) throws -> (
        results: [BatchJobResult], interrupted: Bool
    ) {
        let finished = DispatchSemaphore(value: 0)
        var pending = points[...]
        var running: [Running] = []
        var results: [BatchJobResult] = []
        while !pending.isEmpty || !running.isEmpty {
            if InterruptSignal.isRaised {
                stop(running)
                try progress.finish()
                return (results.sorted { $0.index < $1.index }, true)
            }
            while running.count < parallel, let point = pending.first {
                pending = pending.dropFirst()
                do {
                    running.append(try start(point, finished: finished))
                } catch {
                    // No child could be started (no process slots, no scratch space): this job's error.
                    let result = BatchJobResult(
                        index: point.index, name: point.name, status: .error,
                        message: "cannot start a child tiltbox: \(error)", parameters: point.parameters)
                    results.append(result)
                    try progress.record(result)
                }
            }
            _ = finished.wait(timeout: .now() + 0.2)
            let now = RealTimeClock.now()
            var still: [Running] = []
            for child in running {
                // After Ctrl-C the children (same process group) got SIGINT too: a child ending
                // now was interrupted, not finished; the check at the top of the loop stops the batch.
                if child.process.isRunning || InterruptSignal.isRaised {
                    still.append(child)
                } else {
                    let result = classify(child, wall: now - child.started)
                    results.append(result)
                    try progress.record(result)
                }
            }
            running = still
        }
        try progress.finish()
        return (results.sorted { $0.index < $1.index }, false)
    }

    /// Sends the running children SIGTERM, waits up to `childPatience` for them, then kills
    /// the rest and removes the temporary files of their traces.
    private func stop(_ running: [Running]) {
        for child in running where child.process.isRunning { kill(child.process.processIdentifier, SIGTERM) }
        let deadline = RealTimeClock.now() + Self.childPatience
        while running.contains(where: { $0.process.isRunning }) && RealTimeClock.now() < deadline {
            usleep(20_000)
        }
        for child in running where child.process.isRunning {
            kill(child.process.processIdentifier, SIGKILL)
            child.process.waitUntilExit()
            for output in child.point.job.outputs { Self.removeTemporaries(of: output) }
        }
        for child in running { child.process.waitUntilExit() }
    }

    /// Removes the temporary files a killed writer of `path` left beside it (`.NAME.tiltbox-XXXXXX`).
    private static func removeTemporaries(of path: String) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        let prefix = ".\(url.lastPathComponent).tiltbox-"
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        for name in names where name.hasPrefix(prefix) && name.count == prefix.count + 6 {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    private func start(_ point: BatchPoint, finished: DispatchSemaphore) throws -> Running {
        let base = scratch.appendingPathComponent("\(point.index)")
        let child = Running(
            point: point, process: Process(), started: 0,
            stdout: base.appendingPathExtension("stdout"), stderr: base.appendingPathExtension("stderr"),
            summary: base.appendingPathExtension("summary.json"))
        guard FileManager.default.createFile(atPath: child.stdout.path, contents: nil),
            FileManager.default.createFile(atPath: child.stderr.path, contents: nil)
        else {
            throw InputError(file: scratch.path, reason: "cannot create the job's output files")
        }
        let out = try FileHandle(forWritingTo: child.stdout)
        let err = try FileHandle(forWritingTo: child.stderr)
        defer {
            try? out.close()
            try? err.close()
        }
        child.process.executableURL = executable
        child.process.arguments = point.childArguments(summaryPath: child.summary.path)
        var environment = ProcessInfo.processInfo.environment
        environment[BatchParent.parentVariable] = String(getpid())
        environment[BatchParent.scratchVariable] = base.path
        child.process.environment = environment
        child.process.standardInput = FileHandle.nullDevice
        child.process.standardOutput = out
        child.process.standardError = err
        child.process.terminationHandler = { _ in finished.signal() }
        var started = child
        started.started = RealTimeClock.now()
        try child.process.run()
        return started
    }

    /// How a finished child's job came out (FORMATS §6 statuses).
    private func classify(_ child: Running, wall: Double) -> BatchJobResult {
        let point = child.point
        var result = BatchJobResult(
            index: point.index, name: point.name, status: .error, wallSeconds: wall,
            parameters: point.parameters)
        let stdout = (try? String(contentsOf: child.stdout, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: child.stderr, encoding: .utf8)) ?? ""
        let lastError = stderr.split(separator: "\n").last.map { InertText.escape(String($0)) }
        if child.process.terminationReason == .uncaughtSignal {
            let signal = child.process.terminationStatus
            result.signal = signal
            let name = strsignal(signal).map { String(cString: $0) } ?? "signal \(signal)"
            let said = CrashReport.lastMeaningfulLine(of: stderr).map(InertText.escape)
            result.message = "killed by signal \(signal) (\(name))" + (said.map { ": \($0)" } ?? "")
            return result
        }
        let exit = child.process.terminationStatus
        result.exit = exit
        if case .run = point.job.kind, let summary = RunSummaryFile.read(child.summary.path) {
            result.steps = summary.steps
            result.digest = summary.digest
            result.metrics = summary.metrics
            result.expectations = summary.expectations
        }
        switch exit {
        case 0:
            result.status = .passed
        case 1:
            if case .verify = point.job.kind {
                result.status = .diverged
                let lines = stdout.split(separator: "\n").map(String.init)
                result.firstDivergence = (lines.first(where: { $0.hasPrefix("differ:") }) ?? lines.first).map(
                    InertText.escape)
                result.message = lastError
            } else {
                result.status = .failed
                // A run whose expectations failed: the first failure line names it.
                result.message = result.expectations.first(where: { $0.line != nil })?.line ?? lastError
            }
        case 2:
            result.status = .error
            result.message = lastError ?? "bad input (exit 2)"
        default:
            result.status = .failed
            result.message = "exit \(exit)" + (lastError.map { ": \($0)" } ?? "")
        }
        return result
    }
}

/// The progress line of a batch on standard error, drawn only on a terminal:
/// points done / total, failures so far and an estimate of the time left.
struct BatchProgress {
    private let enabled: Bool
    private let total: Int
    private let startedAt: Double
    private var done = 0
    private var failing = 0
    private var drawn = false

    init(total: Int, enabled: Bool = Console.standardErrorIsTerminal) {
        self.total = total
        self.enabled = enabled
        self.startedAt = RealTimeClock.now()
    }

    mutating func record(_ result: BatchJobResult) throws {
        done += 1
        if result.status != .passed { failing += 1 }
        guard enabled else { return }
        let elapsed = RealTimeClock.now() - startedAt
        let eta =
            done > 0 && done < total
            ? String(format: ", ETA %.0f s", elapsed / Double(done) * Double(total - done)) : ""
        try Console.write("\r\u{1B}[K  batch: \(done)/\(total) done, \(failing) failing\(eta)", to: .error)
        drawn = true
    }

    mutating func finish() throws {
        guard drawn else { return }
        drawn = false
        try Console.write("\r\u{1B}[K", to: .error)
    }
}
