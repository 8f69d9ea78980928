import Testing

@_spi(Tools) @testable import Tiltbox

/// The rules' counters are bounded by what the trace's end line may hold (docs/formats.md §8): a
/// run never writes an end line the readers refuse.
@Suite struct CounterBoundTests {
    /// A rule with `names` counters of `length` characters (each name ends in its index).
    static func text(names: Int, length: Int) -> String {
        let counts = (0..<names).map { #"{"count": "\#(String(repeating: "c", count: length))\#($0)"}"# }
        return RuleLoaderTests.text(
            #"[{"on": "begin", "between": ["ball", "*"], "do": [\#(counts.joined(separator: ","))]}]"#)
    }

    /// 61 names of 16 000 characters (and their index) take 977 576 bytes as written: within the
    /// 983 040 the end line leaves them; a 62nd passes it, and is the one named.
    @Test func countersLoadUpToTheEndLinesBoundAndTheFirstPastItIsNamed() throws {
        let within = try loadScenario(Self.text(names: 61, length: 16_000))
        #expect(within.counters.count == 61)
        let written = within.counters.reduce(0) { $0 + JSONLineBuffer.stringLength($1) + 22 }
        #expect(written <= ScenarioLoader.limits.maxCounterBytes)
        #expect(written + 16_026 > ScenarioLoader.limits.maxCounterBytes)
        #expect(ScenarioLoader.limits.maxCounterBytes + (64 << 10) == TraceStream.maxEndLineBytes)
        do {
            _ = try loadScenario(Self.text(names: 62, length: 16_000))
            Issue.record("62 counters of 16 000 characters loaded")
        } catch {
            #expect(error.path == "rules[0].do[61].count")
            #expect(error.reason.contains("end line") && error.reason.contains("1 MiB"))
        }
    }

    /// The bound counts names as the writer escapes them: quotes and control characters take more.
    @Test func escapedCharactersCountAsTheWriterWritesThem() {
        #expect(JSONLineBuffer.stringLength("ab") == 4)
        #expect(JSONLineBuffer.stringLength("a\"b\\") == 8)
        #expect(JSONLineBuffer.stringLength("\n\u{1}é") == 2 + 2 + 6 + 2)
        var buffer = JSONLineBuffer(capacity: 64)
        buffer.append(string: "\n\u{1}é\"\\\t")
        #expect(buffer.count == JSONLineBuffer.stringLength("\n\u{1}é\"\\\t"))
    }
}
