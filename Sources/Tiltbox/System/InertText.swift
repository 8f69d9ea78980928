/// Makes text from a file or the command line safe to echo in a one-line message.
///
/// A key, a crate id, a curve name, a CSV cell or a path can hold a newline (splitting
/// the message over several lines) or an escape sequence (which a terminal would obey:
/// `\e[2J` clears the screen). Every message that echoes such text passes it through
/// `escape`, so what reaches the user is one line of visible characters.
@_spi(Tools) public enum InertText {
    /// `text` with every control character written as a visible escape: `\n`, `\r`,
    /// `\t`, `\e` (ESC), `\xHH` for the other C0 controls and DEL, `\u{HHHH}` for C1
    /// controls, the Unicode line and paragraph separators (U+2028, U+2029) and the
    /// bidirectional controls (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), which
    /// would make a terminal show the rest of the line reordered (`a\u{202E}nosj.b` shown as
    /// `ab.json`). Other characters, backslashes included, are unchanged.
    public static func escape(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case "\u{1B}": out += "\\e"
            default:
                let hex = String(scalar.value, radix: 16, uppercase: true)
                if scalar.value < 0x80 {
                    out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
                } else {
                    out += "\\u{" + hex + "}"
                }
            }
        }
        return out
    }

    /// C0 controls, DEL, C1 controls, the line and paragraph separators, and the
    /// bidirectional marks, embeddings, overrides and isolates.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        let v = scalar.value
        return v < 0x20 || (v >= 0x7F && v <= 0x9F) || v == 0x2028 || v == 0x2029 || isBidiControl(v)
    }

    /// U+061C (Arabic letter mark), U+200E and U+200F (left-to-right and right-to-left marks),
    /// U+202A–U+202E (embeddings, overrides and their pop), U+2066–U+2069 (isolates and their pop).
    static func isBidiControl(_ v: UInt32) -> Bool {
        v == 0x061C || v == 0x200E || v == 0x200F || (v >= 0x202A && v <= 0x202E) || (v >= 0x2066 && v <= 0x2069)
    }
}
