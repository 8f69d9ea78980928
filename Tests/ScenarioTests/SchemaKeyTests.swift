import Testing

@_spi(Tools) @testable import Tiltbox

/// `"$schema"` at a scenario's top level: allowed for editors (docs/schema/), any string,
/// ignored by the loader.
@Suite struct SchemaKeyTests {
    @Test func schemaKeyIsAcceptedAndChangesNothing() throws {
        let plain = scenarioText(#""crates": [{"id": "a", "position": [100, 100]}]"#)
        let withSchema = plain.replacingOccurrences(
            of: "{\n", with: "{\n  \"$schema\": \"../docs/schema/scenario.schema.json\",\n", options: [], range: nil)
        #expect(withSchema != plain)
        #expect(try loadScenario(withSchema) == loadScenario(plain))
    }

    @Test func schemaKeyMayBeAnyString() throws {
        for value in ["", "https://example.com/scenario.schema.json", "not a URL at all"] {
            #expect(loadError(scenarioText("\"$schema\": \"\(value)\"")) == nil)
        }
    }

    @Test func schemaKeyThatIsNotAStringIsRefusedAtItsPlace() throws {
        let error = try #require(loadError(scenarioText(#""$schema": 3"#)))
        #expect(error.path == "$schema")
        #expect(error.line == 4)
        #expect(error.reason.contains("expected a string"))
    }

    @Test func schemaWithoutDollarIsAnUnknownKeyNamingTheRightOne() throws {
        let error = try #require(loadError(scenarioText(#""schema": "x""#)))
        #expect(error.path == "schema")
        #expect(error.reason.contains("did you mean \"$schema\"?"))
    }
}
