import Testing

@_spi(Tools) @testable import Tiltbox

/// Text from files is echoed inert: control characters become visible escapes, so an
/// input error is one line that cannot drive a terminal.
@Suite struct InertTextTests {
    @Test(arguments: [
        ("plain", "plain"),
        ("a\nb", #"a\nb"#),
        ("tab\there\r", #"tab\there\r"#),
        ("\u{1B}[2J", #"\e[2J"#),
        ("nul\u{0}bell\u{7}del\u{7F}", #"nul\x00bell\x07del\x7F"#),
        ("c1\u{85}\u{9B}", #"c1\u{85}\u{9B}"#),
        ("line\u{2028}para\u{2029}", #"line\u{2028}para\u{2029}"#),
        ("a\u{202E}nosj.b", #"a\u{202E}nosj.b"#),
        ("\u{202A}\u{202B}\u{202C}\u{202D}", #"\u{202A}\u{202B}\u{202C}\u{202D}"#),
        ("\u{2066}x\u{2067}y\u{2068}z\u{2069}", #"\u{2066}x\u{2067}y\u{2068}z\u{2069}"#),
        ("\u{200E}marks\u{200F}\u{61C}", #"\u{200E}marks\u{200F}\u{61C}"#),
        ("back\\slash, ünïcödé, עברית and 😀 stay", "back\\slash, ünïcödé, עברית and 😀 stay"),
    ])
    func controlCharactersBecomeVisibleEscapes(text: String, shown: String) {
        #expect(InertText.escape(text) == shown)
    }

    @Test func anInputErrorIsOneInertLineWhateverItsParts() {
        let error = InputError(
            file: "dir\n/x.json", line: 3, column: 7, path: "crates[0].\u{1B}[31mkey",
            reason: "unknown key \"\u{1B}[31mkey\"\nsecond line")
        let text = error.description
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        #expect(text == #"dir\n/x.json:3:7: crates[0].\e[31mkey: unknown key "\e[31mkey"\nsecond line"#)
    }
}
