import Testing

@_spi(Tools) @testable import Tiltbox

/// `JSONParser.Options` and the streamed array: what bounded readers (trace headers,
/// batch summaries) rely on.
@Suite struct JSONParserOptionsTests {
    static func parse(_ text: String, _ options: JSONParser.Options) -> Result<JSONNode, JSONSyntaxError> {
        var copy = text
        return copy.withUTF8 { buffer in
            Result { () throws(JSONSyntaxError) in try JSONParser.parse(utf8: buffer, options: options) }
        }
    }

    @Test func valuesOfTopLevelKeysNotKeptReadAsNullButStillNamedAndChecked() throws {
        let kept = Self.parse(
            #"{"a": [1, 2], "junk": [[], {"x": [3]}], "b": "s"}"#, JSONParser.Options(keptTopLevelKeys: ["a", "b"]))
        let root = try kept.get()
        #expect(root["a"]?.arrayValue?.count == 2)
        #expect(root["b"]?.stringValue == "s")
        guard case .null? = root["junk"]?.value else {
            Issue.record("junk kept: \(String(describing: root["junk"]))"); return
        }
        #expect(root.objectMembers?.map(\.key) == ["a", "junk", "b"])
        // Dropped values are still JSON: a syntax error inside one is reported.
        let broken = Self.parse(#"{"a": 1, "junk": [1, }"#, JSONParser.Options(keptTopLevelKeys: ["a"]))
        #expect((try? broken.get()) == nil)
    }

    @Test func nestingAndValueCountsStopAtTheirLimits() {
        let deep = Self.parse(
            String(repeating: "[", count: 5) + String(repeating: "]", count: 5), JSONParser.Options(maxDepth: 4))
        guard case .failure(let error) = deep else { Issue.record("5 levels accepted at a limit of 4"); return }
        #expect(error.reason == "nesting deeper than 4 levels")
        #expect((try? Self.parse("[[[[]]]]", JSONParser.Options(maxDepth: 4)).get()) != nil)
        let many = Self.parse("[1, 2, 3, 4]", JSONParser.Options(maxValues: 4))
        guard case .failure(let count) = many else { Issue.record("5 values accepted at a limit of 4"); return }
        #expect(count.reason == "more than 4 values")
    }

    @Test func aStreamedArraysElementsAreHandedOverOneAtATimeAndNotKept() throws {
        var text = #"{"head": 1, "jobs": [{"i": 0}, {"i": 1}, {"i": 2}], "tail": true}"#
        var seen: [Double] = []
        let root = try text.withUTF8 { buffer throws(JSONSyntaxError) -> JSONNode? in
            try JSONParser.parse(utf8: buffer, options: JSONParser.Options(maxValues: 2), streamingArrayAt: "jobs") {
                i, element in
                seen.append(element["i"]?.numberValue ?? -1)
                return i < 5
            }
        }
        #expect(seen == [0, 1, 2])
        #expect(root?["jobs"]?.arrayValue?.isEmpty == true)
        #expect(root?["tail"] != nil)
        // The reader can stop the parse.
        var count = 0
        let stopped = try text.withUTF8 { buffer throws(JSONSyntaxError) -> JSONNode? in
            try JSONParser.parse(utf8: buffer, streamingArrayAt: "jobs") { _, _ in
                count += 1
                return false
            }
        }
        #expect(stopped == nil && count == 1)
    }
}
