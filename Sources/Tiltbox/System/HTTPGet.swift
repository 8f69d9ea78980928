#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Why an HTTP GET did not give a body: each case is one line for people.
@_spi(Tools) public enum HTTPGetError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The host name could not be resolved (`getaddrinfo` failed).
    case unknownHost(String)
    /// Nothing listens at the address: the connection was refused or could not be made.
    case cannotConnect(String)
    /// No answer (or no more of it) within the timeout.
    case timeout
    /// The peer closed the connection before the answer was whole.
    case closed
    /// The answer is larger than `HTTPGet.maxBytes`.
    case tooLarge
    /// The answer is not an HTTP/1.x response Tiltbox can read.
    case malformed(String)
    /// The server answered with a status other than 200.
    case status(Int)

    public var description: String {
        switch self {
        case .unknownHost(let host): return "the address \(host) cannot be resolved"
        case .cannotConnect(let why): return "cannot connect: \(why)"
        case .timeout: return "no answer within the timeout"
        case .closed: return "the connection was lost before the answer was whole"
        case .tooLarge: return "the answer is larger than \(HTTPGet.maxBytes / 1024 / 1024) MiB"
        case .malformed(let why): return "the answer is not valid HTTP (\(why))"
        case .status(let code): return "the server answered with HTTP status \(code)"
        }
    }
}

/// A plain HTTP/1.1 GET over a TCP socket, one connection per request
/// (`Connection: close`), with a timeout on connecting and on each read (and three times
/// it for the whole answer), and a cap on the size of the answer. It is all a phone's remote-access server needs, and it never
/// waits forever or reads without bound.
@_spi(Tools) public struct HTTPGet: Sendable {
    /// The largest answer read, headers included: 1 MiB.
    public static let maxBytes = 1 << 20

    /// The host name or address.
    public var host: String
    /// The TCP port.
    public var port: Int
    /// Seconds allowed for connecting, and for each wait for more of the answer.
    public var timeout: Double

    /// A client for `host:port` with `timeout` seconds per wait.
    public init(host: String, port: Int, timeout: Double = 2) {
        self.host = host
        self.port = port
        self.timeout = timeout
    }

    /// Fetches `target` (a path with its query, such as `/get?accX=full`) and returns the body
    /// of a 200 answer (a `Content-Length` body, or everything up to the close).
    public func get(_ target: String) throws(HTTPGetError) -> [UInt8] {
        let fd = try openConnection()
        defer { close(fd) }
        try sendAll(Array(request(target).utf8), on: fd)
        return try Self.body(of: try receive(on: fd))
    }

    /// The request `get` sends for `target`. Its `Host` header is `host:port`, an IPv6
    /// address in brackets (RFC 7230 §5.4 takes the URI's authority: `Host: [::1]:8080`).
    func request(_ target: String) -> String {
        let authority = host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        return "GET \(target) HTTP/1.1\r\nHost: \(authority)\r\nConnection: close\r\nAccept: application/json\r\n\r\n"
    }

    // MARK: - Socket

