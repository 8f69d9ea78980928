internal import CChipmunk
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// What Chipmunk printed during a world's steps: how many diagnostics, and the first one.
///
/// Debian's debug build of Chipmunk prints warnings such as "High EPA iterations" with
/// `fprintf(stderr, ...)` (`cpMessage`), once per occurrence: dozens of times in one run of a
/// pile. The engine keeps them off standard error while it steps and reports them once.
public struct EngineDiagnostics: Sendable, Equatable {
    /// How many messages Chipmunk printed.
    public var count = 0
    /// The first message, its lines joined with "; " (`Chipmunk warning: ...; Failed condition: ...`).
    public var first: String?
    /// The step during which the first message was printed (the step from state `firstStep - 1`).
    public var firstStep: Int?

    /// No messages.
    public init() {}

    /// One line for people, or `nil` when Chipmunk printed nothing.
    public var summary: String? {
        guard count > 0, let first else { return nil }
        let at = firstStep.map { " during step \($0)" } ?? ""
        return "Chipmunk printed \(count) diagnostic message\(count == 1 ? "" : "s"); the first\(at): \(first)"
    }
}

/// Points the C library's `stderr` at a memory stream while any world steps, the way
/// `BannerGuard` points file descriptor 1 at `/dev/null` while the first space is made, and
/// hands each world the messages printed during its step.
///
/// `stderr` is one pointer for the whole process, so the swap is counted under a lock: the
/// first world to start a step installs the stream, the last to finish restores the original.
/// Worlds stepping on several threads at once (tests do) may see one another's messages, and
/// anything another thread writes through C's `stderr` during a step is taken for one (and
/// kept off standard error); a `tiltbox` process steps one world and writes its own output
/// with `write(2)`. Costs two uncontended lock round trips and a look at
/// the stream's write pointer per step. A Chipmunk *error* (an assertion, followed by `abort()`) printed while
/// the stream is installed is written to file descriptor 2 by `AbortReport` as the process
/// aborts; the loader's limits and the run-time guard exist so that none is reached.
enum ChipmunkMessageCapture {
    private struct State: ~Copyable {
        var stepping = 0
        var saved: UnsafeMutablePointer<FILE>?
        let stream: UnsafeMutablePointer<FILE>?
        let buffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
        let size: UnsafeMutablePointer<Int>
    }

    private static let state: Mutex<State> = {
        let buffer = UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>.allocate(capacity: 1)
        buffer.initialize(to: nil)
        let size = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        size.initialize(to: 0)
        // Lives as long as the process, like `stderr` itself.
        let stream = open_memstream(buffer, size)
        AbortReport.install(stream: stream, buffer: buffer, size: size)
        return Mutex(State(stream: stream, buffer: buffer, size: size))
    }()

    /// Runs `body` (one `cpSpaceStep`) with Chipmunk's messages captured, and adds what it
    /// printed to `diagnostics`, attributed to `step`.
    static func capture(step: Int, into diagnostics: inout EngineDiagnostics, _ body: () -> Void) {
        state.withLock { s in
            guard let stream = s.stream else { return }
            if s.stepping == 0 { s.saved = tiltbox_swap_stderr(stream) }
            s.stepping += 1
        }
        body()
        state.withLock { s in
            guard let stream = s.stream else { return }
            if tiltbox_stream_has_output(stream) != 0 {
                fflush(stream)
                // `size` is the stream's position after the flush; bytes beyond it are older
                // messages (the stream is rewound, not cleared, after each step).
                if let text = s.buffer.pointee {
                    let bytes = UnsafeRawBufferPointer(start: text, count: s.size.pointee)
                    record(String(decoding: bytes, as: UTF8.self), step: step, into: &diagnostics)
                }
                fseek(stream, 0, SEEK_SET)
            }
            s.stepping -= 1
            if s.stepping == 0, let saved = s.saved {
                _ = tiltbox_swap_stderr(saved)
                s.saved = nil
            }
        }
    }

    /// Counts the messages in `text` (each begins "Chipmunk warning: " or "Aborting due to
    /// Chipmunk error: "; its further lines begin with a tab) and keeps the first.
    static func record(_ text: String, step: Int, into diagnostics: inout EngineDiagnostics) {
        var current: [Substring] = []
        func close() {
            guard !current.isEmpty else { return }
            diagnostics.count += 1
            if diagnostics.first == nil {
                diagnostics.first = current.map { $0.hasPrefix("\t") ? $0.dropFirst() : $0 }.joined(separator: "; ")
                diagnostics.firstStep = step
            }
            current = []
        }
        for line in text.split(separator: "\n") {
            if line.hasPrefix("\t"), !current.isEmpty {
                current.append(line)
            } else {
                close()
                current = [line]
            }
        }
        close()
    }
}

/// Writes what Chipmunk printed into the capture stream to file descriptor 2 when the process
/// receives SIGABRT (Chipmunk's failed assertions print their message, then call `abort()`),
/// then hands the signal on to the handler installed before (libFuzzer's, Swift's backtracer,
/// or the default action), so an abort still ends the process and is still reported as one.
///
/// Not async-signal-safe in the strict sense (it flushes a stdio stream), but `abort()` is
/// raised synchronously by the thread that just finished writing the message, so the stream's
/// lock is free.
private enum AbortReport {
    nonisolated(unsafe) private static var previous = sigaction()
    nonisolated(unsafe) private static var stream: UnsafeMutablePointer<FILE>?
    nonisolated(unsafe) private static var buffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
    nonisolated(unsafe) private static var size: UnsafeMutablePointer<Int>?

    /// Called once, when the capture stream is made.
    static func install(
        stream: UnsafeMutablePointer<FILE>?, buffer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>,
        size: UnsafeMutablePointer<Int>
    ) {
        guard let stream else { return }
        Self.stream = stream
        Self.buffer = buffer
        Self.size = size
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in AbortReport.report() } // glibc's layout: Tiltbox runs on Linux
        sigemptyset(&action.sa_mask)
        sigaction(SIGABRT, &action, &previous)
    }

    private static func report() {
        if let stream, let buffer, let size, ftell(stream) > 0 {
            fflush(stream)
            if let text = buffer.pointee, size.pointee > 0 {
                _ = write(STDERR_FILENO, text, size.pointee)
            }
        }
        // Hand the signal on: restore the earlier action; the signal raised again is delivered
        // to it as soon as this handler returns (SIGABRT is blocked while it runs).
        sigaction(SIGABRT, &previous, nil)
        raise(SIGABRT)
    }
}
