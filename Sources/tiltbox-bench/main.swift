// tiltbox-bench: Tiltbox against the raw C engine, in one process, interleaved.
//
// For each size N it builds the benchmark pile (`BenchmarkPile`) twice, once with raw
// Chipmunk calls (CReferencePile) and once as a Tiltbox scenario, and times 1 200 steps
// of: the C loop (the limit), Tiltbox with no output, with a full trace and with
// `--every 10`. One "pair" is a C run followed by the three Tiltbox runs; ratios are
// per pair, then the median is taken. Building the worlds is not timed. Every run must
// end with the same state hash as the C loop: the wrapper must not change the physics.
//
// `--only numbers` measures the trace writer's number formatter alone: it runs the pile
// for `--steps` steps keeping every record's states (not timed), then formats them all
// as the trace writer does, `--pairs` times, and prints the median nanoseconds per
// double. Under `valgrind --tool=callgrind --toggle-collect=tiltbox_format_states` with
// `--pairs 1`, the collected instructions divided by the doubles printed are the
// formatter's instructions per double.
//
//   tiltbox-bench [--sizes 100,1000,5000,10000] [--pairs 5] [--steps 1200]
//                 [--hash CELL:COUNT] [--write-scenario N] [--only c|none|full|every10|numbers]
//   (or BENCH_SIZES, BENCH_PAIRS, BENCH_STEPS, BENCH_HASH in the environment)

import CNumberFormat
import CReferencePile
@_spi(Tools) import Tiltbox
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Options

struct Options {
    var sizes = [100, 1_000, 5_000, 10_000]
    var pairs = 5
    var steps = 1_200
    var hash: (cellSize: Double, count: Int)?
    var writeScenario: Int?
    /// Run one variant once (`c`, `none`, `full`, `every10`) and print nothing but its
    /// hash: for counting instructions under `valgrind --tool=callgrind`. `numbers` times
    /// the number formatter alone on the pile's values.
    var only: String?

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
        let env = { (name: String) -> String? in getenv(name).map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } }
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
            case "--only" where ["c", "none", "full", "every10", "numbers"].contains(value): o.only = value
            default: usage("unknown option \(flag)")
            }
        }
        if o.pairs < 1 || o.steps < 1 || o.sizes.contains(where: { $0 < 1 || $0 > 100_000 }) { usage("sizes in 1...100000, pairs and steps ≥ 1") }
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
    warn("tiltbox-bench: \(problem)\nusage: tiltbox-bench [--sizes 100,1000,5000,10000] [--pairs 5] [--steps 1200] [--hash CELL:COUNT] [--write-scenario N] [--only c|none|full|every10|numbers]\n")
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

