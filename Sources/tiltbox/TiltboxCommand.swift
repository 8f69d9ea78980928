import ArgumentParser
import Foundation
import Tiltbox

/// The `tiltbox` command: dispatch only. Each subcommand lives in its own file.
@main
struct TiltboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltbox",
        abstract: "Fixed-step 2D crate physics on Chipmunk2D: run scenarios, write and compare traces.",
        discussion: """
            Exit status: 0 success; 1 traces differ or the simulation failed; 2 bad input or usage; \
            130 interrupted by Ctrl-C (SIGINT), 143 by SIGTERM.
            Without a subcommand, tiltbox runs the built-in default scenario.
            Shell completion: tiltbox --generate-completion-script bash (or zsh, fish).
            """,
        version: TiltboxVersion.current,
        subcommands: [Run.self, Record.self, Diff.self, Verify.self, Validate.self, Tilt.self, Render.self],
        defaultSubcommand: Run.self)

    /// Parses and runs, mapping every failure to the exit statuses of FORMATS.md §4:
    /// usage and input errors exit 2 (ArgumentParser's own default for usage is 64).
    static func main() {
        // A closed pipe (`tiltbox run --trace - | head`) becomes a write error with a
        // message and exit status 1, not a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let unknown = CommandNames.unknownCommand(in: arguments) {
            Console.error("tiltbox: \(unknown)")
            Console.error("Run 'tiltbox help' for the commands.")
            Foundation.exit(ExitStatus.badInput)
        }
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let error as InputError {
            Console.error(error.description)
            Foundation.exit(ExitStatus.badInput)
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                // One line saying what is wrong and one hint, not ArgumentParser's usage block as well.
                Console.error("tiltbox: \(message(for: error))")
                Console.error("Run 'tiltbox \(CommandNames.subcommand(in: arguments)) --help' for usage.")
                Foundation.exit(ExitStatus.badInput)
            }
            exit(withError: error)
        }
    }
}
