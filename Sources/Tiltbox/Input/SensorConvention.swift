/// The sign convention of a phone's accelerometer reading in m/s² (`--convention`).
///
/// Android reports the reaction to gravity (a device flat on a table reads
/// z ≈ +9.81); iOS reports the pull of gravity (the same device reads z ≈ −9.81 m/s²,
/// −1 g in CoreMotion). Tiltbox works in the CoreMotion convention, in g.
public enum SensorConvention: String, Sendable, CaseIterable {
    case ios
    case android

    /// Standard gravity, m/s² per g.
    public static let standardGravity = 9.80665

    /// One axis of a reading in m/s² converted to g in the CoreMotion convention:
    /// `−v / 9.80665` for Android, `v / 9.80665` for iOS.
    public func toCoreMotionG(_ metresPerSecondSquared: Double) -> Double {
        switch self {
        case .android: return -metresPerSecondSquared / Self.standardGravity
        case .ios: return metresPerSecondSquared / Self.standardGravity
        }
    }
}
