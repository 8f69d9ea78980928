// tiltbox-bench: Tiltbox against the raw C engine, in one process, interleaved.
//
// For each size N it builds the benchmark pile (`BenchmarkPile`) twice, once with raw
// Chipmunk calls (CReferencePile) and once as a Tiltbox scenario, and times `--steps`
// steps of: the C loop (the limit), Tiltbox with no output, with a full trace, with
// `--every 10`, with a hash trace (`--hashes`) and with a compressed full trace (a path
// ending in `.zst`; shown as n/a when this build does not write zstd). One "pair" is a C
// run followed by the Tiltbox runs; ratios are per pair, then the median is taken.
// Building the worlds is not timed. Every run must end with the same state hash as the
// C loop: the wrapper must not change the physics.
//
// It then times the trace writer's number formatter alone (`--only numbers` below) and,
// with `--callgrind STRIPPED-COPY-OF-THIS-BINARY`, counts its instructions per double
// under callgrind (what `make bench` does); and it says which of the performance targets
// are met.
//
// `--only numbers` measures the trace writer's number formatter alone: it runs the pile
// for `--steps` steps keeping every record's states (not timed), then formats them all
// as the trace writer does, `--pairs` times, and prints the median nanoseconds per
// double. Under `valgrind --tool=callgrind --toggle-collect=tiltbox_format_states` with
// `--pairs 1`, the collected instructions divided by the doubles printed are the
// formatter's instructions per double.
//
// `--only zst` runs the full trace compressed (`.zst`) once; `--only zst-ratio` times it
// against the C loop and the plain full trace (CompressedTraceBench.swift).
//
// `--only draw` times the live view's drawing of one frame of the pile (DrawBench.swift).
//
//   tiltbox-bench [--sizes 100,1000] [--pairs 5] [--steps 1200] [--callgrind STRIPPED-BINARY]
//                 [--hash CELL:COUNT] [--write-scenario N] [--only c|none|full|every10|hashes|zst|numbers|zst-ratio|draw]
//   (or BENCH_SIZES, BENCH_PAIRS, BENCH_STEPS, BENCH_HASH in the environment)

import CNumberFormat
import CReferencePile
@_spi(Tools) import Tiltbox

#if canImport(Glibc)
    import Glibc
#endif

// MARK: - Options

struct Options {
    var sizes = [100, 1_000]
    var pairs = 5
    var steps = 1_200
    var hash: (cellSize: Double, count: Int)?
    var writeScenario: Int?
    /// Run one variant once (`c`, `none`, `full`, `every10`, `hashes`, `zst`) and print
    /// nothing but its hash: for counting instructions under `valgrind --tool=callgrind`.
    /// `numbers` times the number formatter alone on the pile's values, `draw` the live view's drawing of a frame.
    var only: String?
    /// A copy of this binary without debug information (valgrind 3.19 cannot read the
    /// toolchain's DWARF), run under callgrind to count the number formatter's instructions.
    var callgrind: String?
    /// `--scene NAME` (repeatable): the scenes `--only scenes` and `--only scene-c|scene-run` use.
    var scenes: [String] = []
    /// `--write-scene NAME`: print that scene as a scenario file.
    var writeScene: String?
    /// pymunk's step loop (`--pymunk-script`, default `scripts/bench-pymunk.py`).
    var pymunkScript = "scripts/bench-pymunk.py"
    /// `--step-cost SCRIPT --tiltbox STRIPPED-TILTBOX`: callgrind's per-step figures of each scene.
    var stepCostScript: String?
    var tiltbox: String?
    /// What `--only scene-run` writes: none, full or hashes.
    var output = SceneOutput.none

