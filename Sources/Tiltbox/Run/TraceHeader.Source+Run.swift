extension TraceHeader.Source {
    /// The source of a run of `scenario`, read from `scenarioPath` (`nil`: built in)
    /// whose bytes had `scenarioSHA256`, with the gravity input `input` that loaded `tilt`
    /// (`nil`: constant `world.gravity`). Paths are as the user gave them; the tilt file is hashed now.
    public static func describing(
        scenarioPath: String?, scenarioSHA256: String?, scenario: Scenario, input: GravityInput,
        tilt: LoadedTilt?
    ) -> TraceHeader.Source {
        var source = TraceHeader.Source(scenario: scenarioPath, scenarioSHA256: scenarioSHA256)
        guard let tilt, let tiltPath = input.file ?? scenario.tilt?.file else { return source }
        source.tilt = tiltPath
        // A folder's recording, or a zip: hash the file given when it is one, else the file read.
        source.tiltSHA256 = SHA256.hex(ofFileAt: tiltPath) ?? SHA256.hex(ofFileAt: tilt.source)
        source.tiltFormat = tilt.format.rawValue
        let frame = input.frame(for: scenario)
        source.orientation = frame.orientation
        source.interpolate = input.interpolation
        source.g = frame.g
        source.convention = tilt.convention
        return source
    }
}
