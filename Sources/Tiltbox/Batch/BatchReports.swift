import Foundation

/// The JUnit XML and CSV forms of a batch's results.
@_spi(Tools) public enum BatchReports {
    /// JUnit XML: one `testcase` per job or sweep point; a divergence or a failed run is a
    /// `failure` (its message the first divergence, or the child's last error line), bad
    /// input or a crash an `error`.
    ///
    /// With `perExpectation` (`tiltbox test`), a job whose run reported expectations is one
    /// `testcase` per expectation instead (`classname` the job's name, `name` its label, a
    /// failure its line, one the run did not reach `skipped`), so CI counts and names each check.
    public static func junit(
        _ jobs: [BatchJobResult], suite: String = "tiltbox batch", perExpectation: Bool = false
    ) -> String {
        var failures = 0
        var errors = 0
        var skipped = 0
        var tests = 0
        for job in jobs {
            if perExpectation, !job.expectations.isEmpty {
                tests += job.expectations.count
                failures += job.expectations.reduce(0) { $0 + ($1.line != nil ? 1 : 0) }
                skipped += job.expectations.reduce(0) { $0 + (!$1.holds && $1.line == nil ? 1 : 0) }
                continue
            }
            tests += 1
            if job.status == .diverged || job.status == .failed { failures += 1 }
            if job.status == .error { errors += 1 }
        }
        let time = NumberFormat.shortest(jobs.reduce(0) { $0 + $1.wallSeconds })
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let counts =
            "tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(time)\""
        out += "<testsuites name=\"\(Markup.escape(suite))\" \(counts)>\n"
        out += "  <testsuite name=\"\(Markup.escape(suite))\" \(counts)>\n"
        for job in jobs {
            if perExpectation, !job.expectations.isEmpty {
                out += expectationCases(job)
                continue
            }
            out +=
                "    <testcase classname=\"tiltbox.batch\" name=\"\(Markup.escape(job.name))\" time=\"\(NumberFormat.shortest(job.wallSeconds))\""
            switch job.status {
            case .passed:
                out += "/>\n"
                continue
            case .diverged:
                let message = job.firstDivergence ?? job.message ?? "the traces differ"
                out +=
                    ">\n      <failure type=\"diverged\" message=\"\(Markup.escape(message))\">\(Markup.escape(message))</failure>\n"
            case .failed:
                let message = job.message ?? "the run failed (exit \(job.exit.map(String.init) ?? "?"))"
                out +=
                    ">\n      <failure type=\"failed\" message=\"\(Markup.escape(message))\">\(Markup.escape(message))</failure>\n"
            case .error:
                let kind = job.signal != nil ? "crash" : "input"
                let message = job.message ?? (job.signal.map { "killed by signal \($0)" } ?? "bad input")
                out +=
                    ">\n      <error type=\"\(kind)\" message=\"\(Markup.escape(message))\">\(Markup.escape(message))</error>\n"
            }
            out += "    </testcase>\n"
        }
        out += "  </testsuite>\n</testsuites>\n"
        return out
    }

    /// One `testcase` per expectation of `job`, each taking an equal share of its wall time.
    private static func expectationCases(_ job: BatchJobResult) -> String {
        let share = NumberFormat.shortest(job.wallSeconds / Double(job.expectations.count))
        var out = ""
        for expectation in job.expectations {
            out +=
                "    <testcase classname=\"\(Markup.escape(job.name))\" name=\"\(Markup.escape(expectation.label))\" time=\"\(share)\""
            guard !expectation.holds else {
                out += "/>\n"
                continue
            }
            guard let message = expectation.line else {
                // The run ended before the expectation's window did (a shorter `duration`).
                out +=
                    ">\n      <skipped message=\"not reached: the run ended before its window did\"/>\n    </testcase>\n"
                continue
            }
            out +=
                ">\n      <failure type=\"expectation\" message=\"\(Markup.escape(message))\">\(Markup.escape(message))</failure>\n    </testcase>\n"
        }
        return out
    }

    /// CSV for sweeps: one row per point, `name,status,` then one column per swept path
    /// (in order of first appearance; each cell the value's JSON text), then `steps,digest`, then
    /// the run's metrics `kineticEnergy,maxSpeed,restTime,bounds` (empty when there are none or
    /// for a null; `bounds` as its JSON array).
    public static func csv(_ jobs: [BatchJobResult]) -> String {
        var paths: [String] = []
        for job in jobs {
            for parameter in job.parameters where !paths.contains(parameter.path) { paths.append(parameter.path) }
        }
        var out =
            (["name", "status"] + paths + ["steps", "digest", "kineticEnergy", "maxSpeed", "restTime", "bounds"]).map(
                cell
            ).joined(separator: ",") + "\n"
        for job in jobs {
            var row = [job.name, job.status.rawValue]
            for path in paths { row.append(job.parameters.first(where: { $0.path == path })?.json ?? "") }
            row.append(job.steps.map(String.init) ?? "")
            row.append(job.digest ?? "")
            func number(_ value: Double?) -> String {
                value.flatMap { $0.isFinite ? NumberFormat.shortest($0) : nil } ?? ""
            }
            row.append(number(job.metrics?.kineticEnergy))
            row.append(number(job.metrics?.maxSpeed))
            row.append(number(job.metrics?.restTime))
            row.append(
                job.metrics?.bounds.map { "[" + $0.map { NumberFormat.shortest($0) }.joined(separator: ",") + "]" }
                    ?? "")
            out += row.map(cell).joined(separator: ",") + "\n"
        }
        return out
    }

    /// An RFC 4180 cell: quoted when it holds a comma, quote or line break. A cell a
    /// spreadsheet would take for a formula (starting with `=`, `+`, `-`, `@`, tab or
    /// return, OWASP's list) gets a leading `'`, unless it is a plain number such as `-0.5`.
    static func cell(_ raw: String) -> String {
        var text = raw
        if let first = text.unicodeScalars.first, ["=", "+", "-", "@", "\t", "\r"].contains(first), !isPlainNumber(text)
        {
            text = "'" + text
        }
        guard text.contains(where: { $0 == "," || $0 == "\"" || $0.isNewline }) else { return text }
        return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// `-12`, `+0.5`, `-1e-7`: an optional sign, digits with at most one point, an optional exponent.
    private static func isPlainNumber(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix(while: { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }).count
            bytes = bytes.dropFirst(count)
            return count
        }
        var mantissa = digits()
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+") {
                bytes = bytes.dropFirst()
            }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }
}
