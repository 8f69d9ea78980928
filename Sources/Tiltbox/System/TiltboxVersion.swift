/// The version of Tiltbox: what `tiltbox --version` prints and trace headers record
/// (`"tiltbox":"0.13.0"`).
public enum TiltboxVersion {
    /// The release number of this build of the library and the CLI.
    public static let current = "0.13.0"
}