    static func parse() -> Options {
        var o = Options()
        func ints(_ text: String) -> [Int]? {
            let values = text.split(separator: ",").map { Int($0.filter { $0 != "_" }) }
            return values.contains(nil) || values.isEmpty ? nil : values.compactMap { $0 }
        }
        func hashSpec(_ text: String) -> (Double, Int)? {
            let parts = text.split(separator: ":")
            guard parts.count == 2, let c = Double(parts[0]), let n = Int(parts[1]), c > 0, n > 0 else { return nil }
            return (c, n)
        }
        let env = { (name: String) -> String? in
            getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 }
        }
        if let s = env("BENCH_SIZES") { o.sizes = ints(s) ?? bad("BENCH_SIZES=\(s)") }
        if let s = env("BENCH_PAIRS") { o.pairs = Int(s) ?? bad("BENCH_PAIRS=\(s)") }
        if let s = env("BENCH_STEPS") { o.steps = Int(s) ?? bad("BENCH_STEPS=\(s)") }
        if let s = env("BENCH_HASH") { o.hash = hashSpec(s) ?? bad("BENCH_HASH=\(s)") }
        var args = CommandLine.arguments.dropFirst()
        while let flag = args.popFirst() {
            guard let value = args.popFirst() else { usage("\(flag) needs a value") }
            switch flag {
            case "--sizes": o.sizes = ints(value) ?? bad("--sizes \(value)")
            case "--pairs": o.pairs = Int(value) ?? bad("--pairs \(value)")
            case "--steps": o.steps = Int(value) ?? bad("--steps \(value)")
            case "--hash": o.hash = hashSpec(value) ?? bad("--hash \(value)")
            case "--write-scenario": o.writeScenario = Int(value) ?? bad("--write-scenario \(value)")
            case "--callgrind": o.callgrind = value
            case "--scene":
                guard BenchScene.named(value) != nil else { usage("unknown scene \(value)") }
                o.scenes.append(value)
            case "--write-scene":
                guard BenchScene.named(value) != nil else { usage("unknown scene \(value)") }
                o.writeScene = value
            case "--pymunk-script": o.pymunkScript = value
            case "--step-cost": o.stepCostScript = value
            case "--tiltbox": o.tiltbox = value
            case "--output": o.output = SceneOutput(rawValue: value) ?? bad("--output \(value)")
            case "--only"
            where ["c", "numbers"].contains(value) || Variant(rawValue: value) != nil || value == "zst-ratio"
                || value == "draw" || ["scenes", "scene-c", "scene-run"].contains(value):
                o.only = value
            default: usage("unknown option \(flag)")
            }
        }
        if o.pairs < 1 || o.steps < 1 || o.sizes.contains(where: { $0 < 1 || $0 > 100_000 }) {
            usage("sizes in 1...100000, pairs and steps ≥ 1")
        }
        return o
    }
}

/// Writes `text` to standard error (progress lines; the tables go to standard output).
func warn(_ text: String) {
    var line = text
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// `usage` where a value is expected (`Int(text) ?? bad("...")`).
func bad<T>(_ problem: String) -> T { usage(problem) }

func usage(_ problem: String) -> Never {
    warn(
        "tiltbox-bench: \(problem)\nusage: tiltbox-bench [--sizes 100,1000] [--pairs 5] [--steps 1200] [--callgrind STRIPPED-BINARY] [--hash CELL:COUNT] [--write-scenario N] [--only c|none|full|every10|hashes|zst|numbers|zst-ratio|draw|scenes|scene-c|scene-run] [--scene NAME]... [--write-scene NAME] [--output none|full|hashes] [--pymunk-script PATH] [--step-cost SCRIPT --tiltbox STRIPPED-TILTBOX]\nscenes: \(BenchScene.all.map(\.name).joined(separator: ", "))\n"
    )
    exit(2)
}

// MARK: - Clocks and memory

func nowNanoseconds() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// A line of /proc/self/status in kB (VmRSS, VmHWM).
func procStatusKB(_ key: String) -> Int {
    guard let file = fopen("/proc/self/status", "r") else { return 0 }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 256)
    while fgets(&line, 256, file) != nil {
        let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        if text.hasPrefix(key + ":") {
            return Int(text.dropFirst(key.count + 1).filter(\.isNumber)) ?? 0
        }
    }
    return 0
}

