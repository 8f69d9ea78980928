/// The version of Tiltbox: what `tiltbox --version` prints and trace headers record.
public enum TiltboxVersion {
    public static let current = "0.13.0"
}
