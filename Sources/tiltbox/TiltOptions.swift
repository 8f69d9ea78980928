import ArgumentParser
import Tiltbox

extension Orientation: ExpressibleByArgument {}
extension Interpolation: ExpressibleByArgument {}
extension SensorConvention: ExpressibleByArgument {}

/// Options choosing and reading the gravity input, shared by `run`, `verify` and `tilt`.
struct TiltOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("Gravity input: a Tiltbox CSV, keyframes JSON, phyphox or Sensor Logger export (file, folder or zip). Overrides the scenario's 'tilt'.", valueName: "FILE"))
    var tilt: String?

    @Option(name: .long, help: ArgumentHelp("How the device was held: portrait, portraitUpsideDown, landscapeLeft, landscapeRight. Default: the scenario's, else portrait.", valueName: "O"))
    var orientation: Orientation?

    @Option(name: .long, help: ArgumentHelp("Between recorded samples: hold (the latest sample) or linear. Default: hold.", valueName: "MODE"))
    var interpolate: Interpolation?

    @Option(name: .long, help: ArgumentHelp("Sign convention of a Sensor Logger export (ios or android); overrides Metadata.csv.", valueName: "C"))
    var convention: SensorConvention?

    @Option(name: .long, help: ArgumentHelp("World units per 1 g. Default: the scenario's tilt.g, else the length of world.gravity.", valueName: "G"))
    var g: Double?

    func validate() throws {
        if let g {
            guard g.isFinite, g > 0, g <= ScenarioLoader.limits.maxGravity else {
                throw ValidationError("--g must be a number in (0, \(Int(ScenarioLoader.limits.maxGravity))]")
            }
        }
    }

    var gravityInput: GravityInput {
        GravityInput(file: tilt, orientation: orientation, g: g, interpolation: interpolate ?? .hold, convention: convention)
    }
}