func median(_ values: [Double]) -> Double {
    let s = values.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

// MARK: - Runs

/// FNV-1a 64 over every crate's six fields, as `reference_pile_state_hash` computes it.
func stateHash(_ session: RunSession) -> UInt64 {
    session.withCurrentStates { states in
        var digest = TraceDigest()
        for value in states { digest.add(value) }
        return digest.value
    }
}

struct RunResult {
    var nanosecondsPerStep: Double
    var hash: UInt64
    var traceBytes: Int = 0
}

func runC(n: Int, steps: Int) -> RunResult {
    guard let pile = reference_pile_new(Int32(n), BenchmarkPile.defaultSeed) else { fatalError("out of memory") }
    defer { reference_pile_free(pile) }
    let start = nowNanoseconds()
    reference_pile_step(pile, Int32(steps))
    let elapsed = nowNanoseconds() - start
    return RunResult(nanosecondsPerStep: Double(elapsed) / Double(steps), hash: reference_pile_state_hash(pile))
}

/// What a Tiltbox run writes.
enum Variant: String, CaseIterable {
    case none, full, every10, hashes, zst

    /// The column title.
    var title: String {
        switch self {
        case .none: "no output"
        case .full: "full trace"
        case .every10: "--every 10"
        case .hashes: "hash trace"
        case .zst: "compressed trace"
        }
    }

    /// The record interval, `nil` for no output.
    var every: Int? {
        switch self {
        case .none: nil
        case .every10: 10
        case .full, .hashes, .zst: 1
        }
    }
}

/// Tiltbox: a `RunSession` (frames of 1/60 s as the CLI's default `steady:60`), with no
/// output (the digest only) or writing a trace as `tiltbox run --trace` does: every step,
/// every 10th, record hashes only (`--hashes`), or to a path ending in `.zst`.
func runTiltbox(_ scenario: Scenario, steps: Int, variant: Variant, tracePath: String) throws -> RunResult {
    let track = ConstantGravity(scenario.world.gravity)
    let session =
        if let every = variant.every {
            try RunSession(
                scenario: scenario, track: track, totalSteps: steps, every: every,
                trace: .init(path: variant == .zst ? tracePath + ".zst" : tracePath, hashes: variant == .hashes))
        } else {
            // No output: only step 0 and the last step are recorded (digested), so the
            // figure is the step loop's.
            RunSession(scenario: scenario, track: track, totalSteps: steps, every: max(steps, 1))
        }
    var clock = SteadyClock(hz: 60)
    let start = nowNanoseconds()
    let outcome = try session.run(clock: &clock, shouldStop: { false })
    let summary = try session.finish()
    let elapsed = nowNanoseconds() - start
    guard outcome == .complete else { fatalError("bench run ended \(outcome)") }
    return RunResult(
        nanosecondsPerStep: Double(elapsed) / Double(steps), hash: stateHash(session),
        traceBytes: fileSize(variant == .zst ? tracePath + ".zst" : tracePath) ?? summary.traceBytes ?? 0)
}

/// The size of the file at `path` in bytes (what a compressed trace takes on disk).
func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
}

/// Whether this build writes a trace path ending in `.zst` as zstd: writes a two-step
/// trace there and looks for the zstd frame's magic number (28 B5 2F FD). Also pays the
/// trace header's one-time costs (the platform fingerprint) before anything is timed.
func writesZstd(tracePath: String) -> Bool {
    let path = tracePath + ".zst"
    defer { unlink(path) }
    let scenario = BenchmarkPile.scenario(n: 1)
    guard
        let session = try? RunSession(
            scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: 2,
            trace: .init(path: path))
    else { return false }
    var clock = SteadyClock(hz: 60)
    guard (try? session.run(clock: &clock)) != nil, (try? session.finish()) != nil,
        let file = fopen(path, "rb")
    else { return false }
    defer { fclose(file) }
    var magic = [UInt8](repeating: 0, count: 4)
    return fread(&magic, 1, 4, file) == 4 && magic == [0x28, 0xB5, 0x2F, 0xFD]
}

