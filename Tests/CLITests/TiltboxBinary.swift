import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The built `tiltbox` executable, run as a child process the way a user or CI runs it.
///
/// Found from `TILTBOX_BIN` when set, else beside the running test bundle (SwiftPM puts
/// `tiltbox` and `TiltboxPackageTests.xctest` in the same build folder, and the CLITests
/// target depends on the executable so `swift test` builds it first).
/// Standard output and error go to temporary files rather than pipes, so a run that
/// writes megabytes of trace can never block on a full pipe buffer.
enum TiltboxBinary {
    struct NotFound: Error, CustomStringConvertible {
        var searched: [String]
        var description: String {
            "cannot find the built tiltbox executable; looked at: \(searched.joined(separator: ", ")). "
                + "Run `swift build` first or set TILTBOX_BIN to its path."
        }
    }

    /// What a finished run left behind.
    struct Result {
        var status: Int32
        var stdoutData: Data
        var stderrData: Data
        var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
        var stderr: String { String(decoding: stderrData, as: UTF8.self) }
        /// Standard output split into lines, without the final empty piece.
        var stdoutLines: [String] { Self.lines(stdout) }
        var stderrLines: [String] { Self.lines(stderr) }

        static func lines(_ text: String) -> [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }
    }

    /// The executable's URL, or `NotFound` listing where it looked.
    static func url() throws -> URL {
        var candidates: [URL] = []
        if let explicit = ProcessInfo.processInfo.environment["TILTBOX_BIN"], !explicit.isEmpty {
            candidates.append(URL(fileURLWithPath: explicit))
        } else {
            // Linux: the test bundle is an executable and Bundle.main is its folder.
            candidates.append(Bundle.main.bundleURL.appendingPathComponent("tiltbox"))
            let argv0 = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
            candidates.append(argv0.deletingLastPathComponent().appendingPathComponent("tiltbox"))
            // macOS: the tests run inside PackageTests.xctest; tiltbox sits beside the bundle.
            for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
                candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("tiltbox"))
            }
        }
        for candidate in candidates where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw NotFound(searched: candidates.map(\.path))
    }

    /// Where a child's standard output or error goes instead of a capture file.
    enum Destination {
        /// A pipe whose read end is closed before the child starts: its first write fails
        /// with EPIPE, every time (no race with a reader that closes early).
        case closedPipe
        /// `/dev/full`: every write fails with ENOSPC.
        case full

        /// A handle for the child's end; the parent lets go of it once the child has started.
        func handle() throws -> FileHandle {
            switch self {
            case .closedPipe:
                var ends: [Int32] = [0, 0]
                guard pipe(&ends) == 0 else { throw POSIXError(.EMFILE) }
                close(ends[0])
                return FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            case .full:
                guard let handle = FileHandle(forWritingAtPath: "/dev/full") else { throw POSIXError(.ENOENT) }
                return handle
            }
        }
    }

    /// Starts `tiltbox arguments...` with standard output and error going to the given
    /// files (or to `stdoutTo` / `stderrTo` when given) and standard input from `/dev/null`;
    /// `environment` adds to (or overrides) this process's environment.
    static func start(
        _ arguments: [String], stdout: URL, stderr: URL, environment: [String: String] = [:],
        stdoutTo: Destination? = nil, stderrTo: Destination? = nil
    ) throws -> Process {
        _ = FileManager.default.createFile(atPath: stdout.path, contents: nil)
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        let process = Process()
        process.executableURL = try url()
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
        let outHandle = try stdoutTo?.handle() ?? FileHandle(forWritingTo: stdout)
        let errHandle = try stderrTo?.handle() ?? FileHandle(forWritingTo: stderr)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = FileHandle.nullDevice
        try withInterruptSignalsUnblocked { try process.run() }
        // The child has its own copies; a closed pipe must have no writer left here either.
        try? outHandle.close()
        try? errHandle.close()
        return process
    }

    /// Runs `body` with SIGINT and SIGTERM unblocked on this thread.
    ///
    /// A child inherits the signal mask of the thread that spawns it, and Foundation's
    /// `Process` does not reset it. Swift Testing runs tests on worker threads that block
    /// SIGINT and SIGTERM, so without this a spawned `tiltbox` would never see the
    /// signals `process.interrupt()` and `process.terminate()` send.
    private static func withInterruptSignalsUnblocked<R>(_ body: () throws -> R) rethrows -> R {
        var unblock = sigset_t()
        var previous = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, SIGINT)
        sigaddset(&unblock, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &unblock, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Runs `tiltbox arguments...` to the end and returns its exit status and output.
    /// A stream sent to a `Destination` instead of being captured comes back empty.
    static func run(
        _ arguments: [String], in directory: TemporaryDirectory, environment: [String: String] = [:],
        stdoutTo: Destination? = nil, stderrTo: Destination? = nil
    ) throws -> Result {
        let name = UUID().uuidString
        let out = directory.url.appendingPathComponent("\(name).stdout")
        let err = directory.url.appendingPathComponent("\(name).stderr")
        let process = try start(
            arguments, stdout: out, stderr: err, environment: environment,
            stdoutTo: stdoutTo, stderrTo: stderrTo)
        process.waitUntilExit()
        #expect(
            process.terminationReason == .exit,
            "tiltbox \(arguments.joined(separator: " ")) died of signal \(process.terminationStatus)")
        let result = Result(
            status: process.terminationStatus,
            stdoutData: try Data(contentsOf: out), stderrData: try Data(contentsOf: err))
        try? FileManager.default.removeItem(at: out)
        try? FileManager.default.removeItem(at: err)
        return result
    }
}

