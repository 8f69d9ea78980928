import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// SIGINT and SIGTERM during `run --pictures`'s picture phase end the command with 130 and
/// 143 at once: no further picture is drawn, none is left half written. Before, the pictures
/// followed a second run of the whole scenario and were then all written whatever arrived.
@Suite struct PictureSignalTests {
    /// 400 small crates and 150 expectations that fail one after the other (at 0.01 s, 0.02 s, …):
    /// the run takes a moment, then drawing 150 film strips of 400 crates takes some seconds,
    /// on any machine many times the test's reaction to the first picture.
    static let scenario: String = {
        let crates = (0..<400).map { i in
            #"{"id":"c\#(i)","position":[\#(12 + Double(i % 40) * 11.5),\#(12 + Double(i / 40) * 11.5)],"size":[8,8]}"#
        }
        let expectations = (1...150).map { k in
            #"{"at":\#(Double(k) / 100),"body":"c*","yAbove":100000}"#
        }
        return """
            {"format":"tiltbox-scenario/1","name":"many","world":{"size":[480,320]},"duration":2,
             "crates":[\(crates.joined(separator: ","))],
             "expect":[\(expectations.joined(separator: ","))]}
            """
    }()

    @Test(arguments: [(SIGINT, Int32(130)), (SIGTERM, Int32(143))])
    func aSignalDuringThePicturesEndsTheRunWithTheInterruptStatus(signal: Int32, status: Int32) throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("many.json", Self.scenario)
        let pictures = directory.path("pictures")
        let process = try TiltboxBinary.start(
            ["run", path, "--pictures", pictures, "-q"],
            stdout: directory.url.appendingPathComponent("out"), stderr: directory.url.appendingPathComponent("err"))
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        func drawn() -> [String] {
            ((try? FileManager.default.contentsOfDirectory(atPath: pictures)) ?? []).filter { $0.hasSuffix(".svg") }
        }
        // The picture phase has begun once the first picture is in place.
        Patience.wait { !drawn().isEmpty || !process.isRunning }
        try #require(process.isRunning, "tiltbox ended before it was signalled: \(drawn().count) pictures")
        kill(process.processIdentifier, signal)
        try #require(process.waitForExit("after signal \(signal)"), "tiltbox did not stop")
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == status, "exit status \(process.terminationStatus)")
        let left = drawn()
        #expect(!left.isEmpty && left.count < 150, "\(left.count) of 150 pictures written")
        let all = (try? FileManager.default.contentsOfDirectory(atPath: pictures)) ?? []
        #expect(all.allSatisfy { $0.hasSuffix(".svg") && !$0.hasPrefix(".") }, "a temporary file was left: \(all)")
    }
}
