/// Escaping for text placed in SVG, HTML and inline JSON.
enum Markup {
    /// `text` safe inside XML or HTML text and attribute values (either quote).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            // XML 1.0 allows no other C0 controls than tab, newline and return, even escaped.
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            // Nor U+FFFE and U+FFFF: a document holding one is not well-formed.
            case _ where !isXMLCharacter(scalar): out += "\u{FFFD}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Whether XML 1.0 allows `scalar` in a document at all (its `Char` production: tab,
    /// newline, return, U+0020–U+D7FF, U+E000–U+FFFD, U+10000–U+10FFFF). Swift scalars
    /// are never surrogates, so what remains forbidden is the other C0 controls and U+FFFE, U+FFFF.
    static func isXMLCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: return true
        case 0x20...0xFFFD: return true
        case 0x10000...: return true
        default: return false
        }
    }

    /// Appends `text` as a JSON string that is also safe inside an HTML `<script>`
    /// element: `<`, `>` and `&` are written as `\u003c`, `\u003e`, `\u0026`, so no id
    /// can close the element (`</script>`) or open a comment, and U+2028/U+2029 are
    /// escaped for old JavaScript parsers, U+FFFE and U+FFFF (noncharacters an HTML parser
    /// flags) as `\ufffe`, `\uffff`, keeping their value.
    static func appendScriptJSONString(_ text: String, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": bytes.append(contentsOf: #"\""#.utf8)
            case "\\": bytes.append(contentsOf: #"\\"#.utf8)
            case "\n": bytes.append(contentsOf: #"\n"#.utf8)
            case "\r": bytes.append(contentsOf: #"\r"#.utf8)
            case "\t": bytes.append(contentsOf: #"\t"#.utf8)
            case "<", ">", "&", "\u{2028}", "\u{2029}", "\u{FFFE}", "\u{FFFF}":
                bytes.append(contentsOf: unicodeEscape(scalar.value).utf8)
            case _ where scalar.value < 0x20:
                bytes.append(contentsOf: unicodeEscape(scalar.value).utf8)
            default:
                bytes.append(contentsOf: String(scalar).utf8)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
