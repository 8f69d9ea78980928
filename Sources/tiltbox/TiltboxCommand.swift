import ArgumentParser
import Foundation
@_spi(Tools) import Tiltbox

/// The `tiltbox` command: dispatch only. Each subcommand lives in its own file.
@main
struct TiltboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tiltbox",
        abstract: "Fixed-step 2D crate physics on Chipmunk2D: run scenarios, write and compare traces.",
        discussion: """
            Exit status: 0 success; 1 traces differ, the simulation failed or output could not be written; \
            2 bad input or usage; 130 interrupted by Ctrl-C (SIGINT), 143 by SIGTERM, 129 by SIGHUP, 131 by SIGQUIT; \
            141 output pipe closed.
            Without a subcommand, tiltbox runs the built-in default scenario.
            Shell completion: tiltbox --generate-completion-script bash (or zsh, fish).
            """,
        version: TiltboxVersion.current,
        subcommands: [
            Run.self, Record.self, Diff.self, Verify.self, Validate.self, Tilt.self, Render.self, Curves.self,
            Batch.self, BatchMerge.self, Test.self,
        ],
        defaultSubcommand: Run.self)

    /// Parses and runs, mapping every failure to the exit statuses of docs/formats.md §7:
    /// usage and input errors exit 2 (ArgumentParser's own default for usage is 64).
    static func main() {
        // A child that `batch` started dies with it, and leaves nothing behind when it does.
        BatchParent.tie()
        atexit { BatchParent.removeScratch() }
        // A write to a closed pipe (`tiltbox run --trace - | head`) then fails with EPIPE,
        // an error value like any other write error, instead of killing the process; the
        // command ends quietly with 141 all the same (see `ExitStatus.afterWriteFailure`).
        signal(SIGPIPE, SIG_IGN)
        let given = Array(CommandLine.arguments.dropFirst())
        if let unknown = CommandNames.unknownCommand(in: given) {
            Foundation.exit(
                ExitStatus.reporting(
                    "tiltbox: \(unknown)", "Run 'tiltbox help' for the commands.",
                    status: ExitStatus.badInput))
        }
        let arguments = OverrideOptions.takeSetOptions(from: given, command: CommandNames.subcommand(in: given))
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch let failure as any OutputFailure {
            Foundation.exit(ExitStatus.afterWriteFailure(failure))
        } catch let error as InputError {
            Foundation.exit(ExitStatus.reporting(error.description, status: ExitStatus.badInput))
        } catch let error as ExitCode {
            Foundation.exit(error.rawValue)
        } catch {
            let code = exitCode(for: error)
            if code == .validationFailure {
                // One line saying what is wrong and one hint, not ArgumentParser's usage block as well.
                Foundation.exit(
                    ExitStatus.reporting(
                        "tiltbox: \(message(for: error))",
                        "Run 'tiltbox \(CommandNames.subcommand(in: arguments)) --help' for usage.",
                        status: ExitStatus.badInput))
            }
            // Help (on standard output) and ArgumentParser's other errors, written through
            // the same throwing path as everything else rather than `exit(withError:)`'s print.
            var text = fullMessage(for: error)
            if code != .success {
                // An error echoes what was typed (`Unexpected argument '…'`): each line made inert.
                text = text.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { InertText.escape(String($0)) }.joined(separator: "\n")
            }
            do {
                if !text.isEmpty { try Console.write(text + "\n", to: code == .success ? .output : .error) }
            } catch {
                Foundation.exit(ExitStatus.afterWriteFailure(error))
            }
            Foundation.exit(code.rawValue)
        }
    }
}
