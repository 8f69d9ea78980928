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
            Exit status: 0 success; 1 traces differ or the simulation failed; 2 bad input or usage; 130 interrupted.
            Without a subcommand, tiltbox runs the built-in default scenario.
            """,
        subcommands: [Run.self, Record.self, Diff.self, Verify.self, Validate.self, Tilt.self, Render.self, Curves.self],
        defaultSubcommand: Run.self)

    /// Parses and runs, mapping every failure to the exit statuses of FORMATS.md §4:
    /// usage and input errors exit 2 (ArgumentParser's own default for usage is 64).
    static func main() {
        // A closed pipe (`tiltbox run --trace - | head`) becomes a write error with a
        // message and exit status 1, not a silent death by SIGPIPE.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let error as InputError {
            Console.error(error.description)
            Foundation.exit(ExitStatus.badInput)
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                Console.error(fullMessage(for: error))
                Console.error("Run 'tiltbox help' for usage.")
                Foundation.exit(ExitStatus.badInput)
            }
            exit(withError: error)
        }
    }
}