    private func openConnection() throws(HTTPGetError) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw .unknownHost(host)
        }
        defer { freeaddrinfo(list) }
        var lastError = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry {
            entry = address.pointee.ai_next
            let fd = socket(address.pointee.ai_family, address.pointee.ai_socktype, address.pointee.ai_protocol)
            if fd < 0 { continue }
            let flags = fcntl(fd, F_GETFL, 0)
            _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
            var result = connect(fd, address.pointee.ai_addr, address.pointee.ai_addrlen)
            if result != 0 && errno == EINPROGRESS {
                if try wait(fd, events: Int16(POLLOUT)) {
                    var code: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(fd, SOL_SOCKET, SO_ERROR, &code, &length)
                    if code == 0 { result = 0 } else { errno = code }
                } else {
                    close(fd)
                    throw .timeout
                }
            }
            if result == 0 { return fd }
            lastError = String(cString: strerror(errno))
            close(fd)
        }
        throw .cannotConnect(lastError)
    }

    /// Waits until `fd` is ready for `events`; false at the timeout.
    private func wait(_ fd: Int32, events: Int16) throws(HTTPGetError) -> Bool {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let milliseconds = Int32(max(1, min(timeout * 1000, 600_000)))
        while true {
            let ready = poll(&entry, 1, milliseconds)
            if ready > 0 { return true }
            if ready == 0 { return false }
            if errno != EINTR { throw .closed }
        }
    }

    private func sendAll(_ bytes: [UInt8], on fd: Int32) throws(HTTPGetError) {
        var sent = 0
        while sent < bytes.count {
            guard try wait(fd, events: Int16(POLLOUT)) else { throw .timeout }
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n > 0 {
                sent += n
            } else if n < 0 && (errno == EINTR || errno == EAGAIN) {
                continue
            } else {
                throw errno == ECONNREFUSED ? .cannotConnect(String(cString: strerror(errno))) : .closed
            }
        }
    }

    /// Reads until the peer closes or a `Content-Length` body is whole; a peer trickling
    /// bytes gets at most `3 × timeout` in all.
    private func receive(on fd: Int32) throws(HTTPGetError) -> [UInt8] {
        var data: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        let deadline = Self.monotonicNow() + 3 * timeout
        while true {
            if Self.monotonicNow() > deadline { throw .timeout }
            if let expected = try Self.expectedLength(data), data.count >= expected { return data }
            guard try wait(fd, events: Int16(POLLIN)) else { throw .timeout }
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n > 0 {
                data += chunk[0..<n]
                if data.count > Self.maxBytes { throw .tooLarge }
            } else if n == 0 {
                if let expected = try Self.expectedLength(data), data.count < expected { throw .closed }
                if Self.headerEnd(data) == nil { throw data.isEmpty ? .closed : .malformed("no end of headers") }
                return data
            } else if errno != EINTR && errno != EAGAIN {
                throw .closed
            }
        }
    }

    private static func monotonicNow() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    // MARK: - Parsing the answer

    /// The index just past the blank line ending the headers.
    static func headerEnd(_ data: [UInt8]) -> Int? {
        guard data.count >= 4 else { return nil }
        for i in 3..<data.count where data[i] == 10 && data[i - 1] == 13 && data[i - 2] == 10 && data[i - 3] == 13 {
            return i + 1
        }
        return nil
    }

    /// Headers plus `Content-Length`, when the headers are whole and give one.
    /// - Throws: `.malformed` for a length that is not a whole number ≥ 0, `.tooLarge` past `maxBytes`.
    static func expectedLength(_ data: [UInt8]) throws(HTTPGetError) -> Int? {
        guard let end = headerEnd(data), let text = header("content-length", in: data[..<end]) else { return nil }
        guard let length = Int(text), length >= 0 else { throw .malformed("Content-Length '\(text.prefix(20))'") }
        guard length <= maxBytes - end else { throw .tooLarge }
        return end + length
    }

    static func header(_ name: String, in head: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: head, as: UTF8.self)
        for line in text.split(separator: "\r\n").dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            if line[..<colon].lowercased() == name {
                return line[line.index(after: colon)...].trimmingSpaces
            }
        }
        return nil
    }

    /// The body of a whole answer: refuses a status other than 200 and chunked bodies.
    static func body(of data: [UInt8]) throws(HTTPGetError) -> [UInt8] {
        guard let end = headerEnd(data) else { throw .malformed("no end of headers") }
        let statusLine = String(decoding: data.prefix(while: { $0 != 13 }), as: UTF8.self)
        let parts = statusLine.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), let code = Int(parts[1]) else {
            throw .malformed("status line '\(statusLine.prefix(40))'")
        }
        guard code == 200 else { throw .status(code) }
        if let encoding = header("transfer-encoding", in: data[..<end]), encoding.lowercased() != "identity" {
            throw .malformed("transfer encoding '\(encoding)'")
        }
        var body = Array(data[end...])
        if let expected = try expectedLength(data) { body = Array(body.prefix(expected - end)) }
        return body
    }
}

extension Substring {
    fileprivate var trimmingSpaces: String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
