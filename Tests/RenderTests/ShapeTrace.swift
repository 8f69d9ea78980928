import Foundation

@_spi(Tools) @testable import Tiltbox

/// A hand-written two-record trace in a 200×100 world with one body of each shape kind
/// and type, and a few joints: the numbers the drawings must show are worked out from
/// these by the tests' own formulas.
enum ShapeTrace {
    static let ids = ["ball", "wedge", "plank", "rod", "crate"]
    static let header = #"""
        {"format":"tiltbox-trace/1","scenario":"shapes","engine":"chipmunk 7.0.3","spatialIndex":"bbtree","dt":1,"every":1,"fields":["x","y","angle","vx","vy","w"],"bodies":["ball","wedge","plank","rod","crate"],"world":{"size":[200,100]},"segments":[{"from":[0,0],"to":[200,0],"radius":1}],"types":["dynamic","dynamic","kinematic","static","dynamic"],"shapes":[[{"circle":{"radius":10,"offset":[5,0]}}],[{"polygon":{"vertices":[[-20,-10],[20,-10],[0,10]],"radius":0}}],[{"box":{"size":[40,6],"radius":2}}],[{"segment":{"from":[-30,0],"to":[30,0],"radius":3}}],[{"box":{"size":[10,10],"radius":0}}]],"joints":[{"kind":"pivot","a":"ball","b":"static","anchorA":[0,0],"anchorB":[50,95]},{"kind":"pin","a":"wedge","b":"crate","anchorA":[0,5],"anchorB":[0,0]},{"kind":"groove","a":"plank","b":"ball","anchorA":[-15,0],"anchorB":[5,0],"groove":[[-15,0],[15,0]]},{"kind":"rotaryLimit","a":"wedge","b":"static","anchorA":[0,0],"anchorB":[0,0]},{"kind":"gear","a":"ball","b":"crate","anchorA":[0,0],"anchorB":[0,0]}]}
        """#
    /// (x, y, angle) of each body in the last record (t = 1).
    static let last: [(x: Double, y: Double, angle: Double)] = [
        (50, 60, Double.pi / 2), (120, 30, 0.3), (100, 85, 0.1), (160, 60, 0), (20, 20, 0.2),
    ]

    static var text: String {
        let first =
            #"{"step":0,"t":0,"g":[0,-10],"s":[[50,70,0,0,0,0],[120,30,0,0,0,0],[90,85,0,10,0,0],[160,60,0,0,0,0],[20,20,0,0,0,0]]}"#
        let states = last.map {
            "[\(NumberFormat.shortest($0.x)),\(NumberFormat.shortest($0.y)),\(NumberFormat.shortest($0.angle)),0,0,0]"
        }
        let second = #"{"step":1,"t":1,"g":[0,-10],"s":["# + states.joined(separator: ",") + "]}"
        return header + "\n" + first + "\n" + second + "\n"
    }

    static func scene() throws -> RenderScene {
        try RenderScene(
            trace: try TraceReader.parse(Array(text.utf8), file: "shapes.jsonl", verifyDigest: false),
            file: "shapes.jsonl")
    }

    /// A body-local point of body `body` in the world at the last record, by the
    /// rotation formula written out here (not the library's).
    static func world(_ body: Int, _ x: Double, _ y: Double) -> Vec2 {
        let p = last[body]
        return Vec2(p.x + x * cos(p.angle) - y * sin(p.angle), p.y + x * sin(p.angle) + y * cos(p.angle))
    }
}
