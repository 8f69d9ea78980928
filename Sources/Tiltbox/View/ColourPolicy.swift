/// Whether output for people may use ANSI colour: never with `NO_COLOR` set to a
/// non-empty value (https://no-color.org) or on a `TERM=dumb` terminal.
@_spi(Tools) public enum ColourPolicy {
    /// True unless the environment asks for no colour.
    public static func allowsColour(environment: [String: String]) -> Bool {
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
        if environment["TERM"] == "dumb" { return false }
        return true
    }
}
