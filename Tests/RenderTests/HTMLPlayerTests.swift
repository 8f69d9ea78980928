import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

private func page(_ scene: RenderScene, maxBodyFrames: Int = TraceDecimation.defaultMaxBodyFrames) -> String {
    String(decoding: HTMLPlayer(maxBodyFrames: maxBodyFrames).html(scene: scene), as: UTF8.self)
}

/// The JSON inside `<script type="application/json" id="trace-data">`.
private func embeddedData(_ html: String) throws -> [String: Any] {
    let open = try #require(html.range(of: #"<script type="application/json" id="trace-data">"#))
    let close = try #require(html.range(of: "</script>", range: open.upperBound..<html.endIndex))
    let json = html[open.upperBound..<close.lowerBound]
    return try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
}

@Test func htmlPlayerIsSelfContained() throws {
    let html = page(try TinyTrace.scene())
    #expect(html.hasPrefix("<!DOCTYPE html>"))
    for external in ["<link", " src=", "http://", "https://", "@import", "url("] {
        #expect(!html.contains(external), "the page must load nothing: found \(external)")
    }
    #expect(html.contains("<canvas id=\"world\">") && html.contains("<canvas id=\"chart\">"))
    #expect(html.contains("id=\"slider\"") && html.contains("data-speed=\"0.25\"") && html.contains("data-speed=\"4\""))
}

@Test func htmlPlayerEmbedsQuantisedDataAndEscapesIdsForTheScriptElement() throws {
    let scene = try TinyTrace.scene()
    let html = page(scene)
    #expect(!html.contains("a<&>"), "ids are written with \\u003c etc. inside the script element")
    let data = try embeddedData(html)
    #expect(data["bodies"] as? [String] == TinyTrace.ids)
    #expect(data["title"] as? String == "tiny")
    #expect((data["t"] as? [NSNumber])?.map(\.doubleValue) == [0, 0.5, 1])
    #expect(data["energy"] as? String == "kinetic energy")
    let frames = try #require(data["s"] as? [[NSNumber]])
    #expect(frames.count == 3)
    let last = frames[2].map(\.doubleValue)
    // Crate c at t = 1: (80.004, 3.333, −2.5) → 2 decimals for positions, 4 for angles.
    #expect(last[3] == 80 && last[4] == 3.33 && last[5] == -2.5)
    #expect(last[2] == 1.5708, "π/2 to 4 decimals")
    let middle = frames[1].map(\.doubleValue)
    #expect(middle[0] == 25.13 && middle[5] == 1.2346)
    let ke = try #require(data["ke"] as? [NSNumber]).map(\.doubleValue)
    #expect(ke.count == 3 && abs(ke[1] - (scene.kineticEnergy(of: scene.records[1]) ?? 0)) <= 0.0005)
}

@Test func htmlPlayerDecimatesLongTracesKeepingTheLastRecord() throws {
    let scene = try TinyTrace.scene()
    let data = try embeddedData(page(scene, maxBodyFrames: 4))
    #expect((data["t"] as? [NSNumber])?.map(\.doubleValue) == [0, 1])
    #expect(data["stride"] as? Int == 2 && data["records"] as? Int == 3)
}

@Test func anglesAreWrappedIntoOneTurn() {
    #expect(HTMLPlayer.wrapped(0.5 + 4 * .pi).isApproximately(0.5))
    #expect(HTMLPlayer.wrapped(-3 * .pi).isApproximately(.pi))
    #expect(HTMLPlayer.wrapped(.nan) == 0)
}

extension Double {
    fileprivate func isApproximately(_ other: Double) -> Bool { abs(self - other) < 1e-9 }
}

@Test func massesRoundTripThroughTheTraceHeaderAfterTheOtherOptionalKeys() throws {
    let header = TraceHeader(
        scenario: "m", spatialIndex: "bbtree", dt: 0.5, every: 1, bodies: ["a", "b"],
        tilt: "t.csv", masses: [1, 2.5])
    #expect(header.jsonLine.hasSuffix(#""tilt":"t.csv","masses":[1,2.5]}"# + "\n"))
    let trace = try TraceReader.parse(
        Array(
            (header.jsonLine
                + #"{"end":"complete","steps":0,"simTime":0,"droppedTime":0,"digest":"fnv1a64:cbf29ce484222325"}"#
                + "\n").utf8), file: "m.jsonl")
    #expect(trace.header.masses == [1, 2.5])
    #expect(trace.header == header)
    let wrongCount = header.jsonLine.replacingOccurrences(of: "[1,2.5]", with: "[1]")
    #expect(throws: InputError.self) { try TraceReader.parse(Array(wrongCount.utf8), file: "bad.jsonl") }
}
