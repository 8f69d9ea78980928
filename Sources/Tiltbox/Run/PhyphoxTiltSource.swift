import Foundation

/// A phone running phyphox with remote access on, as a live gravity source
/// (`--tilt phyphox://HOST[:PORT]`).
///
/// `connect` reads `/config` (finding the accelerometer's buffers, refusing
/// `linear_acceleration`) and the last sample, before the run: a wrong address, a refused
/// connection or an experiment without gravity is an `InputError` then (exit 2). `start`
/// then polls `/get` on a thread of its own for the samples newer than the last one
/// received (phyphox's threshold form, `accX=T|acc_time&…&acc_time=T`), at most once per
/// `interval` and never two requests at once, and posts them to the feed. Once running,
/// nothing the phone does stops the run (`LiveTiltFeed`).
@_spi(Tools) public final class PhyphoxTiltSource: Sendable {
    /// `phyphox://HOST:PORT`, as messages name the phone.
    public let label: String
    /// The accelerometer's buffers, from `/config`.
    public let buffers: PhyphoxRemote.Buffers
    /// The feed the samples go to.
    public let feed: LiveTiltFeed
    private let client: HTTPGet
    private let firstAnswer: PhyphoxRemote.Answer

    /// Seconds allowed for each wait while connecting before the run.
    public static let connectTimeout = 3.0
    /// Seconds allowed for each wait of a poll during the run: a phone that does not answer
    /// in a second is in a gap (gravity held), and is asked again.
    public static let pollTimeout = 1.0

    /// Parses `phyphox://HOST[:PORT]` (port 8080, phyphox's default on Android, when left
    /// out; an iPhone serves on port 80). `nil` when `text` does not start with `phyphox://`.
    /// - Throws: `InputError` for a URL that starts so but does not parse.
    public static func address(_ text: String) throws(InputError) -> (host: String, port: Int)? {
        let scheme = "phyphox://"
        guard text.lowercased().hasPrefix(scheme) else { return nil }
        var rest = Substring(text.dropFirst(scheme.count))
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        func fail(_ reason: String) -> InputError { InputError(file: text, reason: reason) }
        var host = rest
        var port = 8080
        if rest.hasPrefix("[") {
            // [IPv6]:PORT
            guard let close = rest.firstIndex(of: "]") else { throw fail("an IPv6 address needs its closing ']'") }
            host = rest[rest.index(after: rest.startIndex)..<close]
            let after = rest[rest.index(after: close)...]
            if !after.isEmpty {
                guard after.hasPrefix(":"), let p = Int(after.dropFirst()) else {
                    throw fail("expected phyphox://HOST or phyphox://HOST:PORT")
                }
                port = p
            }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            guard let p = Int(rest[rest.index(after: colon)...]) else {
                throw fail("the port '\(rest[rest.index(after: colon)...])' is not a number")
            }
            port = p
        }
        guard !host.isEmpty else { throw fail("the host is missing (expected phyphox://HOST or phyphox://HOST:PORT)") }
        guard host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-._:".contains($0)) }) else {
            throw fail("the host '\(host)' is not a host name or an address (nothing may follow HOST:PORT)")
        }
        guard (1...65535).contains(port) else { throw fail("the port \(port) is not in 1...65535") }
        return (String(host), port)
    }

    /// Reads `/config` and the last sample from the phone at `host:port`.
    /// - Throws: `InputError` (exit 2): the address does not resolve, nothing answers, the
    ///   answer is not phyphox's, or the experiment has no accelerometer (or only
    ///   `linear_acceleration`).
    public static func connect(host: String, port: Int) throws(InputError) -> PhyphoxTiltSource {
        let label = "phyphox://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        let client = HTTPGet(host: host, port: port, timeout: connectTimeout)
        func fetch(_ target: String) throws(InputError) -> [UInt8] {
            do { return try client.get(target) } catch {
                var reason = "\(error)"
                if case .cannotConnect = error {
                    reason += ": is phyphox running with \"Allow remote access\" on, at this address and port?"
                }
                throw InputError(file: label + target.prefix(while: { $0 != "?" }), reason: reason)
            }
        }
        let buffers = try PhyphoxRemote.buffers(fromConfig: try fetch("/config"), place: label + "/config")
        let target = PhyphoxRemote.getTarget(buffers, after: nil)
        let first = try PhyphoxRemote.answer(fromGet: try fetch(target), buffers: buffers, place: label + "/get")
        var pollClient = client
        pollClient.timeout = pollTimeout
        return PhyphoxTiltSource(label: label, buffers: buffers, client: pollClient, first: first)
    }

    private init(label: String, buffers: PhyphoxRemote.Buffers, client: HTTPGet, first: PhyphoxRemote.Answer) {
        self.label = label
        self.buffers = buffers
        self.client = client
        self.firstAnswer = first
        self.feed = LiveTiltFeed(label: label)
        feed.countPoll()
        feed.countPoll() // /config and the first /get
        feed.post(first.samples.suffix(1), now: RealTimeClock.now())
        feed.setMeasuring(first.measuring)
    }

    /// Starts polling on a thread of its own, at most once per `interval` seconds, until
    /// the feed is stopped.
    public func start(interval: Double) {
        let thread = Thread { [self] in poll(interval: interval) }
        thread.name = "tiltbox-phyphox"
        thread.start()
    }

    private func poll(interval: Double) {
        var session = firstAnswer.session
        var after = firstAnswer.newestTime
        var next = RealTimeClock.now()
        while !feed.isStopped {
            let now = RealTimeClock.now()
            if now < next {
                usleep(useconds_t(min(0.1, next - now) * 1_000_000))
                continue
            }
            next = now + interval
            let target = PhyphoxRemote.getTarget(buffers, after: after)
            feed.countPoll()
            let answer: PhyphoxRemote.Answer
            do {
                let bytes = try client.get(target)
                answer = try PhyphoxRemote.answer(fromGet: bytes, buffers: buffers, place: label + "/get")
            } catch let error as HTTPGetError {
                let kind: String
                switch error {
                case .timeout: kind = "timeout"
                case .cannotConnect, .closed, .unknownHost: kind = "connection"
                case .tooLarge, .malformed, .status: kind = "malformed"
                }
                feed.gap(kind: kind, "\(error)")
                continue
            } catch let error as InputError {
                feed.gap(
                    kind: "malformed",
                    "a malformed answer (\(error.path ?? "JSON")\(error.line.map { " at \($0):\(error.column ?? 0)" } ?? ""): \(error.reason))"
                )
                continue
            } catch {
                feed.gap(kind: "other", "\(error)")
                continue
            }
            feed.resumed()
            if answer.session != session {
                // The experiment was started afresh: its times start again; ask for its last sample.
                session = answer.session
                after = nil
                feed.notice(kind: "session", "the phone's experiment was restarted (a new session): reading it afresh")
                continue
            }
            feed.setMeasuring(answer.measuring)
            var samples = answer.samples
            if answer.isFull {
                // The data were cleared on the phone and sent whole again: keep only its newest.
                samples = Array(samples.suffix(1))
                after = answer.newestTime
            } else {
                if let after { samples = samples.filter { $0.t > after } }
                if let newest = answer.newestTime { after = max(after ?? newest, newest) }
            }
            if !samples.isEmpty { feed.post(samples, now: RealTimeClock.now()) }
        }
    }
}
