/// What one job (or sweep point) of a batch came to.
@_spi(Tools) public struct BatchJobResult: Sendable {
    /// FORMATS §6 statuses.
    public enum Status: String, Sendable, CaseIterable {
        /// Verified identical, or ran to the end.
        case passed
        /// `verify` found a difference (the child exited 1).
        case diverged
        /// The run failed (a diverging state, a write error: the child exited 1), or the
        /// child exited with a status no command gives.
        case failed
        /// The job could not be done: bad input (the child exited 2, or no child could be
        /// started), or the child was killed by a signal.
        case error
    }

    /// The point's index after sweep expansion (what shards and merges order by).
    public var index: Int
    public var name: String
    public var status: Status
    /// The child's exit status; nil when it was killed by a signal or never started.
    public var exit: Int32?
    /// The signal that killed the child, or nil.
    public var signal: Int32?
    /// Wall-clock seconds the child took (0 when none started).
    public var wallSeconds: Double
    /// Steps run (from a run's summary), or nil.
    public var steps: Int?
    /// The run's digest (`fnv1a64:HEX`), or nil.
    public var digest: String?
    /// The run's physics metrics (from its `--summary-json`), or nil.
    public var metrics: RunMetrics?
    /// The first line of verify's report of a difference (`differ: ...`), or nil.
    public var firstDivergence: String?
    /// For an error or a failure: the child's last line on standard error, or why no
    /// child ran.
    public var message: String?
    /// The sweep values of this point, as (path, JSON text).
    public var parameters: [(path: String, json: String)]
    /// The run's expectations (from its `--summary-json`), in `expect` order; empty for a
    /// scenario without `expect`, a verify job, or a run that did not complete.
    public var expectations: [ReportedExpectation] = []

    public init(
        index: Int, name: String, status: Status, exit: Int32? = nil, signal: Int32? = nil,
        wallSeconds: Double = 0, steps: Int? = nil, digest: String? = nil, metrics: RunMetrics? = nil,
        firstDivergence: String? = nil, message: String? = nil, parameters: [(path: String, json: String)] = []
    ) {
        self.index = index
        self.name = name
        self.status = status
        self.exit = exit
        self.signal = signal
        self.wallSeconds = wallSeconds
        self.steps = steps
        self.digest = digest
        self.metrics = metrics
        self.firstDivergence = firstDivergence
        self.message = message
        self.parameters = parameters
    }

    /// Whether the child reported bad input (exit 2) or could not be started.
    public var isInputError: Bool { status == .error && signal == nil }
}

@_spi(Tools) extension Array where Element == BatchJobResult {
    /// The batch's exit status: 1 when a job diverged, failed or crashed (killed by a
    /// signal); else 2 when a job's input was invalid; else 0.
    @_spi(Tools) public var exitStatus: Int32 {
        if contains(where: {
            $0.status == .diverged || $0.status == .failed || ($0.status == .error && $0.signal != nil)
        }) {
            return 1
        }
        if contains(where: { $0.isInputError }) { return 2 }
        return 0
    }

    /// How many results have `status`.
    @_spi(Tools) public func count(_ status: BatchJobResult.Status) -> Int {
        reduce(0) { $0 + ($1.status == status ? 1 : 0) }
    }
}