// MARK: - Number formatter

/// Keeps every record's states (the values a full trace writes).
final class StatesCollector: RecordSink {
    var records: [[Double]] = []
    func record(step: Int, time: Double, gravity: Vec2, states: UnsafeBufferPointer<Double>) throws {
        records.append(Array(states))
    }
}

/// The pile's values over `steps` steps, formatted `repeats` times by the trace writer's
/// formatter (`tiltbox_format_states`, six values per body, one call per record, as the
/// writer calls it); the median time per double.
func benchNumbers(n: Int, steps: Int, repeats: Int) throws -> (doubles: Int, bytes: Int, nanosecondsPerDouble: Double) {
    let scenario = BenchmarkPile.scenario(n: n)
    let collector = StatesCollector()
    let session = RunSession(
        scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: steps, every: 1,
        sinks: [collector])
    var clock = SteadyClock(hz: 60)
    guard try session.run(clock: &clock, shouldStop: { false }) == .complete else {
        fatalError("pile run did not complete")
    }
    _ = try session.finish()
    let doubles = collector.records.reduce(0) { $0 + $1.count }
    let longest = collector.records.map(\.count).max() ?? 0
    let capacity =
        longest * (Int(TILTBOX_FORMAT_DOUBLE_MAX) + 1) + 2 * (longest / BodyStateLayout.count)
        + Int(TILTBOX_FORMAT_SLACK)
    let out = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    defer { out.deallocate() }
    var times: [Double] = []
    var bytes = 0
    for _ in 0..<repeats {
        bytes = 0
        let start = nowNanoseconds()
        for record in collector.records {
            bytes += record.withUnsafeBufferPointer {
                tiltbox_format_states($0.baseAddress!, $0.count, BodyStateLayout.count, out)
            }
        }
        times.append(Double(nowNanoseconds() - start) / Double(doubles))
    }
    return (doubles, bytes, median(times))
}

/// The number formatter's instructions per double: runs `stripped` (a copy of this
/// binary without debug information) under callgrind counting inside
/// `tiltbox_format_states` only, on the 100-crate pile's values over 600 steps, and
/// divides the instructions collected by the doubles it formatted. `nil` (with a note on
/// standard error) when valgrind is missing or the run fails.
func numberInstructionsPerDouble(stripped: String) -> (instructions: Double, doubles: Int)? {
    let output = "/tmp/tiltbox-bench-callgrind-\(getpid())"
    defer { unlink(output + ".out"); unlink(output + ".err") }
    let command =
        "valgrind --tool=callgrind --toggle-collect=tiltbox_format_states --callgrind-out-file=/dev/null "
        + "'\(stripped)' --only numbers --sizes 100 --steps 600 --pairs 1 >\(output).out 2>\(output).err"
    guard system(command) == 0 else {
        warn("tiltbox-bench: callgrind did not run (\(command)); instructions per double n/a\n")
        return nil
    }
    // stdout: "N=100 numbers: 360600 doubles, ..."; stderr: "==pid== Collected : 67775138".
    func text(_ path: String) -> String {
        guard let file = fopen(path, "r") else { return "" }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while case let n = fread(&chunk, 1, chunk.count, file), n > 0 { bytes += chunk[0..<n] }
        return String(decoding: bytes, as: UTF8.self)
    }
    func number(after marker: String, in text: String) -> Int? {
        guard let range = text.firstRange(of: marker) else { return nil }
        return Int(text[range.upperBound...].drop { $0 == " " }.prefix { $0.isNumber })
    }
    let out = text(output + ".out"), err = text(output + ".err")
    guard let collected = number(after: "Collected :", in: err), let doubles = number(after: "numbers:", in: out),
        doubles > 0
    else {
        warn("tiltbox-bench: could not read callgrind's count; instructions per double n/a\n")
        return nil
    }
    return (Double(collected) / Double(doubles), doubles)
}

