import Foundation

/// Chooses the gravity track of a run: a tilt file from the command line, else the
/// scenario's `tilt` key, else the scenario's constant `world.gravity`.
///
/// Command-line values (`--orientation`, `--g`) override the scenario's; `g` falls
/// back to the length of `world.gravity` (docs/formats.md §2).
public struct GravityInput: Sendable {
    /// `--tilt FILE`, used instead of the scenario's tilt file.
    public var file: String?
    /// `--orientation`: how the device was held. `nil` means the scenario's `tilt.orientation`, else portrait.
    public var orientation: Orientation?
    /// `--g`: world units per 1 g. `nil` means the scenario's `tilt.g`, else the length of `world.gravity`.
    public var g: Double?
    /// `--interpolate`: how a recording is read between samples. Default `.hold`; keyframe files use their own curves.
    public var interpolation: Interpolation
    /// `--convention`: the sign convention of a Sensor Logger export, overriding its `Metadata.csv`.
    /// `nil` keeps the file's own; phyphox is always Android's and g-unit formats have none.
    public var convention: SensorConvention?

    /// Creates the choice of gravity input. The defaults (all `nil`, `.hold`) mean the scenario decides:
    /// its `tilt` key when it has one, else its constant `world.gravity`.
    public init(
        file: String? = nil, orientation: Orientation? = nil, g: Double? = nil,
        interpolation: Interpolation = .hold, convention: SensorConvention? = nil
    ) {
        self.file = file
        self.orientation = orientation
        self.g = g
        self.interpolation = interpolation
        self.convention = convention
    }

    /// The tilt file read for `scenario`: `--tilt`, else the scenario's `tilt.file`, else `nil`.
    public func path(for scenario: Scenario) -> String? { file ?? scenario.tilt?.file }

    /// The track for `scenario`, and the loaded tilt file when there is one.
    public func resolve(for scenario: Scenario) throws(InputError) -> (track: any GravityTrack, tilt: LoadedTilt?) {
        guard let path = path(for: scenario) else {
            return (ConstantGravity(scenario.world.gravity), nil)
        }
        // The scenario's own tilt file is missing: name the scenario and its `tilt.file`.
        if file == nil, var place = scenario.tilt?.fileDeclaration, !FileManager.default.fileExists(atPath: path) {
            place.reason = "the tilt file \(path) does not exist"
            throw place
        }
        let frame = frame(for: scenario)
        let loaded = try TiltFile.load(
            path: path,
            orientation: frame.orientation,
            g: frame.g,
            interpolation: interpolation,
            convention: convention)
        return (loaded.track, loaded)
    }

    /// The orientation and g applied (`TiltFrame.resolve`): each option, else the scenario's
    /// `tilt`, else portrait and the length of `world.gravity`.
    public func frame(for scenario: Scenario) -> TiltFrame {
        TiltFrame.resolve(orientation: orientation, g: g, for: scenario)
    }

    /// The orientation applied: `frame(for:)`'s.
    public func effectiveOrientation(for scenario: Scenario) -> Orientation { frame(for: scenario).orientation }

    /// World units per g: `frame(for:)`'s.
    public func effectiveG(for scenario: Scenario) -> Double { frame(for: scenario).g }
}
