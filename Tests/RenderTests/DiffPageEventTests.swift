import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// `diff --html` of traces with event lines (docs/formats.md §8): each record lists only the
/// bodies present then, and the page lays it out over every body of the run, as `render` does.
@Suite struct DiffPageEventTests {
    /// The page's data: the JSON between its `diff-data` script tags.
    static func data(_ page: DiffPage) throws -> [String: Any] {
        let html = String(decoding: page.html(), as: UTF8.self)
        let start = try #require(html.range(of: #"<script type="application/json" id="diff-data">"#))
        let end = try #require(html.range(of: "</script>", range: start.upperBound..<html.endIndex))
        let json = Data(html[start.upperBound..<end.lowerBound].utf8)
        return try #require(try JSONSerialization.jsonObject(with: json) as? [String: Any])
    }

    /// Before, the page read every body of the run from each record, whose `s` lists only the
    /// bodies present: an index out of range (a Swift trap) on any trace with a spawn or a removal.
    @Test func aDiffPageOfATraceWithSpawnsAndRemovalsDrawsOnlyTheBodiesPresent() throws {
        let scene = try TimelineRenderTests.scene()
        #expect(scene.bodies == ["c", "ball#0", "ball#1", "ball#2"])
        let page = try DiffPage(a: scene, b: scene, fileB: "t.jsonl")
        #expect(page.firstDivergence == nil)
        for i in 0..<page.pairCount { #expect(page.largestPositionDifference(at: i) == 0) }
        let data = try Self.data(page)
        let frames = try #require(data["a"] as? [[Any]])
        #expect(frames.count == 11)
        for (index, frame) in frames.enumerated() {
            #expect(frame.count == 3 * scene.bodies.count)
            let record = scene.record(at: index)
            for body in scene.bodies.indices {
                let isNull = frame[3 * body] is NSNull
                #expect(isNull == !scene.isPresent(in: record, body: body), "frame \(index), body \(body)")
            }
        }
        // Worked out by hand: at step 0, c and ball#0; at step 10, ball#1 and ball#2.
        #expect(frames[0].enumerated().filter { $0.element is NSNull }.map(\.offset) == Array(6..<12))
        #expect(frames[10].enumerated().filter { $0.element is NSNull }.map(\.offset) == Array(0..<6))
    }

    @Test func theLargestDifferenceComparesTheBodiesPresentInBothTraces() throws {
        let a = try TimelineRenderTests.scene()
        var b = a
        // At step 10 the record lists ball#1 then ball#2: move ball#1 by (3, 4).
        b.records[10].states[0] += 3
        b.records[10].states[1] += 4
        let page = try DiffPage(a: a, b: b, fileB: "b.jsonl")
        #expect(page.firstDivergence == 10)
        // (x + 3) − x is 3 up to one rounding of x's magnitude.
        #expect(abs(page.largestPositionDifference(at: 10) - 5) < 1e-9)
        #expect(page.largestPositionDifference(at: 9) == 0)
        let diff = try #require(try Self.data(page)["diff"] as? [Double])
        #expect(diff.count == 11 && abs(diff[10] - 5) < 1e-9 && diff.prefix(10).allSatisfy { $0 == 0 })
    }
}
