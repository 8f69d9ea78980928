import Foundation
import Testing
import Tiltbox

/// The code of the DocC getting-started article (Sources/Tiltbox/Tiltbox.docc/GettingStarted.md),
/// compiled and run here against the public API (a plain `import Tiltbox`), and compared with
/// the article's code block and the README's (its "The library" section) so the three cannot
/// drift apart. Edit them together.
@Suite struct GettingStartedTests {
    static let packageRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let article = packageRoot.appendingPathComponent("Sources/Tiltbox/Tiltbox.docc/GettingStarted.md")

    /// The article's example, verbatim between the markers (less this function's indentation).
    /// It returns the crate it printed, for the test to check.
    static func articleExample() throws -> Body {
        // BEGIN getting-started
        let scenario = try ScenarioLoader.load(path: "Scenarios/crate-stack.json")
        let world = World(scenario: scenario)
        for _ in 0..<120 {
            world.step(dt: scenario.timestep.dt)
        }
        let crate = world.bodies[0]
        print("\(crate.id) is at \(crate.state.position)")
        // END getting-started
        return crate
    }

    /// The lines between the markers of this file, with the function body's indentation removed.
    static func exampleInThisFile() throws -> String {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        guard let begin = lines.firstIndex(where: { $0.hasSuffix("// BEGIN getting-started") }),
            let end = lines.firstIndex(where: { $0.hasSuffix("// END getting-started") }), begin < end
        else { return "" }
        return lines[(begin + 1)..<end].map { String($0.dropFirst(8)) }.joined(separator: "\n")
    }

    /// The first ```swift block of a Markdown file.
    static func firstSwiftBlock(of file: URL) throws -> String {
        let text = try String(contentsOf: file, encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let open = lines.firstIndex(of: "```swift"),
            let close = lines[(open + 1)...].firstIndex(of: "```")
        else { return "" }
        return lines[(open + 1)..<close].joined(separator: "\n")
    }

    @Test func articleShowsExactlyTheCodeThisTestRuns() throws {
        let article = try Self.firstSwiftBlock(of: Self.article)
        let tested = try Self.exampleInThisFile()
        #expect(!tested.isEmpty)
        #expect(article == "import Tiltbox\n\n" + tested)
    }

    @Test func readmeShowsTheSameCodeAsTheArticle() throws {
        let readme = try Self.firstSwiftBlock(of: Self.packageRoot.appendingPathComponent("README.md"))
        #expect(readme == "import Tiltbox\n\n" + (try Self.exampleInThisFile()))
    }

    @Test func articleExampleRunsOneSecondOfTheStandingStack() throws {
        // The example's path is relative to the working directory: `swift test` runs in the package root.
        #expect(FileManager.default.currentDirectoryPath == Self.packageRoot.path)
        let crate = try Self.articleExample()
        let start = try ScenarioLoader.load(path: "Scenarios/crate-stack.json").crates[0]
        #expect(crate.id == start.id)
        let position = crate.state.position
        #expect(position.isFinite)
        // The bottom crate of the stack has landed on the floor and stays under its start column.
        #expect(abs(position.x - start.position.x) < 1)
        #expect(position.y > start.size.y / 2 && position.y < start.position.y + 1)
        #expect(crate.state.velocity.length < 1)
    }
}
