/// A tilt file read and checked: the gravity track plus what `tiltbox validate` reports.
public struct LoadedTilt: Sendable {
    /// Gravity in world units/s² against simulated time.
    public let track: any GravityTrack
    /// Which of the supported formats the file was read as (detected from its content and name).
    public let format: TiltFormat
    /// The file actually read: the path given, a CSV inside the given folder, or
    /// `archive.zip(entry)` for a CSV inside a zip.
    public let source: String
    /// Samples (recordings) or keyframes (keyframes JSON) in the track.
    public let count: Int
    /// Time of the first and last sample or keyframe, seconds.
    public let startTime: Double
    /// Time of the last sample or keyframe, seconds.
    public let endTime: Double
    /// The sign convention applied (recordings in m/s² only; `nil` for g-unit formats).
    public let convention: SensorConvention?

    /// Creates the result of loading a tilt file; `TiltFile.load` is the usual way to get one.
    public init(
        track: any GravityTrack, format: TiltFormat, source: String, count: Int,
        startTime: Double, endTime: Double, convention: SensorConvention? = nil
    ) {
        self.track = track
        self.format = format
        self.source = source
        self.count = count
        self.startTime = startTime
        self.endTime = endTime
        self.convention = convention
    }

    /// Seconds covered: `endTime − startTime`.
    public var duration: Double { endTime - startTime }

    /// One line for `tiltbox validate`, such as `Sensor Logger (android), 1200 samples, 12.0 s`.
    public var summary: String {
        var text = format.displayName
        if let convention { text += " (\(convention.rawValue))" }
        return text + ", \(count) \(format.entryNoun), \(duration) s"
    }
}
