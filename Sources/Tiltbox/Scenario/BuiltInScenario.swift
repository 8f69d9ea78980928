/// The scenario `tiltbox` runs when given none: the classic "book" scene, a 480×320
/// landscape box with a handful of crates, under constant gravity so that it needs no
/// file. `Scenarios/book.json` is the same scene driven by a recorded phone tilt (a
/// test keeps the two equal apart from the `tilt` key).
@_spi(Tools) public enum BuiltInScenario {
    public static let name = "book"

    /// Parses the built-in scenario (it always validates; the error type is that of any scenario).
    /// `overrides` (`--set`) are applied before validation, as `ScenarioLoader.load(path:overrides:)` does.
    public static func load(overrides: [ScenarioOverride] = []) throws(InputError) -> Scenario {
        try loadChecked(overrides: overrides).scenario
    }

    /// `load(overrides:)` with the overlap census its checks took.
    static func loadChecked(overrides: [ScenarioOverride] = []) throws(InputError) -> ScenarioLoader.Checked {
        try ScenarioLoader.parseChecked(
            text: json, file: "<built-in default>", baseDirectory: nil, overrides: overrides)
    }

    public static let json = """
        {
          "format": "tiltbox-scenario/1",
          "name": "book",
          "description": "The classic demo: a 480x320 landscape box with a handful of crates sliding in a landscape box",
          "world": { "size": [480, 320], "gravity": [0, -980] },
          "duration": 10.0,
          "walls": { "box": true, "radius": 1, "friction": 0.8, "elasticity": 0.3 },
          "crates": [
            { "id": "red",    "position": [120, 200], "size": [40, 40], "angle": 0.2 },
            { "id": "green",  "position": [200, 120], "size": [60, 30] },
            { "id": "blue",   "position": [280, 220], "size": [30, 30], "angle": -0.4 },
            { "id": "yellow", "position": [360, 160], "size": [50, 50], "mass": 2.0 },
            { "id": "purple", "position": [420, 260], "size": [24, 36], "angle": 0.7 },
            { "id": "orange", "position": [60, 80],   "size": [36, 24] }
          ]
        }
        """
}
