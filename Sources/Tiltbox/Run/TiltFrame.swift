/// How a tilt input's device axes become world gravity: the orientation the device was
/// held in and the world units per 1 g. The one place that decides them (docs/formats.md §2).
public struct TiltFrame: Sendable, Equatable {
    /// How the device was held.
    public var orientation: Orientation
    /// World units per 1 g.
    public var g: Double

    /// Creates a frame from its two values.
    public init(orientation: Orientation, g: Double) {
        self.orientation = orientation
        self.g = g
    }

    /// The world units per g of a tilt file read without a scenario (`tiltbox tilt`,
    /// `tiltbox validate FILE.csv`): the length of the built-in default's gravity.
    public static let standaloneG = 980.0

    /// The frame of a run of `scenario`: each option when given, else the scenario's
    /// `tilt.orientation` and `tilt.g`, else portrait and the length of `world.gravity`.
    public static func resolve(orientation: Orientation?, g: Double?, for scenario: Scenario) -> TiltFrame {
        TiltFrame(
            orientation: orientation ?? scenario.tilt?.orientation ?? .portrait,
            g: g ?? scenario.tilt?.g ?? scenario.world.gravity.length)
    }

    /// The frame of a tilt file read on its own: each option when given, else portrait
    /// and `standaloneG`.
    public static func standalone(orientation: Orientation?, g: Double?) -> TiltFrame {
        TiltFrame(orientation: orientation ?? .portrait, g: g ?? standaloneG)
    }
}
