// `tiltbox-bench --only zst-ratio`: the compressed full trace (`--trace x.jsonl.zst`,
// zstd level 1 on the writer thread) against the raw C loop and the plain full trace.
//
// For each size, `--pairs` interleaved triples of the C loop, Tiltbox with a plain full
// trace and Tiltbox with a compressed full trace, `--steps` steps each; the ratios to C
// are per triple, then the median is taken. Every run must end in the C loop's state.
// Also prints the bytes per step of both traces and the size ratio.

@_spi(Tools) import Tiltbox

#if canImport(Glibc)
    import Glibc
#endif

/// One size's figures for the compressed trace.
struct CompressedTraceReport {
    var n: Int
    var c: [Double] = [], plain: [Double] = [], zst: [Double] = []
    var rPlain: [Double] = [], rZst: [Double] = []
    var plainBytes = 0, zstBytes = 0
    var hashesAgree = true

    /// The compressed full trace's cost per step over the C loop's (median of pairs).
    var zstRatio: Double { median(rZst) }
}

/// Runs the interleaved triples for `n` crates; `path` is the plain trace's path (the
/// compressed one is `path + ".zst"`).
func benchCompressedTrace(n: Int, steps: Int, pairs: Int, path: String) throws -> CompressedTraceReport {
    let scenario = BenchmarkPile.scenario(n: n)
    var report = CompressedTraceReport(n: n)
    for pair in 0..<pairs {
        let c = runC(n: n, steps: steps)
        let plain = try runTiltbox(scenario, steps: steps, variant: .full, tracePath: path)
        let zst = try runTiltbox(scenario, steps: steps, variant: .zst, tracePath: path)
        if plain.hash != c.hash || zst.hash != c.hash { report.hashesAgree = false }
        report.c.append(c.nanosecondsPerStep)
        report.plain.append(plain.nanosecondsPerStep)
        report.zst.append(zst.nanosecondsPerStep)
        report.rPlain.append(plain.nanosecondsPerStep / c.nanosecondsPerStep)
        report.rZst.append(zst.nanosecondsPerStep / c.nanosecondsPerStep)
        report.plainBytes = plain.traceBytes
        report.zstBytes = zst.traceBytes
        warn(
            "  N=\(n) pair \(pair + 1)/\(pairs): C \(fmt(c.nanosecondsPerStep)) ns/step, full \(fmt(report.rPlain.last!, 3)) zst \(fmt(report.rZst.last!, 3))\n"
        )
    }
    unlink(path + ".zst")
    return report
}

/// The `--only zst-ratio` table, with the target (≤ 1.15× at N = 1000).
func printCompressedTraceTable(_ reports: [CompressedTraceReport], pairs: Int, steps: Int) {
    print(
        "Compressed full trace (.zst, zstd level 1) vs the raw C loop (median of \(pairs) interleaved triples; \(steps) steps each)"
    )
    print("")
    print(
        "| N | C ns/step | full trace | full trace .zst | bytes/step plain | bytes/step .zst | size ratio | state hash = C |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|:---|")
    for r in reports {
        let ratio = r.zstBytes > 0 ? Double(r.plainBytes) / Double(r.zstBytes) : 0
        print(
            "| \(r.n) | \(fmt(median(r.c))) | \(fmt(median(r.rPlain), 3))× | \(fmt(r.zstRatio, 3))× | "
                + "\(fmt(Double(r.plainBytes) / Double(steps))) | \(fmt(Double(r.zstBytes) / Double(steps))) | \(fmt(ratio, 2))× | \(r.hashesAgree ? "yes" : "NO") |"
        )
    }
    if let r = reports.first(where: { $0.n == 1_000 }) {
        print("")
        print(
            "Target: compressed full trace ≤ 1.15× at N = 1000: \(fmt(r.zstRatio, 3)) \(r.zstRatio <= 1.15 ? "met" : "MISSED")"
        )
    }
}
