extension TraceHeader.Source {
    /// The source of a run of `scenario`, read from `scenarioPath` (`nil`: built in),
    /// with the gravity input `input` that loaded `tilt` (`nil`: constant
    /// `world.gravity`). Paths are as the user gave them; files are hashed now.
    public static func describing(scenarioPath: String?, scenario: Scenario, input: GravityInput,
                                  tilt: LoadedTilt?) -> TraceHeader.Source {
        var source = TraceHeader.Source(scenario: scenarioPath, scenarioSHA256: scenarioPath.flatMap(SHA256.hex(ofFileAt:)))
        guard let tilt, let tiltPath = input.file ?? scenario.tilt?.file else { return source }
        source.tilt = tiltPath
        // A folder's recording, or a zip: hash the file given when it is one, else the file read.
        source.tiltSHA256 = SHA256.hex(ofFileAt: tiltPath) ?? SHA256.hex(ofFileAt: tilt.source)
        source.tiltFormat = tilt.format.rawValue
        source.orientation = input.effectiveOrientation(for: scenario)
        source.interpolate = input.interpolation
        source.g = input.effectiveG(for: scenario)
        source.convention = tilt.convention
        return source
    }
}
