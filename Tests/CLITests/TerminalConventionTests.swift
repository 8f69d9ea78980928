import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Conventions on a real terminal (tmux): a run with an output file is headless, `--exit-at-end`
/// closes the live view, `NO_COLOR` and `TERM=dumb` turn colour off, SIGTERM exits 143.
@Suite(.serialized) struct TerminalConventionTests {
    static let binary = (try? TiltboxBinary.url().path) ?? "tiltbox"

    /// The README's first example, typed in a terminal: it must finish by itself, headless.
    @Test func runWithATraceOnATerminalFinishesHeadless() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        let trace = directory.path("pile.jsonl")
        let session = try TmuxSession(
            command: "\(Self.binary) run \(PackageFiles.scenario("pile-100.json")) --trace \(trace)",
            directory: directory)
        #expect(try session.display("#{alternate_on}") == "0", "the live view took the screen")
        let status = session.exitStatus(within: 120)
        #expect(status == 0, "the run did not finish by itself (exit status \(status.map(String.init) ?? "none"))")
        let screen = try session.capture()
        #expect(
            screen.contains("outcome:        complete") && screen.contains("digest:"),
            "no summary on screen:\n\(screen)")
        #expect(!screen.containsBraille, "the live view was drawn:\n\(screen)")
        let end = try #require(try JSONLines.objects(file: trace).last)
        #expect(end["end"] as? String == "complete", "\(end)")
    }

    @Test func exitAtEndClosesTheLiveViewByItself() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        let session = try TmuxSession(
            command: "\(Self.binary) run \(PackageFiles.scenario("free-fall.json")) --duration 0.5 --exit-at-end",
            directory: directory)
        #expect(session.exitStatus(within: Patience.generous) == 0)
        let screen = try session.capture()
        #expect(screen.contains("tiltbox: 60 steps, 0.5 s simulated"), "no closing line:\n\(screen)")
        #expect(try session.display("#{alternate_on}") == "0")
    }

    /// SGR sequences in `text` that set a foreground colour (30–38, 90–97).
    static func colourSequences(in text: String) -> [String] {
        var found: [String] = []
        var rest = Substring(text)
        while let start = rest.range(of: "\u{1B}[") {
            let tail = rest[start.upperBound...]
            guard let end = tail.firstIndex(where: { !($0.isNumber || $0 == ";") }) else { break }
            if tail[end] == "m" {
                let parameters = tail[..<end].split(separator: ";").compactMap { Int($0) }
                if parameters.contains(where: { (30...38).contains($0) || (90...97).contains($0) }) {
                    found.append(String(tail[..<end]))
                }
            }
            rest = tail[end...]
        }
        return found
    }

    /// The live view's screen, with escapes, a moment after crates appear; then quits.
    private func liveScreen(environment: String) throws -> String {
        let directory = try TemporaryDirectory()
        let session = try TmuxSession(
            command: "\(environment) \(Self.binary) run \(PackageFiles.scenario("pile-100.json"))",
            directory: directory)
        #expect(
            try session.wait(seconds: Patience.generous) {
                try session.capture().containsBraille && session.capture().contains("fps")
            })
        let screen = try session.capture(escapes: true)
        try session.send("q")
        #expect(session.exitStatus(within: Patience.generous) == 0)
        return screen
    }

    @Test func theLiveViewIsInColourByDefault() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let screen = try liveScreen(environment: "env -u NO_COLOR")
        #expect(screen.containsBraille)
        #expect(!Self.colourSequences(in: screen).isEmpty, "no colour on screen:\n\(screen.prefix(400))")
    }

    @Test(arguments: ["NO_COLOR=1", "TERM=dumb"])
    func noColorTurnsColourOffInTheLiveView(_ environment: String) throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let screen = try liveScreen(environment: "env \(environment)")
        #expect(screen.containsBraille, "no crates drawn:\n\(screen)")
        let colours = Self.colourSequences(in: screen)
        #expect(colours.isEmpty, "\(environment): colour sequences on screen: \(Set(colours).sorted())")
    }

    @Test func sigtermEndsTheLiveViewWith143AndRestoresTheTerminal() throws {
        try #require(TmuxSession.isAvailable, "tmux is needed (make test installs it)")
        let directory = try TemporaryDirectory()
        let pidFile = directory.path("pid")
        // The shell writes its pid and then becomes tiltbox (exec keeps the pid).
        let session = try TmuxSession(
            command: "sh -c 'echo $$ > \(pidFile); exec \(Self.binary) run \(PackageFiles.scenario("pile-100.json"))'",
            directory: directory)
        #expect(try session.wait(seconds: Patience.generous) { try session.capture().containsBraille })
        let text = try JSONLines.text(file: pidFile).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(pid_t(text), "pid file: \(text)")
        #expect(kill(pid, SIGTERM) == 0)
        #expect(session.exitStatus(within: Patience.generous) == 143)
        #expect(try session.display("#{alternate_on}") == "0")
        #expect(session.sttyAfterExit.contains(" echo "))
    }
}
