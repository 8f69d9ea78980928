import Foundation
import Testing

/// A trace is a pure function of the scenario whatever the heap's layout (README, Determinism):
/// the built binary writes the same bytes with address randomisation as it is, with glibc's
/// allocator filling and placing blocks differently, and with the environment (and so the
/// stack and the first allocations) of another size. Chipmunk makes `separate` calls in the
/// order of a hash set keyed by shape addresses; before they were settled by the shapes'
/// numbers, a scenario whose separate rules fire for several pairs in one step wrote a
/// different trace on every run.
@Suite struct HeapLayoutDeterminismTests {
    /// One way to start `tiltbox` with its heap laid out otherwise.
    struct Layout: CustomStringConvertible {
        var description: String
        var environment: [String: String]
    }

    /// Address randomisation stays on in every one (each run has its own addresses).
    static let layouts: [Layout] = [
        Layout(description: "as started", environment: [:]),
        Layout(description: "MALLOC_PERTURB_=165", environment: ["MALLOC_PERTURB_": "165"]),
        Layout(
            description: "a 100 000-byte environment variable",
            environment: ["TILTBOX_TEST_PADDING": String(repeating: "x", count: 100_000)]),
        Layout(description: "no thread cache", environment: ["GLIBC_TUNABLES": "glibc.malloc.tcache_count=0"]),
        Layout(description: "MALLOC_TOP_PAD_=16 MiB", environment: ["MALLOC_TOP_PAD_": "16777216"]),
        Layout(description: "MALLOC_MMAP_THRESHOLD_=4096", environment: ["MALLOC_MMAP_THRESHOLD_": "4096"]),
        Layout(
            description: "one arena, two cached blocks, MALLOC_PERTURB_=7",
            environment: [
                "GLIBC_TUNABLES": "glibc.malloc.arena_max=1:glibc.malloc.tcache_count=2", "MALLOC_PERTURB_": "7",
            ]),
    ]

    /// One run: a scenario under a layout, writing its trace to `trace`.
    struct Job {
        var scenario: String
        var layout: Layout
        var trace: String
        var hashes: Bool
    }

    /// Runs `jobs`, two at a time (the machine has two cores), and returns each trace's bytes.
    static func traces(_ jobs: [Job], in directory: TemporaryDirectory) throws -> [Data] {
        var traces: [Data] = []
        for start in stride(from: 0, to: jobs.count, by: 2) {
            let batch = jobs[start..<min(start + 2, jobs.count)]
            let processes = try batch.enumerated().map { offset, job in
                var arguments = ["run", job.scenario, "--view", "none", "-q", "--trace", job.trace]
                if job.hashes { arguments.append("--hashes") }
                return try TiltboxBinary.start(
                    arguments, stdout: directory.url.appendingPathComponent("out\(offset)"),
                    stderr: directory.url.appendingPathComponent("err\(offset)"), environment: job.layout.environment)
            }
            for (process, job) in zip(processes, batch) {
                process.waitUntilExit()
                #expect(
                    process.terminationReason == .exit && process.terminationStatus == 0,
                    "\(job.scenario) under \(job.layout) exited \(process.terminationStatus)")
                traces.append(try Data(contentsOf: URL(fileURLWithPath: job.trace)))
            }
        }
        return traces
    }

    @Test func separateRulesRemovalsAndASensorWriteTheSameTraceUnderEveryHeapLayout() throws {
        let directory = try TemporaryDirectory()
        let scenario = PackageFiles.root.appendingPathComponent("Tests/Scenes/separate-order.json").path
        // Every layout, and three more runs as started: ten runs of the old binary gave ten traces.
        let layouts = Self.layouts + Array(repeating: Self.layouts[0], count: 3)
        let jobs = layouts.enumerated().map { index, layout in
            Job(scenario: scenario, layout: layout, trace: directory.path("rules\(index).jsonl"), hashes: false)
        }
        let traces = try Self.traces(jobs, in: directory)
        let first = try #require(traces.first)
        #expect(String(decoding: first, as: UTF8.self).contains(#""counters":{"lift":6,"drop":6,"through":6"#))
        // Compared as a Bool: a failing `#expect` of two `Data` would diff their bytes (Myers,
        // quadratic in 175 KB) to describe them.
        for (trace, layout) in zip(traces, layouts) {
            let same = trace == first
            #expect(same, "under \(layout) the trace differs from the first run's")
        }
    }

    @Test func everyShippedScenarioWritesTheSameHashTraceUnderTwoHeapLayouts() throws {
        let directory = try TemporaryDirectory()
        let folder = PackageFiles.root.appendingPathComponent("Scenarios")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
            .filter { $0.hasSuffix(".json") }.sorted()
        try #require(names.count >= 10, "found only \(names)")
        // As started, then one of the others, in turn, so that the scenarios together use them all.
        // (A run costs about 0.16 s of CPU, mostly starting the process: two runs a scenario keep
        // the test to a few seconds; the rule scenario above runs ten times.)
        var jobs: [Job] = []
        for (k, name) in names.enumerated() {
            for layout in [Self.layouts[0], Self.layouts[1 + k % (Self.layouts.count - 1)]] {
                jobs.append(
                    Job(
                        scenario: folder.appendingPathComponent(name).path, layout: layout,
                        trace: directory.path("\(name)-\(jobs.count).jsonl"), hashes: true))
            }
        }
        let traces = try Self.traces(jobs, in: directory)
        for index in stride(from: 0, to: jobs.count, by: 2) {
            let same = traces[index + 1] == traces[index]
            #expect(same, "\(jobs[index].scenario) under \(jobs[index + 1].layout) differs from its run as started")
        }
    }
}
