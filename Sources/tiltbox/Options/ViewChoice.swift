import ArgumentParser
@_spi(Tools) import Tiltbox

/// `--view` choices.
enum ViewChoice: String, ExpressibleByArgument, CaseIterable {
    case auto, terminal, none

    /// Whether to show the live view: `auto` when standard input and output are
    /// terminals and no output (trace, summary JSON) is asked for.
    func showsTerminal(trace: String?, hasOutputs: Bool, keysFromControllingTerminal: Bool = false) throws -> Bool {
        let isInteractive = Terminal.isInteractive(keysFromControllingTerminal: keysFromControllingTerminal)
        switch self {
        case .none:
            return false
        case .auto:
            return isInteractive && !hasOutputs
        case .terminal:
            guard isInteractive else {
                throw InputError(
                    file: "--view",
                    reason:
                        "the terminal view needs standard input and output to be a terminal (use --view none, or run it in a terminal)"
                )
            }
            guard trace != "-" else {
                throw InputError(
                    file: "--view",
                    reason:
                        "--trace - writes to standard output, which the terminal view draws on; write the trace to a file"
                )
            }
            return true
        }
    }
}
