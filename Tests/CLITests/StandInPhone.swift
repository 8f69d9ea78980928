import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A stand-in for a phone running phyphox with remote access on: an HTTP/1.1 server on
/// 127.0.0.1 (a port the kernel picks) serving `/config` and `/get` the way phyphox's
/// `RemoteServer` does, so the live tilt can be tested without a phone.
///
/// - `/config`: `{"crc32", "title", …, "buffers", "inputs": [{"source": "accelerometer"
///   (or "linear_acceleration"), "outputs": [{"x": "accX"}, {"y": "accY"}, {"z": "accZ"},
///   {"t": "acc_time"}]}], "export": []}`.
/// - `/get?B=V&…`: for each buffer asked for, `V` empty gives its last value
///   (`"updateMode": "single"`), `full` all of it, `T` or `T|R` the values at indices where
///   R (B itself without one) is greater than T raised by one unit of its 8th significant
///   digit (phyphox's nudge); `"partial"`. Numbers as phyphox writes them (`0.#######E0`:
///   8 significant digits, `9.80665E0`). Then `"status": {"session", "measuring",
///   "timedRun", "countDown"}`.
///
/// After "Clear data" on the phone (`Behaviour.clearAtGet`) phyphox forces a full update:
/// the next request with a threshold is answered as if it said `full` (`"updateMode":
/// "full"`, the whole buffer as it is since the clear), as `RemoteServer.forceFullUpdate` does.
///
/// Samples exist at `rate` per second from the moment the server starts, as a measuring
/// phone's buffers grow: sample i at t = i / rate reads, in m/s² (Android's convention),
/// x = 9.80665·sin θ, y = 9.80665·cos θ, z = 0, with θ = 0.8·sin(1.7·t).
final class StandInPhone: Sendable {
    /// What the stand-in does besides answering properly.
    struct Behaviour: Sendable {
        /// The experiment's sensor: `accelerometer`, or `linear_acceleration` to be refused.
        var source = "accelerometer"
        /// Samples per second.
        var rate = 100.0
        /// `/get` answers (counted from 1) answered with a body that is not JSON.
        var malformedAnswers: Set<Int> = []
        /// After this many `/get` answers the server stops: it closes its socket and every
        /// later connection is refused.
        var stopAfterGets: Int?
        /// From this `/get` answer on, the experiment has restarted: a new `session`, its
        /// times start again at 0, and its samples follow `sample(_:epoch: 1)`.
        var restartAtGet: Int?
        /// `/get` answers (counted from 1) saying `"measuring": false`, with no new samples.
        var pausedGets: Set<Int> = []
        /// `/get` answers (counted from 1) whose x values are all 1e300 m/s² (finite, but
        /// beyond any gravity a run accepts).
        var hugeGets: Set<Int> = []
        /// `/get` answers (counted from 1) whose newest sample time is written `1E999` (beyond any
        /// double: read as infinity).
        var infiniteTimeGets: Set<Int> = []
        /// `/get` requests (counted from 1) answered only after 1.5 s: past the client's 1 s wait.
        var slowGets: Set<Int> = []
        /// `/get` answers (counted from 1) with no `Content-Length` and a body of
        /// `StandInPhone.oversizedBody` bytes, sent until the client hangs up.
        var endlessGets: Set<Int> = []
        /// `/get` answers (counted from 1) whose `Content-Length` says `StandInPhone.oversizedBody`
        /// bytes, followed by as much of that body as the client takes.
        var hugeLengthGets: Set<Int> = []
        /// At this `/get` answer the phone's data have just been cleared ("Clear data", the
        /// session unchanged): the buffers hold only the 0.2 s measured since, from t = 0 again,
        /// following `sample(_:epoch: 2)`, and this answer is phyphox's forced full update.
        var clearAtGet: Int?
    }

    /// The size of an oversized answer's body: far past the client's 1 MiB cap, and past
    /// what the kernel's socket buffers on both sides can take in before a client that
    /// stopped reading makes a send fail.
    static let oversizedBody = 256 << 20

