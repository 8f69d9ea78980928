import Testing

@_spi(Tools) @testable import Tiltbox

/// The syntax error `text` produces, or `nil` when it parses.
private func syntaxError(_ text: String) -> JSONSyntaxError? {
    do {
        _ = try JSONParser.parse(text)
        return nil
    } catch {
        return error
    }
}

@Suite struct JSONParserTests {
    @Test func nestedValuesKnowTheirLocations() throws {
        let text = "{\n  \"a\": [1,\n    {\"b\": true}],\n\t\"c\": null\n}"
        let root = try JSONParser.parse(text)
        #expect(root.location == SourceLocation(line: 1, column: 1))
        let a = try #require(root["a"])
        #expect(a.location == SourceLocation(line: 2, column: 8))
        #expect(a.keyLocation == SourceLocation(line: 2, column: 3))
        let elements = try #require(a.arrayValue)
        #expect(elements[0].location == SourceLocation(line: 2, column: 9))
        #expect(elements[1].location == SourceLocation(line: 3, column: 5))
        let b = try #require(elements[1]["b"])
        #expect(b.location == SourceLocation(line: 3, column: 11))
        #expect(b.keyLocation == SourceLocation(line: 3, column: 6))
        let c = try #require(root["c"])
        #expect(c.location == SourceLocation(line: 4, column: 7))
        #expect(elements[0].keyLocation == nil)
    }

    @Test func membersKeepSourceOrder() throws {
        let root = try JSONParser.parse(#"{"z": 1, "a": 2, "m": 3}"#)
        #expect(root.objectMembers?.map(\.key) == ["z", "a", "m"])
    }

    @Test(arguments: [
        ("{\"a\": 1,\n \"b\" 2}", 2, 6, "expected ':' after a key"),
        ("[1, 2,]", 1, 7, "expected a value, found ']'"),
        ("{\"a\": tru}", 1, 7, "expected 'true'"),
        ("\n\n   01", 3, 5, "leading zeros"),
        ("[1] x", 1, 5, "unexpected text after the JSON value"),
        ("\"abc", 1, 5, "unterminated string"),
        ("\"a\tb\"", 1, 3, "control character"),
        ("[1.]", 1, 4, "expected a digit after '.'"),
        ("[\"\\x\"]", 1, 4, "invalid escape '\\x'"),
        ("", 1, 1, "expected a value, found end of file"),
    ])
    func syntaxErrorsNameLineAndColumn(text: String, line: Int, column: Int, reason: String) throws {
        let error = try #require(syntaxError(text))
        #expect(error.location == SourceLocation(line: line, column: column), "\(error)")
        #expect(error.reason.contains(reason), "\(error)")
    }

    @Test func escapesDecode() throws {
        let node = try JSONParser.parse(#""q\"b\\s\/ \b\f\n\r\t \u00e9 \u20AC""#)
        #expect(node.stringValue == "q\"b\\s/ \u{08}\u{0C}\n\r\t é €")
    }

    @Test func surrogatePairsDecodeToOneScalar() throws {
        let node = try JSONParser.parse(#"["\ud83d\ude00", "\uD834\uDD1E"]"#)
        #expect(node.arrayValue?.map(\.stringValue) == ["😀", "𝄞"])
    }

    @Test(arguments: [#""\ud83d""#, #""\ude00""#, #""\ud83d\u0041""#, #""\ud83dx""#])
    func unpairedSurrogatesAreErrors(text: String) throws {
        let error = try #require(syntaxError(text))
        #expect(error.reason.contains("surrogate"))
    }

    @Test func rawUTF8PassesThrough() throws {
        #expect(try JSONParser.parse("\"añ😀\"").stringValue == "añ😀")
    }

    @Test func numbersRoundTripBitForBit() throws {
        var values: [Double] = [
            0, -0.0, 1, -1, 0.1, 0.2, 0.30000000000000004, 1.0 / 3, 2.0 / 3, .pi, -.pi, 2.718281828459045,
            1e23, 8.41e21, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, 2.2250738585072014e-308,
            Double(bitPattern: 0x000F_FFFF_FFFF_FFFF), // the largest subnormal
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude, 9007199254740994,
            123456789.123456789, 1e-7, 1.7976931348623157e308, 0.008333333333333333,
            -980, 980.0000000000001, 1e16, 1e15 + 0.3,
        ]
        // Plus bit patterns from a written-out SplitMix64 with a fixed seed.
        var state: UInt64 = 0x5EED_0F_7117B0C5
        while values.count < 2_000 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            let value = Double(bitPattern: z)
            if value.isFinite { values.append(value) }
        }
        for value in values {
            let text = value.description
            let parsed = try #require(try JSONParser.parse(text).numberValue, "\(text)")
            #expect(parsed.bitPattern == value.bitPattern, "\(text) read back as \(parsed)")
            // And as written to traces (no trailing ".0").
            let short = NumberFormat.shortest(value)
            #expect(try JSONParser.parse(short).numberValue?.bitPattern == value.bitPattern, "\(short)")
        }
    }

    @Test func longNumbersAreCorrectlyRounded() throws {
        // Longer than the parser's 64-byte stack buffer.
        let text = "0." + String(repeating: "0", count: 80) + "1"
        #expect(try JSONParser.parse(text).numberValue == 1e-81)
    }

    @Test func overflowingNumberParsesToInfinity() throws {
        // JSON has no inf literal, but 1e999 overflows; the scenario loader must reject it.
        #expect(try JSONParser.parse("1e999").numberValue == .infinity)
        #expect(try JSONParser.parse("-1e999").numberValue == -.infinity)
    }

    @Test func duplicateKeysAreRejectedAtTheSecondKey() throws {
        let error = try #require(syntaxError("{\"a\": 1,\n  \"a\": 2}"))
        #expect(error.location == SourceLocation(line: 2, column: 3))
        #expect(error.reason == "duplicate key \"a\"")
    }

    @Test func nestingIsCappedAtMaxDepth() throws {
        let depth = JSONParser.maxDepth
        let deepest = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        #expect(syntaxError(deepest) == nil)
        let tooDeep = String(repeating: "[", count: depth + 1) + String(repeating: "]", count: depth + 1)
        let error = try #require(syntaxError(tooDeep))
        #expect(error.location == SourceLocation(line: 1, column: depth + 1))
        #expect(error.reason.contains("nesting deeper than \(depth)"))
        // Hostile depth fails the same way instead of exhausting the stack.
        let hostile = String(repeating: "{\"a\":", count: 100_000)
        #expect(syntaxError(hostile)?.reason.contains("nesting deeper") == true)
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let node = try JSONParser.parse("\u{FEFF}{\"a\": 1}")
        #expect(node["a"]?.numberValue == 1)
    }
}
