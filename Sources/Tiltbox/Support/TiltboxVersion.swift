/// The version of Tiltbox, as trace headers record it (`"tiltbox":"0.13.0"`).
public enum TiltboxVersion {
    public static let current = "0.13.0"
}