// MARK: - Live view drawing

/// The live view's drawing cost per frame at `crates` crates, in milliseconds: blending,
/// rasterising and composing one frame of the settled pile on a 200×60 terminal, as the
/// live view's drawing thread does (`--only draw`, DrawBench.swift), median of 200 frames.
func liveViewDrawMilliseconds(crates: Int) -> Double? {
    (try? benchDraw(n: crates, steps: 120, frames: 200)).map { $0.nanosecondsPerFrame / 1e6 }
}

// MARK: - Scenario file

/// The pile as a `tiltbox-scenario/1` file (see `BenchmarkPile.scenarioJSON`).
func scenarioJSON(n: Int) -> String {
    BenchmarkPile.scenarioJSON(n: n)
}

// MARK: - Main

let options = Options.parse()
if let n = options.writeScenario {
    print(scenarioJSON(n: n), terminator: "")
    exit(0)
}
if let name = options.writeScene, let scene = BenchScene.named(name) {
    print(scene.scenarioJSON, terminator: "")
    exit(0)
}

// Debian's debug Chipmunk prints a banner at the first cpSpaceNew of the process:
// let Tiltbox's engine create the first space (it silences the banner).
_ = World(scenario: BenchmarkPile.scenario(n: 1))

let tracePath = "/tmp/tiltbox-bench-\(getpid()).jsonl"
defer { unlink(tracePath) }

if options.only == "numbers" {
    for n in options.sizes {
        let result = try benchNumbers(n: n, steps: options.steps, repeats: options.pairs)
        print(
            "N=\(n) numbers: \(result.doubles) doubles, \(result.bytes) bytes, \(fmt(result.nanosecondsPerDouble, 1)) ns/double (median of \(options.pairs))"
        )
    }
    exit(0)
}

if options.only == "zst-ratio" {
    let reports = try options.sizes.map { n in
        try benchCompressedTrace(n: n, steps: options.steps, pairs: options.pairs, path: tracePath)
    }
    printCompressedTraceTable(reports, pairs: options.pairs, steps: options.steps)
    exit(reports.allSatisfy(\.hashesAgree) ? 0 : 1)
}

if options.only == "draw" {
    let frames = 200
    for n in options.sizes {
        let result = try benchDraw(n: n, steps: options.steps, frames: frames)
        print(
            "N=\(n) draw: \(fmt(result.nanosecondsPerFrame, 0)) ns/frame (\(fmt(result.nanosecondsPerFrame / 1e6, 3)) ms, \(drawColumns)×\(drawRows) cells, \(result.bytes) bytes; median of \(frames))"
        )
    }
    exit(0)
}

if let only = options.only, only.hasPrefix("scene") {
    let scenes = (options.scenes.isEmpty ? BenchScene.all.map(\.name) : options.scenes).compactMap(BenchScene.named)
    switch only {
    case "scene-c":
        // One raw C run of each scene (for callgrind): its hash.
        for scene in scenes {
            print("\(scene.name) C: hash \(String(runSceneC(scene, steps: options.steps).hash, radix: 16))")
        }
    case "scene-run":
        for scene in scenes {
            let result = try runSceneTiltbox(
                try scene.scenario(), steps: options.steps, output: options.output, tracePath: tracePath)
            print("\(scene.name) \(options.output.rawValue): hash \(String(result.hash, radix: 16))")
        }
    default:
        warn(
            "tiltbox-bench: scenes \(scenes.map(\.name)), \(options.pairs) interleaved rounds of C, tiltbox run and pymunk, \(options.steps) steps each; load average \(loadAverage())\n"
        )
        var reports = try benchScenes(
            scenes, steps: options.steps, rounds: options.pairs, tracePath: tracePath,
            pymunkScript: options.pymunkScript)
        if let script = options.stepCostScript, let tiltbox = options.tiltbox, let bench = options.callgrind {
            for i in reports.indices where reports[i].scene.bodies.count <= 500 {
                warn("tiltbox-bench: callgrind on \(reports[i].scene.name)\n")
                reports[i].cost = stepCost(script: script, tiltbox: tiltbox, bench: bench, scene: reports[i].scene.name)
            }
        }
        printScenesTable(reports, rounds: options.pairs, steps: options.steps)
        exit(reports.allSatisfy(\.hashesAgree) ? 0 : 1)
    }
    exit(0)
}

