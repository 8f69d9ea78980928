import Testing

@testable import tiltbox

/// A crashed child's last meaningful line, without Swift's backtrace report.
@Suite struct CrashReportTests {
    /// Standard error of a `tiltbox run` that Chipmunk aborted, as Swift's backtracer leaves it (abridged).
    static let abortedRun = """
        tiltbox: warning: s.json: 2 pairs of crates overlap at t = 0: "a" and "b"
        Aborting due to Chipmunk error: Body's position is invalid.
        \tFailed condition: p.x == p.x && p.y == p.y

        *** Signal 6: Backtracing from 0x7f46150d4643... done ***

        *** Program crashed: Aborted at 0x0000000000006a4b ***

        Thread 0 "tiltbox" crashed:

          0      0x00007f46150d4643 <unknown> in libchipmunk.so.7.0.3

        Registers:

        rax 0x000055d3935ab3c0  50 23 5c 93

        Backtrace took 0.01s

        """

    @Test func theLastLineBeforeTheBacktraceIsTheMessage() {
        #expect(CrashReport.lastMeaningfulLine(of: Self.abortedRun) == "Failed condition: p.x == p.x && p.y == p.y")
    }

    @Test func aBacktraceAloneLeavesNoMessage() {
        let report = Self.abortedRun.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(3).joined(
            separator: "\n")
        #expect(CrashReport.lastMeaningfulLine(of: report) == nil)
        #expect(CrashReport.lastMeaningfulLine(of: "") == nil)
    }

    @Test func theColouredBannerStartsTheReportToo() {
        #expect(
            CrashReport.lastMeaningfulLine(
                of: "Fatal error: oops\n💣 Program crashed: Trace/breakpoint trap\nBacktrace took 0.02s\n")
                == "Fatal error: oops")
    }

    @Test func withoutABacktraceTheLastLineIsTheMessage() {
        #expect(CrashReport.lastMeaningfulLine(of: "tiltbox: one\ntiltbox: two\n\n") == "tiltbox: two")
    }
}
