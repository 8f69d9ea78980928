import Foundation
import Testing

/// Runs the built `tiltbox` as one child and measures it: exit status, wall time and the
/// child's own peak resident memory, from `wait4`'s resource usage of exactly that child.
///
/// The child is started by a small Python helper, not by this test process: Linux
/// records the peak of the memory a process had before `exec` in its `ru_maxrss`, and a
/// child spawned with `posix_spawn` (a vfork) would report the test process's own peak.
/// The helper's peak before `exec` is a few MiB, below any `tiltbox` run's.
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

    /// Whether this test process, and so the `tiltbox` it runs, is built with
    /// AddressSanitizer (`make sanitize`): its runtime is then linked in.
    static let underAddressSanitizer = dlsym(nil, "__asan_init") != nil

    /// A peak-memory bound in MiB for a child run: `mebibytes` for a plain build. Under
    /// AddressSanitizer every allocation carries redzones and shadow memory and the
    /// runtime has its own heap, so the bound there is three times as much plus 64 MiB
    /// (the child runs with ASan's quarantine of freed memory off; see `run`). Still a
    /// constant: what the tests catch, memory that grows with the input, fails either way.
    static func bound(_ mebibytes: Double) -> Double {
        underAddressSanitizer ? 3 * mebibytes + 64 : mebibytes
    }
    /// One line for expectation messages.
    var summary: String {
        "status \(status)\(signal.map { " (signal \($0))" } ?? ""), \(String(format: "%.2f", seconds)) s, "
            + "\(String(format: "%.1f", peakMiB)) MiB peak; stderr: \(stderr.prefix(500))"
    }

    static let helper = #"""
        import json, os, signal, sys, time
        out, err, args = sys.argv[1], sys.argv[2], sys.argv[3:]
        started = time.monotonic()
        pid = os.fork()
        if pid == 0:
            try:
                signal.pthread_sigmask(signal.SIG_SETMASK, [])
                os.dup2(os.open("/dev/null", os.O_RDONLY), 0)
                os.dup2(os.open(out, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 1)
                os.dup2(os.open(err, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644), 2)
                os.execv(args[0], args)
            finally:
                os._exit(127)
        _, status, usage = os.wait4(pid, 0)
        seconds = time.monotonic() - started
        print(json.dumps({"status": os.waitstatus_to_exitcode(status), "seconds": seconds,
                          "maxrssKiB": usage.ru_maxrss}))
        """#

    static func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> MeasuredRun {
        let executable = try TiltboxBinary.url().path
        let name = UUID().uuidString
        let out = directory.path("\(name).stdout"), err = directory.path("\(name).stderr")
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", helper, out, err, executable] + arguments
        if underAddressSanitizer {
            // ASan keeps up to 256 MiB of freed memory in quarantine by default: a
            // constant, but one that would dwarf the bounds above.
            var environment = ProcessInfo.processInfo.environment
            let options = [environment["ASAN_OPTIONS"], "quarantine_size_mb=0"].compactMap { $0 }
            environment["ASAN_OPTIONS"] = options.joined(separator: ":")
            python.environment = environment
        }
        let report = Pipe()
        python.standardOutput = report
        try python.run()
        let data = report.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        guard python.terminationStatus == 0,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any],
            let code = (object["status"] as? NSNumber)?.int32Value,
            let seconds = (object["seconds"] as? NSNumber)?.doubleValue,
            let kib = (object["maxrssKiB"] as? NSNumber)?.intValue
        else { throw HelperFailed(output: String(decoding: data, as: UTF8.self)) }
        let result = MeasuredRun(
            status: code >= 0 ? code : 128 - code,
            signal: code < 0 ? -code : nil,
            seconds: seconds,
            peakBytes: kib * 1024, // Linux reports kilobytes
            stdout: (try? String(contentsOfFile: out, encoding: .utf8)) ?? "",
            stderr: (try? String(contentsOfFile: err, encoding: .utf8)) ?? "")
        try? FileManager.default.removeItem(atPath: out)
        try? FileManager.default.removeItem(atPath: err)
        return result
    }

    struct HelperFailed: Error, CustomStringConvertible {
        var output: String
        var description: String { "the measuring helper (python3) failed: \(output)" }
    }
}