/// Tiltbox: a `RunSession` (frames of 1/60 s as the CLI's default `steady:60`), with no
/// output (the digest only) or writing a trace every `every` steps, as `tiltbox run --trace` does.
func runTiltbox(_ scenario: Scenario, steps: Int, every: Int?, tracePath: String) throws -> RunResult {
    let track = ConstantGravity(scenario.world.gravity)
    let session = if let every {
        try RunSession(scenario: scenario, track: track, totalSteps: steps, every: every, trace: .init(path: tracePath))
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
    return RunResult(nanosecondsPerStep: Double(elapsed) / Double(steps), hash: stateHash(session),
                     traceBytes: summary.traceBytes ?? 0)
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
    let session = RunSession(scenario: scenario, track: ConstantGravity(scenario.world.gravity), totalSteps: steps, every: 1,
                             sinks: [collector])
    var clock = SteadyClock(hz: 60)
    guard try session.run(clock: &clock, shouldStop: { false }) == .complete else { fatalError("pile run did not complete") }
    _ = try session.finish()
    let doubles = collector.records.reduce(0) { $0 + $1.count }
    let longest = collector.records.map(\.count).max() ?? 0
    let capacity = longest * (Int(TILTBOX_FORMAT_DOUBLE_MAX) + 1) + 2 * (longest / BodyState.count) + Int(TILTBOX_FORMAT_SLACK)
    let out = UnsafeMutablePointer<CChar>.allocate(capacity: capacity)
    defer { out.deallocate() }
    var times: [Double] = []
    var bytes = 0
    for _ in 0..<repeats {
        bytes = 0
        let start = nowNanoseconds()
        for record in collector.records {
            bytes += record.withUnsafeBufferPointer { tiltbox_format_states($0.baseAddress!, $0.count, BodyState.count, out) }
        }
        times.append(Double(nowNanoseconds() - start) / Double(doubles))
    }
    return (doubles, bytes, median(times))
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

// Debian's debug Chipmunk prints a banner at the first cpSpaceNew of the process:
// let Tiltbox's engine create the first space (it silences the banner).
_ = World(scenario: BenchmarkPile.scenario(n: 1))

let tracePath = "/tmp/tiltbox-bench-\(getpid()).jsonl"
defer { unlink(tracePath) }

if options.only == "numbers" {
    for n in options.sizes {
        let result = try benchNumbers(n: n, steps: options.steps, repeats: options.pairs)
        print("N=\(n) numbers: \(result.doubles) doubles, \(result.bytes) bytes, \(fmt(result.nanosecondsPerDouble, 1)) ns/double (median of \(options.pairs))")
    }
    exit(0)
}

if let only = options.only {
    for n in options.sizes {
        let scenario = BenchmarkPile.scenario(n: n)
        let every: [String: Int?] = ["none": nil, "full": 1, "every10": 10]
        let result = only == "c" ? runC(n: n, steps: options.steps)
            : try runTiltbox(scenario, steps: options.steps, every: every[only]!, tracePath: tracePath)
        print("N=\(n) \(only): hash \(String(result.hash, radix: 16))")
    }
    unlink(tracePath)
    exit(0)
}

struct SizeReport {
    var n: Int
    var c: [Double] = [], none: [Double] = [], full: [Double] = [], every10: [Double] = []
    var rNone: [Double] = [], rFull: [Double] = [], rEvery10: [Double] = []
    var hashC: UInt64 = 0
    var hashesAgree = true
    var bytesFull = 0.0, bytesEvery10 = 0.0
    var rssPerCrateKB = 0.0
    var peakKB = 0
    var hashIndexNs: [Double] = []
    var hashIndexRatio: [Double] = []
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

var reports: [SizeReport] = []
let benchStart = nowNanoseconds()
warn("tiltbox-bench: sizes \(options.sizes), \(options.pairs) interleaved pairs, \(options.steps) steps each\n")
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
        do {
            let none = try runTiltbox(scenario, steps: options.steps, every: nil, tracePath: tracePath)
            let full = try runTiltbox(scenario, steps: options.steps, every: 1, tracePath: tracePath)
            let tenth = try runTiltbox(scenario, steps: options.steps, every: 10, tracePath: tracePath)
            report.hashC = c.hash
            for r in [none, full, tenth] where r.hash != c.hash { report.hashesAgree = false }
            report.c.append(c.nanosecondsPerStep)
            report.none.append(none.nanosecondsPerStep)
            report.full.append(full.nanosecondsPerStep)
            report.every10.append(tenth.nanosecondsPerStep)
            report.rNone.append(none.nanosecondsPerStep / c.nanosecondsPerStep)
            report.rFull.append(full.nanosecondsPerStep / c.nanosecondsPerStep)
            report.rEvery10.append(tenth.nanosecondsPerStep / c.nanosecondsPerStep)
            report.bytesFull = Double(full.traceBytes) / Double(options.steps)
            report.bytesEvery10 = Double(tenth.traceBytes) / Double(options.steps)
            if options.hash != nil {
                let hashed = try runTiltbox(hashScenario, steps: options.steps, every: nil, tracePath: tracePath)
                report.hashIndexNs.append(hashed.nanosecondsPerStep)
                report.hashIndexRatio.append(hashed.nanosecondsPerStep / c.nanosecondsPerStep)
            }
        } catch {
            warn("tiltbox-bench: \(error)\n")
            exit(1)
        }
        warn("  N=\(n) pair \(pair + 1)/\(options.pairs): C \(fmt(c.nanosecondsPerStep)) ns/step, ratios none \(fmt(report.rNone.last!, 3)) full \(fmt(report.rFull.last!, 3)) every10 \(fmt(report.rEvery10.last!, 3))\n")
    }
    report.peakKB = procStatusKB("VmHWM")
    reports.append(report)
}
let minutes = Double(nowNanoseconds() - benchStart) / 60e9

// MARK: - Report

print("Ratios to the raw C loop (median of \(options.pairs) interleaved pairs; \(options.steps) steps each; lower is better)")
print("")
print("| N | no output | full trace | --every 10 | state hash = C |")
print("|---:|---:|---:|---:|:---|")
for r in reports {
    print("| \(r.n) | \(fmt(median(r.rNone), 3))× | \(fmt(median(r.rFull), 3))× | \(fmt(median(r.rEvery10), 3))× | \(r.hashesAgree ? "yes" : "NO") `\(String(r.hashC, radix: 16))` |")
}
print("")
print("Nanoseconds per step (medians) and trace size")
print("")
print("| N | C loop | no output | full trace | --every 10 | trace bytes/step (full) | (--every 10) |")
print("|---:|---:|---:|---:|---:|---:|---:|")
for r in reports {
    print("| \(r.n) | \(fmt(median(r.c))) | \(fmt(median(r.none))) | \(fmt(median(r.full))) | \(fmt(median(r.every10))) | \(fmt(r.bytesFull)) | \(fmt(r.bytesEvery10)) |")
}
print("")
print("Targets: no output ≤ 1.03× for N ≥ 1000, ≤ 1.10× at N = 100; full trace ≤ 1.25× at N = 1000")
for r in reports {
    let noneLimit = r.n >= 1_000 ? 1.03 : 1.10
    var line = "  N=\(r.n): no output \(fmt(median(r.rNone), 3)) \(median(r.rNone) <= noneLimit ? "met" : "MISSED") (≤ \(noneLimit))"
    if r.n == 1_000 { line += ", full trace \(fmt(median(r.rFull), 3)) \(median(r.rFull) <= 1.25 ? "met" : "MISSED") (≤ 1.25)" }
    print(line)
}
if let h = options.hash {
    print("")
    print("Spatial hash (cellSize \(fmt(h.cellSize, 1)), count \(h.count)) instead of bbtree, no output (different, equally repeatable physics):")
    for r in reports {
        print("  N=\(r.n): \(fmt(median(r.hashIndexNs))) ns/step, \(fmt(median(r.hashIndexRatio), 3))× the bbtree C loop")
    }
}
print("")
print("Scale")
for r in reports {
    print("  N=\(r.n): resident memory of a live world \(fmt(r.rssPerCrateKB * 1024)) B/crate; peak RSS so far \(r.peakKB / 1024) MiB")
}
if let a = reports.first(where: { $0.n == 1_000 }), let b = reports.first(where: { $0.n == 10_000 }) {
    let perCrate = Double(b.peakKB - a.peakKB) * 1024 / 9_000
    print("  memory per crate (peak RSS at N=10000 − at N=1000, / 9000): \(fmt(perCrate)) B")
    let expC = log10(median(b.c) / median(a.c))
    let expT = log10(median(b.none) / median(a.none))
    print("  cost per step grows as N^\(fmt(expC, 2)) (C loop), N^\(fmt(expT, 2)) (Tiltbox, no output) from N=1000 to N=10000")
}
print("")
print("bench took \(fmt(minutes, 1)) min")
if reports.contains(where: { !$0.hashesAgree }) {
    warn("tiltbox-bench: Tiltbox and the C loop ended in different states\n")
    exit(1)
}
