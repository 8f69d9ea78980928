#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A trace could not be created or written: the path, what was being done, and the
/// system's reason (`strerror`), such as "No space left on device".
public struct TraceWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The trace's path (`-` for standard output).
    public var path: String
    /// What failed: `create`, `write` or `close`.
    public var operation: String
    /// The `errno` value.
    public var code: Int32
    /// The system's text for `code`.
    public var reason: String

    /// Creates an error for `errno` value `code`; `reason` is `strerror(code)`.
    public init(path: String, operation: String, code: Int32) {
        self.path = path
        self.operation = operation
        self.code = code
        self.reason = String(cString: strerror(code))
    }

    /// One line: `cannot OPERATION trace PATH: REASON`, with `-` named "standard output".
    public var description: String {
        let target = path == "-" ? "standard output" : path
        return "cannot \(operation) trace \(target): \(reason)"
    }
}