/// A fresh folder for one test's files, removed when the test lets go of it.
final class TemporaryDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("tiltbox-clitests-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// The path of `name` inside the folder.
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let p = path(name)
        try Data(text.utf8).write(to: URL(fileURLWithPath: p))
        return p
    }
}

/// The package's shipped files, found from this source file's location.
enum PackageFiles {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func scenario(_ name: String) -> String {
        root.appendingPathComponent("Scenarios").appendingPathComponent(name).path
    }

    /// A copy of the shipped scenario `name` without its `expect`, in `directory`: for tests
    /// that drive it with an input the scenario's intent does not cover (a phone, arrow keys),
    /// whose `run` would otherwise exit 1 when an expectation fails under that input.
    static func scenarioWithoutExpectations(_ name: String, in directory: String) throws -> String {
        let data = try Data(contentsOf: URL(fileURLWithPath: scenario(name)))
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["expect"] = nil
        let path = URL(fileURLWithPath: directory).appendingPathComponent(name).path
        try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]).write(to: URL(fileURLWithPath: path))
        return path
    }

    static var shippedScenarios: [String] {
        let folder = root.appendingPathComponent("Scenarios")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { folder.appendingPathComponent($0).path }
    }
}

/// Reads JSON lines with Foundation's parser, independent of Tiltbox's own.
enum JSONLines {
    /// Parses every line of `text` as a JSON object; records an issue for each line that does not parse.
    static func objects(_ text: String, source: String) -> [[String: Any]] {
        var objects: [[String: Any]] = []
        for (index, line) in TiltboxBinary.Result.lines(text).enumerated() {
            let parsed = try? JSONSerialization.jsonObject(with: Data(line.utf8))
            guard let object = parsed as? [String: Any] else {
                Issue.record("\(source) line \(index + 1) is not a JSON object: \(line.prefix(200))")
                continue
            }
            objects.append(object)
        }
        return objects
    }

    /// Every line of the file at `path` parsed as a JSON object.
    static func objects(file path: String) throws -> [[String: Any]] {
        objects(try text(file: path), source: path)
    }

    /// Every line of the file at `path`, as text.
    static func lines(file path: String) throws -> [String] {
        TiltboxBinary.Result.lines(try text(file: path))
    }

    static func text(file path: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self)
    }

    /// The bounds `[minX, minY, maxX, maxY]` of the bodies that the last record at `step` of the
    /// trace at `path` lists, each body reaching `reach` (a ball's radius) beyond its position,
    /// as a run's summary metrics compute them; and how many bodies that record lists.
    /// Records an issue and throws when the trace has no such record or the record no body.
    static func bodyBounds(
        atStep step: Int, reach: Double, trace path: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (bodies: Int, bounds: [Double]) {
        let last = try #require(
            try lines(file: path).last { $0.hasPrefix(#"{"step":\#(step),"#) }, "no record at step \(step)",
            sourceLocation: sourceLocation)
        let record = try #require(
            try JSONSerialization.jsonObject(with: Data(last.utf8)) as? [String: Any], sourceLocation: sourceLocation)
        let states = try #require(record["s"] as? [[Double]], sourceLocation: sourceLocation)
        let xs = states.map { $0[0] }, ys = states.map { $0[1] }
        let minX = try #require(xs.min(), "the record lists no body", sourceLocation: sourceLocation)
        let minY = try #require(ys.min(), sourceLocation: sourceLocation)
        let maxX = try #require(xs.max(), sourceLocation: sourceLocation)
        let maxY = try #require(ys.max(), sourceLocation: sourceLocation)
        return (states.count, [minX - reach, minY - reach, maxX + reach, maxY + reach])
    }

    /// A JSON number as a Double, exactly.
    ///
    /// swift-corelibs-foundation's JSONSerialization can hand back a Decimal-backed
    /// number whose `doubleValue` is off by an ULP (`0.43333333333333335` reads as
    /// `0.4333333333333334`), so the number's decimal text is parsed again with
    /// Swift's correctly rounded `Double(_:)`.
    static func number(_ value: Any?) -> Double? {
        guard let number = value as? NSNumber else { return nil }
        return Double(number.description) ?? number.doubleValue
    }
}