if let only = options.only {
    for n in options.sizes {
        let scenario = BenchmarkPile.scenario(n: n)
        let result =
            if let variant = Variant(rawValue: only) {
                try runTiltbox(scenario, steps: options.steps, variant: variant, tracePath: tracePath)
            } else {
                runC(n: n, steps: options.steps)
            }
        print("N=\(n) \(only): hash \(String(result.hash, radix: 16))")
    }
    unlink(tracePath)
    unlink(tracePath + ".zst")
    exit(0)
}

/// The timings of one size: per variant, nanoseconds per step and the ratio to the C run
/// of the same pair.
struct SizeReport {
    var n: Int
    var c: [Double] = []
    var ns: [Variant: [Double]] = [:]
    var ratios: [Variant: [Double]] = [:]
    var bytesPerStep: [Variant: Double] = [:]
    var hashC: UInt64 = 0
    var hashesAgree = true
    var rssPerCrateKB = 0.0
    var peakKB = 0
    var hashIndexNs: [Double] = []
    var hashIndexRatio: [Double] = []

    func ratio(_ v: Variant) -> Double? { ratios[v].flatMap { $0.isEmpty ? nil : median($0) } }
    func nanoseconds(_ v: Variant) -> Double? { ns[v].flatMap { $0.isEmpty ? nil : median($0) } }
}

