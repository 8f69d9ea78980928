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
    /// (the live view).
    public func jsonText(scenario: String, trace: String?, metrics: RunMetrics? = nil) -> String {
        var out = JSONLineBuffer()
        func key(_ name: String) {
            if out.count > 1 { out.append(byte: UInt8(ascii: ",")) }
            out.append(string: name)
            out.append(byte: UInt8(ascii: ":"))
        }
        func finite(_ value: Double) -> Double { value.isFinite ? value : 0 }
        out.append(byte: UInt8(ascii: "{"))
        key("format"); out.append(string: "tiltbox-summary/1")
        key("tiltbox"); out.append(string: TiltboxVersion.current)
        key("scenario"); out.append(string: scenario)
        key("end"); out.append(string: endKind)
        if case .diverged(let step, let divergence) = outcome {
            key("message"); out.append(string: "step \(step): \(divergence)")
        }
        key("steps"); out.append(integer: steps)
        key("totalSteps"); out.append(integer: totalSteps)
        key("simTime"); out.append(number: finite(simulatedTime))
        key("droppedTime"); out.append(number: finite(droppedTime))
        key("frames"); out.append(integer: frames)
        key("records"); out.append(integer: records)
        key("wallSeconds"); out.append(number: finite(wallTime))
        key("stepsPerSecond"); out.append(number: finite(stepsPerSecond))
        key("digest"); out.append(string: digest)
        key("trace")
        if let trace { out.append(string: trace) } else { out.append("null") }
        key("traceBytes")
        if let traceBytes { out.append(integer: traceBytes) } else { out.append("null") }
        key("metrics")
        if let metrics { out.append(raw: metrics.jsonText) } else { out.append("null") }
        out.append("}\n")
        return String(decoding: out.bytes, as: UTF8.self)
    }
}
