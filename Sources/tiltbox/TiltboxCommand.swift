import ArgumentParser
import Tiltbox

@main
struct TiltboxCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tiltbox", abstract: "Fixed-step 2D crate physics on Chipmunk2D.")
}
