import Foundation

/// `run --summary-json FILE`: the run summary as one JSON object, for scripts and CI.
extension RunSummary {
    /// The kind of end, as a trace's end line names it: `complete`, `interrupted` or `error`.
    public var endKind: String { outcome.endKind.rawValue }

    /// The summary as a JSON object (one line, newline-terminated), numbers exact
    /// (shortest round-trip):
    /// `{"format":"tiltbox-summary/1","tiltbox":VERSION,"scenario":LABEL,"end":KIND,"steps":N,`
    /// `"totalSteps":N,"simTime":S,"droppedTime":S,"frames":N,"records":N,"wallSeconds":S,`
    /// `"stepsPerSecond":R,"digest":"fnv1a64:HEX","trace":PATH|null,"traceBytes":N|null}`,
    /// plus `"message"` naming step and body after a divergence (`end` is `error`), then
    /// `"metrics":{...}` (`RunMetrics.jsonText`) or `"metrics":null` when they were not computed
    /// (the live view), then, for a scenario with `expect`, `"expectations":[...]`
    /// (`ExpectationResult.jsonText(file:)`, one object per entry in `expect` order).
    public func jsonText(
        scenario: String, trace: String?, metrics: RunMetrics? = nil, expectations: [ExpectationResult]? = nil
    ) -> String {
        var out = JSONLineBuffer()
        func key(_ name: RunSummaryKey) {
            if out.count > 1 { out.append(byte: UInt8(ascii: ",")) }
            out.append(string: name.rawValue)
            out.append(byte: UInt8(ascii: ":"))
        }
        func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
        out.append(byte: UInt8(ascii: "{"))
        key(.format); out.append(string: RunSummaryKey.formatName)
        key(.tiltbox); out.append(string: TiltboxVersion.current)
        key(.scenario); out.append(string: scenario)
        key(.end); out.append(string: endKind)
        if case .diverged(let step, let divergence) = outcome {
            key(.message); out.append(string: "step \(step): \(divergence)")
        }
        key(.steps); out.append(integer: steps)
        key(.totalSteps); out.append(integer: totalSteps)
        key(.simTime); out.append(number: finite(simulatedTime))
        key(.droppedTime); out.append(number: finite(droppedTime))
        key(.frames); out.append(integer: frames)
        key(.records); out.append(integer: records)
        key(.wallSeconds); out.append(number: finite(wallTime))
        key(.stepsPerSecond); out.append(number: finite(stepsPerSecond))
        key(.digest); out.append(string: digest)
        key(.trace)
        if let trace { out.append(string: trace) } else { out.append("null") }
        key(.traceBytes)
        if let traceBytes { out.append(integer: traceBytes) } else { out.append("null") }
        key(.metrics)
        if let metrics { out.append(raw: metrics.jsonText) } else { out.append("null") }
        if let expectations {
            key(.expectations)
            out.append("[")
            for (i, result) in expectations.enumerated() {
                if i > 0 { out.append(",") }
                out.append(raw: result.jsonText(file: scenario))
            }
            out.append("]")
        }
        out.append("}\n")
        return String(decoding: out.bytes, as: UTF8.self)
    }
}

/// The keys of a summary JSON object (`RunSummary.jsonText`), in the order written: the
/// writer and the reader (`RunSummaryFile`) both spell them here.
@_spi(Tools) public enum RunSummaryKey: String, Sendable, CaseIterable {
    case format, tiltbox, scenario, end, message, steps, totalSteps, simTime, droppedTime, frames, records
    case wallSeconds, stepsPerSecond, digest, trace, traceBytes, metrics, expectations

    /// The value of the `format` key.
    public static let formatName = "tiltbox-summary/1"
}

/// What a batch reads back from a child's `run --summary-json` file: its steps, digest and
/// metrics (`RunSummary.jsonText` writes them).
@_spi(Tools) public struct RunSummaryFile: Sendable, Equatable {
    /// `steps`, when it is a whole number that fits.
    public var steps: Int?
    /// `digest`.
    public var digest: String?
    /// `metrics` (`RunMetrics.read`), `nil` when `null` or unreadable.
    public var metrics: RunMetrics?
    /// `expectations`, as their labels and failure lines; empty without them.
    public var expectations: [ReportedExpectation] = []

    /// The largest summary file read: a summary is a few hundred bytes.
    public static let maximumFileSize = 1 << 20

    /// Reads the file at `path`; `nil` when it is missing, too large or not one JSON value.
    // A failable init with `try?` on the typed-throwing parser crashed the release compiler
    // (Swift 6.x CopyPropagation); a static function with do/catch compiles.
    public static func read(_ path: String) -> RunSummaryFile? {
        guard let data = FileManager.default.contents(atPath: path), data.count < maximumFileSize else { return nil }
        let root: JSONNode
        do {
            root = try JSONParser.parse(String(decoding: data, as: UTF8.self))
        } catch {
            return nil
        }
        var summary = RunSummaryFile()
        if let steps = root[RunSummaryKey.steps.rawValue]?.numberValue, steps.isFinite, abs(steps) < 1e15 {
            summary.steps = Int(steps)
        }
        summary.digest = root[RunSummaryKey.digest.rawValue]?.stringValue
        summary.metrics = root[RunSummaryKey.metrics.rawValue].flatMap(RunMetrics.read)
        for node in root[RunSummaryKey.expectations.rawValue]?.arrayValue ?? [] {
            guard let label = node["label"]?.stringValue, case .bool(let holds)? = node["holds"]?.value else {
                continue
            }
            summary.expectations.append(
                ReportedExpectation(label: label, holds: holds, line: node["message"]?.stringValue))
        }
        return summary
    }
}

/// One expectation as a run's summary file reports it (what a batch reads back).
@_spi(Tools) public struct ReportedExpectation: Sendable, Equatable {
    /// `expect[2] ("name")`.
    public var label: String
    /// Whether it held.
    public var holds: Bool
    /// The failure line, when it failed.
    public var line: String?

    /// A reported expectation.
    public init(label: String, holds: Bool, line: String?) {
        self.label = label
        self.holds = holds
        self.line = line
    }
}

extension ExpectationResult {
    /// `{"index":2,"name":N|null,"label":"expect[2] (\"N\")","holds":false,"step":360,"t":3,`
    /// `"body":ID|null,"message":LINE}`; a result that holds has only `index`, `name`, `label`, `holds`,
    /// one the run did not reach `"holds":false,"notReached":true`.
    public func jsonText(file: String) -> String {
        var out = JSONLineBuffer()
        out.append("{\"index\":")
        out.append(integer: index)
        out.append(",\"name\":")
        out.append(optionalString: name)
        out.append(",\"label\":")
        out.append(string: label)
        out.append(",\"holds\":")
        out.append(holds ? "true" : "false")
        if notReached { out.append(",\"notReached\":true") }
        if let failure, let line = line(file: file) {
            out.append(",\"step\":")
            out.append(integer: failure.step)
            out.append(",\"t\":")
            out.append(number: failure.time)
            out.append(",\"body\":")
            out.append(optionalString: failure.bodyID)
            out.append(",\"message\":")
            out.append(string: line)
        }
        out.append("}")
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
