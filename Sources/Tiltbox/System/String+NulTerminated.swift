extension String {
    /// The text of a C buffer filled by a call such as `getcwd` or `confstr`: the bytes before
    /// the first NUL (all of them when there is none), decoded as UTF-8 with invalid bytes
    /// replaced. Replaces `String(cString:)` on arrays, which Swift 6 deprecates.
    init(nulTerminated buffer: [CChar]) {
        let bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        self.init(decoding: bytes, as: UTF8.self)
    }
}
