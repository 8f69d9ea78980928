import ArgumentParser
@_spi(Tools) import Tiltbox

extension Orientation: ExpressibleByArgument {}
extension Interpolation: ExpressibleByArgument {}
extension SensorConvention: ExpressibleByArgument {}

/// Options shaping how a tilt input is read: shared by `run`, `verify` and `validate`
/// (through `TiltOptions`) and by `tilt`, whose file is its argument.
struct TiltShapeOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "How the device was held: portrait, portraitUpsideDown, landscapeLeft, landscapeRight. Default: the scenario's, else portrait.",
            valueName: "O"))
    var orientation: Orientation?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Between recorded samples: hold (the latest sample, the default) or linear.", valueName: "MODE"))
    var interpolate: Interpolation?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Sign convention of a Sensor Logger export (ios or android); overrides Metadata.csv.", valueName: "C"))
    var convention: SensorConvention?

    @Option(
        name: .long, parsing: .unconditional,
        help: ArgumentHelp(
            "World units per 1 g. Default: the scenario's tilt.g, else the length of world.gravity (980 for tiltbox tilt).",
            valueName: "G"))
    var g: Double?

    func validate() throws {
        if let g { try OptionChecks.g(g) }
    }
}

/// Options choosing and reading the gravity input, shared by `run`, `verify` and `validate`.
struct TiltOptions: ParsableArguments {
    @Option(
        name: .long,
        help: ArgumentHelp(
            "Gravity input: a \(TiltFormat.helpList) (file, folder or zip); or, live, '-' (a Tiltbox CSV streamed on standard input) or phyphox://HOST[:PORT] (a phone's phyphox remote access, port 8080 by default). Overrides the scenario's 'tilt'.",
            valueName: "FILE"))
    var tilt: String?

    @OptionGroup var shape: TiltShapeOptions

    var orientation: Orientation? { shape.orientation }
    var interpolate: Interpolation? { shape.interpolate }
    var convention: SensorConvention? { shape.convention }
    var g: Double? { shape.g }

    /// The live source `--tilt` names (`-` or `phyphox://HOST[:PORT]`), `nil` for a file.
    /// - Throws: `InputError` for a `phyphox://` URL that does not parse (exit 2).
    func liveInput() throws -> LiveTiltInput? { try LiveTiltInput.parse(tilt) }

    /// Whether `--tilt` names a live source rather than a file (`liveInput()` tells which).
    var isLive: Bool { tilt == "-" || tilt?.lowercased().hasPrefix("phyphox://") == true }

    /// The gravity input of a run; a live source is not a file (`file` is `nil`, the run
    /// gets its track from `LiveTiltRecording`).
    var gravityInput: GravityInput {
        GravityInput(
            file: isLive ? nil : tilt, orientation: orientation, g: g, interpolation: interpolate ?? .hold,
            convention: convention)
    }

    /// Refuses, as a usage error, the options that only shape a tilt input when there is
    /// none (no `--tilt` and no `tilt` in the scenario). `keepingOrientationAndG`: the
    /// live view's arrow keys make a tilt input of their own in that orientation and g.
    func refuseWithoutTiltInput(scenario: Scenario, keepingOrientationAndG: Bool = false) throws {
        guard tilt == nil, scenario.tilt == nil else { return }
        var given: [String] = []
        if !keepingOrientationAndG, orientation != nil { given.append("--orientation") }
        if interpolate != nil { given.append("--interpolate") }
        if convention != nil { given.append("--convention") }
        if !keepingOrientationAndG, g != nil { given.append("--g") }
        guard let first = given.first else { return }
        let names =
            given.count == 1 ? first : given.dropLast().joined(separator: ", ") + " and " + given[given.count - 1]
        throw ValidationError(
            "\(names) \(given.count == 1 ? "has" : "have") no effect without a tilt input: give --tilt FILE, or a scenario with a 'tilt' key"
        )
    }
}
