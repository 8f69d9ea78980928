/// The kinds of tilt input Tiltbox reads (docs/formats.md §2).
public enum TiltFormat: String, Sendable, CaseIterable {
    /// `t,x,y[,z]` in g, CoreMotion device frame.
    case tiltboxCSV
    /// `tiltbox-tilt/1` keyframes JSON.
    case keyframes
    /// phyphox "Acceleration with g" export (`Raw Data.csv`).
    case phyphox
    /// Sensor Logger export (`Gravity.csv` or `TotalAcceleration.csv`).
    case sensorLogger

    /// A name for people, as `tiltbox validate` prints it.
    public var displayName: String {
        switch self {
        case .tiltboxCSV: return "Tiltbox CSV"
        case .keyframes: return "tiltbox-tilt/1 keyframes"
        case .phyphox: return "phyphox Acceleration with g"
        case .sensorLogger: return "Sensor Logger"
        }
    }
}
