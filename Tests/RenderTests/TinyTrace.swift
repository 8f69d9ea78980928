import Foundation

@_spi(Tools) @testable import Tiltbox

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// A hand-written three-record trace of two crates in a 100×50 box, small enough to
/// work out every drawn coordinate by hand. The first id needs XML escaping.
enum TinyTrace {
    static let ids = ["a<&>\"b'", "c"]
    static let sizes = [Vec2(10, 4), Vec2(6, 6)]
    /// (t, gravity, per crate (x, y, angle, vx, vy, w)).
    static let records: [(t: Double, g: Vec2, states: [[Double]])] = [
        (0, Vec2(0, -10), [[20, 30, 0, 0, 0, 0], [70, 10, 0, 1, 0, 0]]),
        (0.5, Vec2(3, -4), [[25.125, 20.5, 0.5, 2, -3, 1], [70, 10, 1.2345678, 0, 0, 0.5]]),
        (1, Vec2(-10, 0), [[30, 2.5, Double.pi / 2, 0, 0, 0], [80.004, 3.333, -2.5, 0, 0, 0]]),
    ]

    static var text: String {
        var lines = [
            #"{"format":"tiltbox-trace/1","scenario":"tiny","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":0.5,"every":1,"fields":["x","y","angle","vx","vy","w"],"bodies":["a<&>\"b'","c"],"world":{"size":[100,50]},"segments":[{"from":[0,0],"to":[100,0],"radius":1},{"from":[0,20],"to":[40,0],"radius":0.5}],"sizes":[[10,4],[6,6]],"hz":2,"duration":1,"masses":[2,1]}"#
        ]
        for (step, record) in records.enumerated() {
            let states = record.states.map { "[" + $0.map { NumberFormat.shortest($0) }.joined(separator: ",") + "]" }
            lines.append(
                #"{"step":\#(step),"t":\#(NumberFormat.shortest(record.t)),"g":[\#(NumberFormat.shortest(record.g.x)),\#(NumberFormat.shortest(record.g.y))],"s":[\#(states.joined(separator: ","))]}"#
            )
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func trace() throws -> Trace {
        try TraceReader.parse(Array(text.utf8), file: "tiny.jsonl", verifyDigest: false)
    }

    static func scene() throws -> RenderScene {
        try RenderScene(trace: try trace(), file: "tiny.jsonl")
    }
}

/// The elements of an SVG document, parsed with Foundation's XMLParser, each with the
/// transforms of its ancestors (outermost first).
struct SVGElement {
    var name: String
    var attributes: [String: String]
    var ancestorTransforms: [String]
    var text: String
}

final class SVGCollector: NSObject, XMLParserDelegate {
    var elements: [SVGElement] = []
    private var stack: [(index: Int, transform: String?)] = []
    var error: Error?

    static func parse(_ text: String) throws -> [SVGElement] {
        let collector = SVGCollector()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = collector
        guard parser.parse() else {
            throw parser.parserError ?? collector.error ?? CocoaError(.coderReadCorrupt)
        }
        return collector.elements
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String] = [:]
    ) {
        elements.append(
            SVGElement(
                name: elementName, attributes: attributeDict,
                ancestorTransforms: stack.compactMap(\.transform), text: ""))
        stack.append((elements.count - 1, attributeDict["transform"]))
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        // Every open element collects the text inside it (so a polygon holds its <title>).
        for open in stack { elements[open.index].text += string }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        stack.removeLast()
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        error = parseError
    }
}

/// An SVG transform list of `translate(x y)` and `matrix(a b c d e f)` applied to a point.
struct AffineTransform: Equatable {
    var a = 1.0, b = 0.0, c = 0.0, d = 1.0, e = 0.0, f = 0.0

    func apply(_ p: Vec2) -> Vec2 { Vec2(a * p.x + c * p.y + e, b * p.x + d * p.y + f) }

    /// self ∘ other (other applied first).
    func concatenating(_ o: AffineTransform) -> AffineTransform {
        AffineTransform(
            a: a * o.a + c * o.b, b: b * o.a + d * o.b, c: a * o.c + c * o.d, d: b * o.c + d * o.d,
            e: a * o.e + c * o.f + e, f: b * o.e + d * o.f + f)
    }

    static func parse(_ text: String) -> AffineTransform? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let open = trimmed.firstIndex(of: "("), trimmed.hasSuffix(")") else { return nil }
        let name = trimmed[..<open]
        let numbers = trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)]
            .split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
        switch (name, numbers.count) {
        case ("translate", 2): return AffineTransform(e: numbers[0], f: numbers[1])
        case ("matrix", 6):
            return AffineTransform(
                a: numbers[0], b: numbers[1], c: numbers[2], d: numbers[3], e: numbers[4], f: numbers[5])
        default: return nil
        }
    }

    /// The composition of an element's ancestor transforms, outermost first.
    static func composed(_ list: [String]) -> AffineTransform? {
        var total = AffineTransform()
        for text in list {
            guard let t = parse(text) else { return nil }
            total = total.concatenating(t)
        }
        return total
    }
}

/// `points="x,y x,y ..."` as vectors.
func polygonPoints(_ text: String) -> [Vec2] {
    text.split(separator: " ").compactMap { pair in
        let xy = pair.split(separator: ",").compactMap { Double($0) }
        return xy.count == 2 ? Vec2(xy[0], xy[1]) : nil
    }
}
