import Foundation
import Synchronization

/// A live gravity source driving a run as it goes: a phone's phyphox remote access
/// (`PhyphoxTiltSource`) or a Tiltbox CSV on standard input (`StreamTiltSource`).
///
/// The source runs on a thread of its own and posts what it receives here; the run's
/// thread calls `pull(into:track:now:)` once per frame, which takes the newest sample
/// received (older ones of the same frame are passed over) and applies it from the next
/// physics step on through `RunSession.scheduleGravityChange`, into a `LiveTiltTrack`.
/// So what the run applied, and at which step, is exactly the track's samples: the CSV
/// written from them replays the run bit for bit, whatever the network did.
///
/// A source that fails once running (a timeout, a malformed answer, a lost connection,
/// bad rows) never stops the run: gravity holds its last value, the gap is noted as a
/// comment line in the CSV, and each kind of trouble gives one warning (`takeWarnings`).
@_spi(Tools) public final class LiveTiltFeed: Sendable {
    /// How messages and the HUD name the source: `phyphox://HOST:PORT` or `standard input`.
    public let label: String

    /// What the source has posted and the run has not taken yet, and the counts.
    private struct State {
        var newest: TiltSample?
        var newestReceivedAt: Double?
        var fresh = false
        /// Notes for the CSV, each with the count of samples received when it was made, so
        /// that a note and the sample applied in the same frame are written in the order they happened.
        var notes: [(samplesBefore: Int, text: String)] = []
        /// `samplesReceived` when `newest` was posted.
        var newestSequence = 0
        var warnings: [String] = []
        var warnedKinds: Set<String> = []
        var inGap = false
        var polls = 0
        var samplesReceived = 0
        var badRows = 0
        var gaps = 0
        var maxAge = 0.0
        var measuring = true
        var stopped = false
    }
    private let state = Mutex(State())

    /// A feed named `label` for messages and the HUD.
    public init(label: String) {
        self.label = label
    }

    // MARK: - The source's side

    /// Posts samples received (oldest first) at monotonic time `now`; ends a gap.
    public func post(_ samples: [TiltSample], now: Double) {
        state.withLock {
            $0.samplesReceived += samples.count
            if let last = samples.last {
                $0.newest = last
                $0.newestSequence = $0.samplesReceived
                $0.newestReceivedAt = now
                $0.fresh = true
            }
        }
    }

    /// Counts one request made to the source (a poll).
    public func countPoll() { state.withLock { $0.polls += 1 } }

    /// The source answered again after a gap: notes it in the CSV.
    public func resumed() {
        state.withLock {
            guard $0.inGap else { return }
            $0.inGap = false
            $0.notes.append(($0.samplesReceived, "\(label) answers again"))
        }
    }

    /// The source failed (`kind` groups failures for the one warning each kind gets):
    /// gravity holds; the first failure of a gap is noted in the CSV.
    public func gap(kind: String, _ reason: String) {
        state.withLock {
            if !$0.inGap {
                $0.inGap = true
                $0.gaps += 1
                $0.notes.append(($0.samplesReceived, "gap: \(reason); gravity held at the last sample"))
            }
            if $0.warnedKinds.insert(kind).inserted {
                $0.warnings.append(
                    "warning: \(label): \(reason); gravity is held at the last sample and \(label) is polled again")
            }
        }
    }

    /// A note for the CSV and one warning of its `kind` (a restarted experiment, the end of the stream).
    public func notice(kind: String, _ text: String) {
        state.withLock {
            $0.notes.append(($0.samplesReceived, text))
            if $0.warnedKinds.insert(kind).inserted { $0.warnings.append("warning: \(label): \(text)") }
        }
    }

    /// A bad row of a stream: the first gives a warning, the others are counted.
    public func badRow(line: Int, reason: String) {
        state.withLock {
            $0.badRows += 1
            if $0.badRows == 1 {
                $0.notes.append(($0.samplesReceived, "line \(line) of \(label) skipped: \(reason)"))
                $0.warnings.append(
                    "warning: \(label) line \(line): \(reason); the row is skipped (further bad rows are skipped without a message)"
                )
            }
        }
    }