/// `x` rounded to `digits` decimals, for the tables.
func fmt(_ x: Double, _ digits: Int = 0) -> String {
    guard x.isFinite else { return "\(x)" }
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let scaled = Int((abs(x) * scale).rounded())
    let whole = String(scaled / Int(scale))
    var text = (x < 0 && scaled != 0 ? "-" : "") + whole
    if digits > 0 {
        let fraction = String(scaled % Int(scale))
        text += "." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
    return text
}

/// The system's load averages (1, 5, 15 minutes), to say how busy the machine was.
func loadAverage() -> String {
    guard let file = fopen("/proc/loadavg", "r") else { return "n/a" }
    defer { fclose(file) }
    var line = [CChar](repeating: 0, count: 128)
    guard fgets(&line, 128, file) != nil else { return "n/a" }
    return String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        .split(separator: " ").prefix(3).joined(separator: " ")
}

let zstd = writesZstd(tracePath: tracePath)
let variants = Variant.allCases.filter { $0 != .zst || zstd }
var reports: [SizeReport] = []
let benchStart = nowNanoseconds()
let loadBefore = loadAverage()
warn(
    "tiltbox-bench: sizes \(options.sizes), \(options.pairs) interleaved pairs, \(options.steps) steps each; load average \(loadBefore)\n"
)
for n in options.sizes {
    var report = SizeReport(n: n)
    let scenario = BenchmarkPile.scenario(n: n)
    // Resident memory of one live Tiltbox world of n crates (Chipmunk + Swift objects).
    let rssBefore = procStatusKB("VmRSS")
    do {
        let world = World(scenario: scenario)
        report.rssPerCrateKB = Double(procStatusKB("VmRSS") - rssBefore) / Double(n)
        withExtendedLifetime(world) {}
    }
    var hashScenario = scenario
    if let h = options.hash { hashScenario.world.spatialIndex = .hash(cellSize: h.cellSize, count: h.count) }
    for pair in 0..<options.pairs {
        let c = runC(n: n, steps: options.steps)
        report.hashC = c.hash
        report.c.append(c.nanosecondsPerStep)
        var line = "  N=\(n) pair \(pair + 1)/\(options.pairs): C \(fmt(c.nanosecondsPerStep)) ns/step, ratios"
        do {
            for variant in variants {
                let r = try runTiltbox(scenario, steps: options.steps, variant: variant, tracePath: tracePath)
                if r.hash != c.hash { report.hashesAgree = false }
                report.ns[variant, default: []].append(r.nanosecondsPerStep)
                report.ratios[variant, default: []].append(r.nanosecondsPerStep / c.nanosecondsPerStep)
                report.bytesPerStep[variant] = Double(r.traceBytes) / Double(options.steps)
                line += " \(variant.rawValue) \(fmt(r.nanosecondsPerStep / c.nanosecondsPerStep, 3))"
            }
            if options.hash != nil {
                let hashed = try runTiltbox(hashScenario, steps: options.steps, variant: .none, tracePath: tracePath)
                report.hashIndexNs.append(hashed.nanosecondsPerStep)
                report.hashIndexRatio.append(hashed.nanosecondsPerStep / c.nanosecondsPerStep)
            }
        } catch {
            warn("tiltbox-bench: \(error)\n")
            exit(1)
        }
        warn(line + "\n")
    }
    report.peakKB = procStatusKB("VmHWM")
    reports.append(report)
}
unlink(tracePath + ".zst")

// The number writer: nanoseconds per double on the 100-crate pile's values, and its
// instructions per double under callgrind when a stripped copy is given.
warn("tiltbox-bench: the number writer alone\n")
let numbers = try benchNumbers(n: 100, steps: options.steps, repeats: options.pairs)
let instructions = options.callgrind.flatMap { numberInstructionsPerDouble(stripped: $0) }
let minutes = Double(nowNanoseconds() - benchStart) / 60e9

// MARK: - Report

/// A median ratio as the table shows it, `n/a` when the variant was not run.
func ratioText(_ r: Double?) -> String { r.map { "\(fmt($0, 3))×" } ?? "n/a" }

print(
    "Ratios to the raw C loop (median of \(options.pairs) interleaved pairs; \(options.steps) steps each; lower is better)"
)
print("")
print("| N | " + Variant.allCases.map(\.title).joined(separator: " | ") + " | state hash = C |")
print("|---:|" + String(repeating: "---:|", count: Variant.allCases.count) + ":---|")
for r in reports {
    print(
        "| \(r.n) | " + Variant.allCases.map { ratioText(r.ratio($0)) }.joined(separator: " | ")
            + " | \(r.hashesAgree ? "yes" : "NO") `\(String(r.hashC, radix: 16))` |")
}
if !zstd { print("(compressed trace: n/a, this build writes a `.zst` path as a plain trace)") }
print("")
print("Nanoseconds per step (medians) and trace bytes per step")
print("")
print(
    "| N | C loop | " + Variant.allCases.map(\.title).joined(separator: " | ")
        + " | bytes/step: full | --every 10 | hashes | compressed |")
print("|---:|---:|" + String(repeating: "---:|", count: Variant.allCases.count + 4))
for r in reports {
    let times = Variant.allCases.map { r.nanoseconds($0).map { fmt($0) } ?? "n/a" }
    let bytes = [Variant.full, .every10, .hashes, .zst].map { v in r.bytesPerStep[v].map { fmt($0) } ?? "n/a" }
    var compressedRatio = ""
    if let full = r.bytesPerStep[.full], let zst = r.bytesPerStep[.zst], zst > 0 {
        compressedRatio = " (\(fmt(full / zst, 1))× smaller)"
    }
    print(
        "| \(r.n) | \(fmt(median(r.c))) | " + times.joined(separator: " | ") + " | " + bytes.joined(separator: " | ")
            + compressedRatio + " |")
}
print("")
print(
    "Number writer (the 100-crate pile's values, \(options.steps) steps, \(numbers.doubles) doubles): "
        + "\(fmt(numbers.nanosecondsPerDouble, 1)) ns per double (median of \(options.pairs)), "
        + (instructions.map {
            "\(fmt($0.instructions, 1)) instructions per double (callgrind, 600 steps, \($0.doubles) doubles)"
        }
            ?? "instructions per double n/a (give --callgrind STRIPPED-BINARY, as make bench does)"))
let draw = [100, 1_000].map { (crates: $0, ms: liveViewDrawMilliseconds(crates: $0)) }
print(
    "Live view drawing per frame: "
        + draw.map { "\($0.crates) crates \($0.ms.map { "\(fmt($0, 2)) ms" } ?? "n/a")" }.joined(separator: ", "))
print("")

/// One target line: the figure, its limit and whether it is met (n/a when not measured).
func target(_ name: String, _ value: Double?, _ limit: Double, unit: String = "×", digits: Int = 3) -> String {
    guard let value else { return "  \(name) ≤ \(fmt(limit, digits))\(unit): n/a" }
    return "  \(name) ≤ \(fmt(limit, digits))\(unit): \(fmt(value, digits))\(unit) \(value <= limit ? "met" : "MISSED")"
}
print("Targets (load average \(loadBefore) at the start, \(loadAverage()) at the end; ratios need two idle cores)")
for r in reports {
    print(target("N=\(r.n) no output", r.ratio(.none), r.n >= 1_000 ? 1.03 : 1.10))
    switch r.n {
    case 100: print(target("N=100 full trace", r.ratio(.full), 1.15))
    case 1_000:
        print(target("N=1000 full trace", r.ratio(.full), 1.05))
        print(target("N=1000 compressed trace", r.ratio(.zst), 1.15))
    default: break
    }
}
print(target("number writer", instructions?.instructions, 150, unit: " instructions per double", digits: 0))
print(target("live view drawing of a 1000-crate frame", draw.last?.ms, 2, unit: " ms", digits: 2))
if let h = options.hash {
    print("")
    print(
        "Spatial hash (cellSize \(fmt(h.cellSize, 1)), count \(h.count)) instead of bbtree, no output (different, equally repeatable physics):"
    )
    for r in reports {
        print(
            "  N=\(r.n): \(fmt(median(r.hashIndexNs))) ns/step, \(fmt(median(r.hashIndexRatio), 3))× the bbtree C loop")
    }
}
print("")
print("Scale")
for r in reports {
    print(
        "  N=\(r.n): resident memory of a live world \(fmt(r.rssPerCrateKB * 1024)) B/crate; peak RSS so far \(r.peakKB / 1024) MiB"
    )
}
if let a = reports.first(where: { $0.n == 1_000 }), let b = reports.first(where: { $0.n == 10_000 }),
    let noneA = a.nanoseconds(.none), let noneB = b.nanoseconds(.none)
{
    let perCrate = Double(b.peakKB - a.peakKB) * 1024 / 9_000
    print("  memory per crate (peak RSS at N=10000 − at N=1000, / 9000): \(fmt(perCrate)) B")
    let expC = log10(median(b.c) / median(a.c))
    let expT = log10(noneB / noneA)
    print(
        "  cost per step grows as N^\(fmt(expC, 2)) (C loop), N^\(fmt(expT, 2)) (Tiltbox, no output) from N=1000 to N=10000"
    )
}
print("")
print("bench took \(fmt(minutes, 1)) min")
if reports.contains(where: { !$0.hashesAgree }) {
    warn("tiltbox-bench: Tiltbox and the C loop ended in different states\n")
    exit(1)
}
