/// One reading of a tilt recording: the device-frame gravity reading at a time.
///
/// `reading` is the (X, Y) acceleration in g in Apple's CoreMotion convention:
/// x to the device's right, y to its top, pointing the way gravity pulls (a device
/// held upright in portrait reads about (0, −1)). z is dropped: the world is 2D.
public struct TiltSample: Sendable, Equatable {
    /// Seconds from the start of the recording.
    public var t: Double
    /// Device-frame (X, Y) in g, CoreMotion convention.
    public var reading: Vec2

    /// Creates a sample: `t` in seconds, `reading` in g in the CoreMotion device frame.
    public init(t: Double, reading: Vec2) {
        self.t = t
        self.reading = reading
    }
}