    /// Whether the phone says it is measuring (`status.measuring`).
    public func setMeasuring(_ measuring: Bool) {
        state.withLock {
            if $0.measuring && !measuring {
                $0.notes.append(($0.samplesReceived, "\(label) is not measuring (paused on the phone); gravity held"))
                if $0.warnedKinds.insert("measuring").inserted {
                    $0.warnings.append(
                        "warning: \(label) is not measuring: press play in phyphox on the phone; gravity is held")
                }
            }
            $0.measuring = measuring
        }
    }

    /// Asks the source's thread to stop at its next turn.
    public func stop() { state.withLock { $0.stopped = true } }

    /// Whether `stop()` was called.
    public var isStopped: Bool { state.withLock { $0.stopped } }

    // MARK: - The run's side

    /// Takes the newest sample posted since the last frame (if any) and applies it from
    /// the next physics step on; writes pending notes into the track's CSV; measures the
    /// newest sample's age (`now` minus the time it was received), for the HUD and `report`.
    /// - Returns: the newest sample's age in seconds, `nil` before the first sample.
    @discardableResult
    public func pull(into session: RunSession, track: LiveTiltTrack, now: Double) -> Double? {
        let (sample, sequence, notes, age) = state.withLock {
            s -> (TiltSample?, Int, [(samplesBefore: Int, text: String)], Double?) in
            let sample = s.fresh ? s.newest : nil
            s.fresh = false
            let notes = s.notes
            s.notes = []
            let age = s.newestReceivedAt.map { max(0, now - $0) }
            if let age { s.maxAge = max(s.maxAge, age) }
            return (sample, s.newestSequence, notes, age)
        }
        let t = session.time(ofStep: session.stepCount + 1)
        func write(_ notes: ArraySlice<(samplesBefore: Int, text: String)>) {
            for note in notes { track.note("at t = \(NumberFormat.shortest(t)) s: \(note.text)") }
        }
        // Notes made before the sample arrived go before its row, the others after it.
        let before = sample == nil ? notes.count : notes.firstIndex { $0.samplesBefore >= sequence } ?? notes.count
        write(notes[..<before])
        if let sample {
            // The check a replay of the CSV applies to each sample: a reading it would refuse is skipped here.
            let world = SampledGravityTrack.worldValue(sample.reading, orientation: track.orientation, g: track.g)
            if let reason = GravityBound.readingViolation(sample.reading, world: world, g: track.g) {
                track.note("at t = \(NumberFormat.shortest(t)) s: a sample skipped: \(reason)")
                state.withLock {
                    if $0.warnedKinds.insert("bound").inserted {
                        $0.warnings.append("warning: \(label): a sample skipped: \(reason)")
                    }
                }
            } else {
                session.scheduleGravityChange { track.apply(reading: sample.reading, at: $0) }
            }
        }
        write(notes[before...])
        return age
    }

    /// The newest sample received so far, for a run's first gravity.
    public var newestSample: TiltSample? { state.withLock { $0.newest } }

    /// The warnings not yet taken, each once.
    public func takeWarnings() -> [String] {
        state.withLock {
            let taken = $0.warnings
            $0.warnings = []
            return taken
        }
    }

    /// What the feed did, for the closing line of a live run.
    public struct Report: Sendable {
        /// Requests made (polls of a phone; 0 for a stream).
        public var polls: Int
        /// Samples received.
        public var samplesReceived: Int
        /// The largest age of the newest sample seen by a frame, seconds.
        public var maxAge: Double
        /// Gaps: times the source stopped answering properly (each begins with a CSV comment).
        public var gaps: Int
        /// Bad rows of a stream, skipped.
        public var badRows: Int
    }

    /// The counts so far.
    public var report: Report {
        state.withLock {
            Report(
                polls: $0.polls, samplesReceived: $0.samplesReceived, maxAge: $0.maxAge, gaps: $0.gaps,
                badRows: $0.badRows)
        }
    }
}
