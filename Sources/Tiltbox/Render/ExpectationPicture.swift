import Foundation

/// The film strip of a failing expectation: panels around the failing step, each with the
/// expectation's bound drawn (the box of `inside`, the circle of `near`, the line of
/// `yAbove`/`yBelow`) and a ring around the body the failure names, where the trace has it.
@_spi(Tools) public struct ExpectationPicture: Sendable {
    /// Seconds before and after the failing step that the panels show (those a run keeps
    /// for its pictures, `ExpectationFrames`).
    public static var offsets: [Double] { ExpectationFrames.offsets }
    /// The colour of the bound and the ring.
    public static let colour = "#d0021b"

    /// The expectation that failed.
    public var expectation: Expectation
    /// Its failure.
    public var failure: ExpectationFailure
    /// The world's size (for `inside: "world"`).
    public var worldSize: Vec2

    /// A picture of `failure` of `expectation` in a world of `worldSize`.
    public init(expectation: Expectation, failure: ExpectationFailure, worldSize: Vec2) {
        self.expectation = expectation
        self.failure = failure
        self.worldSize = worldSize
    }

    /// The records shown: the nearest to each offset from the failing time, each once, in order
    /// (the failing step's record among them).
    public func recordIndices(scene: RenderScene) -> [Int] {
        let times = scene.records.map(\.t)
        guard !times.isEmpty else { return [] }
        var indices: [Int] = []
        for offset in Self.offsets {
            let index = RenderFrameSelection.nearest(failure.time + offset, in: times)
            if !indices.contains(index) { indices.append(index) }
        }
        return indices.sorted()
    }

    /// The SVG document.
    public func svg(scene: RenderScene) -> String {
        let body = failure.bodyID.flatMap { scene.bodies.firstIndex(of: $0) }
        return FilmStrip().svg(scene: scene, recordIndices: recordIndices(scene: scene)) { record in
            var out = bound(scene: scene)
            if let body, let ring = ring(scene: scene, record: record, body: body) { out += ring }
            if record.step == failure.step {
                // The failing step's panel is framed.
                out +=
                    "<rect class=\"failing-step\" data-step=\"\(record.step)\" x=\"\(n(scene.origin.x))\" y=\"\(n(scene.origin.y))\" width=\"\(n(scene.extent.x))\" height=\"\(n(scene.extent.y))\" fill=\"none\" stroke=\"\(Self.colour)\" stroke-width=\"5\" vector-effect=\"non-scaling-stroke\"/>\n"
            }
            return out
        }
    }

    private func n(_ v: Double) -> String { RenderNumber.text(v, decimals: 2) }

    private var style: String {
        "fill=\"none\" stroke=\"\(Self.colour)\" stroke-width=\"1.5\" vector-effect=\"non-scaling-stroke\""
    }

    /// The bound, in world coordinates.
    func bound(scene: RenderScene) -> String {
        guard case .body(_, let condition) = expectation.check else { return "" }
        switch condition {
        case .inside(let region):
            let (low, high) = region == .world ? (Vec2.zero, worldSize) : corners(region)
            return
                "<rect class=\"bound\" x=\"\(n(low.x))\" y=\"\(n(low.y))\" width=\"\(n(high.x - low.x))\" height=\"\(n(high.y - low.y))\" \(style) stroke-dasharray=\"6 3\"/>\n"
        case .near(let point, let within):
            return
                "<circle class=\"bound\" cx=\"\(n(point.x))\" cy=\"\(n(point.y))\" r=\"\(n(within))\" \(style) stroke-dasharray=\"6 3\"/>\n"
        case .yAbove(let y), .yBelow(let y):
            let x0 = scene.origin.x, x1 = scene.origin.x + scene.extent.x
            return
                "<line class=\"bound\" x1=\"\(n(x0))\" y1=\"\(n(y))\" x2=\"\(n(x1))\" y2=\"\(n(y))\" \(style) stroke-dasharray=\"6 3\"/>\n"
        case .speedBelow, .speedAbove, .angle:
            return ""
        }
    }

    private func corners(_ region: ExpectationRegion) -> (Vec2, Vec2) {
        if case .box(let low, let high) = region { return (low, high) }
        return (.zero, worldSize)
    }

    /// A ring around the body where `record` has it.
    func ring(scene: RenderScene, record: TraceRecord, body: Int) -> String? {
        let base = body * BodyStateLayout.count
        guard base + BodyStateLayout.y < record.states.count else { return nil }
        let x = record.states[base + BodyStateLayout.x], y = record.states[base + BodyStateLayout.y]
        let size = body < scene.sizes.count ? scene.sizes[body] : RenderScene.defaultCrateSize
        let r = 0.75 * max(size.x, size.y) + 3
        return
            "<circle class=\"culprit\" data-body=\"\(Markup.escape(scene.bodies[body]))\" cx=\"\(n(x))\" cy=\"\(n(y))\" r=\"\(n(r))\" \(style)/>\n"
    }
}