    /// One `/get` request as the stand-in saw it.
    struct GetRequest: Sendable {
        /// Its number, counted from 1.
        var number: Int
        /// When it arrived, seconds on the monotonic clock.
        var arrivedAt: Double
        /// The value asked for the time buffer (`acc_time=VALUE`): empty for the last value
        /// only, else the threshold.
        var timeValue: String?
    }

    let behaviour: Behaviour
    let port: Int
    private let listener: Int32
    private let start = Date()
    private struct Counts {
        var gets = 0
        var served: [Int: Int] = [:]
        var stopped = false
        var restartedAt: Date?
        var clearedAt: Date?
        var requests: [GetRequest] = []
        var oversizedBytesSent: [Int] = []
        var fullAnswerNewest: Double?
    }
    private let counts = Mutex(Counts())

    init(_ behaviour: Behaviour = Behaviour()) throws {
        self.behaviour = behaviour
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EMFILE) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(fd, 16) == 0 else {
            close(fd)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in serve() }
        thread.start()
    }

    deinit { stop() }

    /// `phyphox://127.0.0.1:PORT`.
    var url: String { "phyphox://127.0.0.1:\(port)" }

    /// `/get` requests answered so far.
    var gets: Int { counts.withLock { $0.gets } }
    /// Samples sent so far, each counted once.
    var samplesServed: Int { counts.withLock { $0.served.count } }
    /// Samples sent more than once (after a threshold request, none should be).
    var repeats: Int { counts.withLock { $0.served.values.filter { $0 > 1 }.count } }
    /// Every `/get` request so far, in the order they arrived.
    var requests: [GetRequest] { counts.withLock { $0.requests } }
    /// For each oversized answer (`endlessGets`, `hugeLengthGets`), the bytes of its body sent
    /// before the client hung up: what the client read, and what the sockets' buffers held.
    var oversizedBytesSent: [Int] { counts.withLock { $0.oversizedBytesSent } }
    /// The time of the newest sample in the full answer after a clear (`clearAtGet`), as the
    /// client parses it.
    var fullAnswerNewest: Double? { counts.withLock { $0.fullAnswerNewest } }

    /// Seconds on the monotonic clock (as Tiltbox paces its polls).
    static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Stops serving: the socket is closed and later connections are refused.
    func stop() {
        let wasRunning = counts.withLock { c -> Bool in
            defer { c.stopped = true }
            return !c.stopped
        }
        if wasRunning { shutdown(listener, Int32(SHUT_RDWR)) }
    }

    // MARK: - The samples

    /// The reading of sample `i`, m/s² as phyphox reports it; `epoch` 1 after a restart
    /// (`Behaviour.restartAtGet`) tilts the other way, `epoch` 2 after a clear
    /// (`Behaviour.clearAtGet`) further than epoch 0 ever does: the three never share a reading.
    func sample(_ i: Int, epoch: Int = 0) -> (t: Double, x: Double, y: Double) {
        let t = Double(i) / behaviour.rate
        let theta = epoch == 0 ? 0.8 * sin(1.7 * t) : epoch == 1 ? -1.2 + 0.1 * sin(t) : 1.1 + 0.1 * sin(t)
        return (t, 9.80665 * sin(theta), 9.80665 * cos(theta))
    }

    /// A number as phyphox writes it: Java's `DecimalFormat("0.#######E0")`.
    static func phyphoxNumber(_ v: Double) -> String {
        if v == 0 { return "0E0" }
        var exponent = Int(floor(log10(abs(v))))
        var mantissa = v / pow(10, Double(exponent))
        var text = String(format: "%.7f", mantissa)
        if abs(Double(text) ?? 0) >= 10 {
            exponent += 1
            mantissa = v / pow(10, Double(exponent))
            text = String(format: "%.7f", mantissa)
        }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return "\(text)E\(exponent)"
    }

    /// The value a stand-in's number reads back as, as Tiltbox's client parses it.
    static func parsed(_ v: Double) -> Double { Double(phyphoxNumber(v)) ?? .nan }

    // MARK: - Serving

    private func serve() {
        while !counts.withLock({ $0.stopped }) {
            var entry = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 100) > 0 else { continue }
            let client = accept(listener, nil, nil)
            if client < 0 { continue }
            if counts.withLock({ $0.stopped }) {
                close(client)
                break
            }
            answer(client)
            close(client)
        }
        close(listener)
    }

    private func answer(_ client: Int32) {
        var request: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while request.count < 64 * 1024 {
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            guard poll(&entry, 1, 5000) > 0 else { return }
            let n = chunk.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return }
            request += chunk[0..<n]
            if String(decoding: request, as: UTF8.self).contains("\r\n\r\n") { break }
        }
        let line = String(decoding: request.prefix(while: { $0 != 13 }), as: UTF8.self)
        let parts = line.split(separator: " ")
        guard parts.count == 3, parts[0] == "GET" else { return reply(client, status: 400, body: "{}") }
        let target = String(parts[1])
        let path = String(target.prefix(while: { $0 != "?" }))
        let query = target.contains("?") ? String(target[target.index(after: target.firstIndex(of: "?")!)...]) : ""
        switch path {
        case "/config": reply(client, status: 200, body: config())
        case "/get":
            let number = counts.withLock { c -> Int in
                c.gets += 1
                let time = query.split(separator: "&").first { $0.hasPrefix("acc_time=") }
                c.requests.append(
                    GetRequest(
                        number: c.gets, arrivedAt: Self.monotonicNow(),
                        timeValue: time.map { String($0.dropFirst("acc_time=".count)).removingPercentEncoding ?? "" }))
                return c.gets
            }
            if behaviour.endlessGets.contains(number) || behaviour.hugeLengthGets.contains(number) {
                oversized(client, saysItsLength: behaviour.hugeLengthGets.contains(number))
            } else {
                reply(client, status: 200, body: get(query, number: number))
            }
        default: reply(client, status: 404, body: "{\"error\": \"Not found.\"}")
        }
    }

    private func reply(_ client: Int32, status: Int, body: String) {
        let bytes = Array(body.utf8)
        let head =
            "HTTP/1.1 \(status) \(status == 200 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(bytes.count)\r\nConnection: close\r\n\r\n"
        let all = Array(head.utf8) + bytes
        var sent = 0
        while sent < all.count {
            let n = all[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// An answer of `oversizedBody` bytes (the start of a `/get` answer, then numbers), with
    /// or without a `Content-Length` saying so, sent until it is whole or the client hangs up.
    private func oversized(_ client: Int32, saysItsLength: Bool) {
        // Never blocked for long on a client that neither reads nor hangs up.
        var wait = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(client, SOL_SOCKET, SO_SNDTIMEO, &wait, socklen_t(MemoryLayout<timeval>.size))
        let head =
            "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + (saysItsLength ? "Content-Length: \(Self.oversizedBody)\r\n" : "") + "Connection: close\r\n\r\n"
        let start = Array(#"{"buffer":{"acc_time":{"size":0,"updateMode":"partial", "buffer":["#.utf8)
        let numbers = Array(String(repeating: "1.2345678E0,", count: 64 * 1024 / 12).utf8)
        var body = 0
        func sendAll(_ bytes: [UInt8]) -> Int {
            var sent = 0
            while sent < bytes.count {
                let n = bytes[sent...].withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n <= 0 { break }
                sent += n
            }
            return sent
        }
        if sendAll(Array(head.utf8)) == head.utf8.count {
            var chunk = start
            while body < Self.oversizedBody {
                let piece = Array(chunk.prefix(Self.oversizedBody - body))
                let n = sendAll(piece)
                body += n
                if n < piece.count { break }
                chunk = numbers
            }
        }
        counts.withLock { $0.oversizedBytesSent.append(body) }
    }

    private func config() -> String {
        """
        {"crc32":"5a1e7c3d","title":"Acceleration with g","localTitle":"Acceleration with g","category":"Raw Sensors",\
        "localCategory":"Raw Sensors","buffers":[{"name":"acc_time","size":0},{"name":"accX","size":0},\
        {"name":"accY","size":0},{"name":"accZ","size":0}],"inputs":[{"source":"\(behaviour.source)","outputs":\
        [{"x":"accX"},{"y":"accY"},{"z":"accZ"},{"t":"acc_time"}]}],"export":[]}
        """
    }

    private func get(_ query: String, number: Int) -> String {
        if let stopAfter = behaviour.stopAfterGets, number >= stopAfter { stop() }
        if behaviour.slowGets.contains(number) { Thread.sleep(forTimeInterval: 1.5) }
        if behaviour.malformedAnswers.contains(number) { return "{\"buffer\": {\"accX\": [1.0, " }
        let (restartedAt, clearedAt, forceFull) = counts.withLock { c -> (Date?, Date?, Bool) in
            if let at = behaviour.restartAtGet, number >= at, c.restartedAt == nil { c.restartedAt = Date() }
            var forceFull = false
            if let at = behaviour.clearAtGet, number >= at, c.clearedAt == nil {
                c.clearedAt = Date().addingTimeInterval(-0.2)
                forceFull = true
            }
            return (c.restartedAt, c.clearedAt, forceFull)
        }
        let epoch = restartedAt != nil ? 1 : clearedAt != nil ? 2 : 0
        let session = epoch == 1 ? "d4e5f6" : "a1b2c3"
        let measuring = !behaviour.pausedGets.contains(number)
        var available = Int(Date().timeIntervalSince(restartedAt ?? clearedAt ?? start) * behaviour.rate) + 1
        if !measuring { available = 0 }
        let columns: [String: (Int) -> Double] = [
            "acc_time": { Self.parsed(self.sample($0, epoch: epoch).t) }, "accX": { self.sample($0, epoch: epoch).x },
            "accY": { self.sample($0, epoch: epoch).y }, "accZ": { _ in 0 },
        ]
        var buffers: [String] = []
        var sentIndices: Set<Int> = []
        for pair in query.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(kv[0])
            let value = kv.count > 1 ? (String(kv[1]).removingPercentEncoding ?? "") : ""
            guard let column = columns[name] else { continue }
            var mode = "partial"
            var indices: [Int]
            if value.isEmpty {
                mode = "single"
                indices = available > 0 ? [available - 1] : []
            } else if value == "full" || forceFull {
                mode = "full"
                indices = Array(0..<available)
            } else {
                let pieces = value.split(separator: "|", maxSplits: 1)
                guard var threshold = Double(pieces[0]) else { return "{\"error\": \"Invalid threshold.\"}" }
                threshold += pow(10, floor(log10(abs(threshold) / 1e7)))
                let reference = columns[pieces.count > 1 ? String(pieces[1]) : name] ?? column
                indices = (0..<available).filter { reference($0) > threshold }
            }
            if name == "acc_time" {
                sentIndices.formUnion(indices)
                if forceFull, let newest = indices.last {
                    counts.withLock { $0.fullAnswerNewest = column(newest) }
                }
            }
            let huge = name == "accX" && behaviour.hugeGets.contains(number)
            var texts = indices.map { Self.phyphoxNumber(huge ? 1e300 : column($0)) }
            if name == "acc_time", behaviour.infiniteTimeGets.contains(number), !texts.isEmpty {
                texts[texts.count - 1] = "1E999"
            }
            let values = texts.joined(separator: ",")
            buffers.append("\"\(name)\":{\"size\":0,\"updateMode\":\"\(mode)\", \"buffer\":[\(values)]}")
        }
        counts.withLock { c in for i in sentIndices { c.served[epoch * 1_000_000 + i, default: 0] += 1 } }
        return "{\"buffer\":{\n" + buffers.joined(separator: ",\n")
            + "\n},\n\"status\":{\n\"session\":\"\(session)\", \"measuring\":\(measuring), \"timedRun\":false, \"countDown\":0\n}\n}\n"
    }
}
