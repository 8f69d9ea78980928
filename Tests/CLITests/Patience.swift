import Foundation
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How the CLI tests wait: for an event (a file appears, a line is written, a pane shows
/// text, a process ends), polled, with a deadline generous enough for a loaded machine.
/// A deadline only ends a wait that would otherwise hang; it is never the condition a test
/// asserts, and nothing here assumes the machine is slow (or fast).
enum Patience {
    /// The deadline for waits on a process or a file: long past anything a healthy run needs
    /// on a busy 2-core machine.
    static let generous: TimeInterval = 120

    /// A simulated duration no test waits out: 10 simulated hours of the 100-crate pile take
    /// many minutes even in a release build on a fast machine (60 simulated seconds take about
    /// one on an idle 2-core one), so a run a test means to interrupt is always still running
    /// when its signal comes, however fast the machine.
    static let unfinishableDuration = "36000"

    /// Polls `condition` every `interval` seconds until it holds or `seconds` pass; returns
    /// whether it held.
    @discardableResult
    static func wait(
        seconds: TimeInterval = generous, interval: TimeInterval = 0.01,
        until condition: () throws -> Bool
    ) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try condition() { return true }
            Thread.sleep(forTimeInterval: interval)
        }
        return try condition()
    }

    /// Names in `directory` that start with `prefix` (an atomic output's temporary file,
    /// `.NAME.tiltbox-XXXXXX`, is how a run shows it has started writing).
    static func names(in directory: TemporaryDirectory, startingWith prefix: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.url.path)) ?? []).filter {
            $0.hasPrefix(prefix)
        }
    }
}

extension Process {
    /// Waits for the process to end, up to `seconds`; past that it is killed (SIGKILL), reaped,
    /// an issue is recorded, and the result is false. Never waits for ever on a stuck child.
    @discardableResult
    func waitForExit(
        within seconds: TimeInterval = Patience.generous, _ what: @autoclosure () -> String = "",
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Bool {
        let ended = Patience.wait(seconds: seconds) { !isRunning }
        if !ended {
            kill(processIdentifier, SIGKILL)
            Issue.record(
                "still running \(Int(seconds)) s after it should have ended \(what()), killed",
                sourceLocation: sourceLocation)
        }
        waitUntilExit()
        return ended
    }
}
