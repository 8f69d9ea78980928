/// The kinds of tilt input Tiltbox reads (docs/formats.md §2), and each one's
/// recogniser: everything that tells one format from another is here, so a new format is
/// a new case whose switches the compiler then asks for (the loader, `validate`,
/// `tilt`, the fuzz harness and the help strings all read these).
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

    // MARK: - Recognising

    /// How a file of the format is written: one JSON document, or a CSV table told by its header.
    public enum Container: Sendable {
        /// One JSON document (found by a `.json` name or a first `{`).
        case jsonDocument
        /// A delimited text table whose first line is a header.
        case csvTable
    }

    /// How the format's files are written.
    public var container: Container {
        switch self {
        case .keyframes: return .jsonDocument
        case .tiltboxCSV, .phyphox, .sensorLogger: return .csvTable
        }
    }

    /// The container of a file named `name` holding `data`: a JSON document when the
    /// name ends in `.json` or the first byte that is not white space is `{`, else a CSV table.
    static func container(name: String, data: some Collection<UInt8>) -> Container {
        if name.lowercased().hasSuffix(".json") { return .jsonDocument }
        let isSpace = { (byte: UInt8) in byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
        return data.first(where: { !isSpace($0) }) == UInt8(ascii: "{") ? .jsonDocument : .csvTable
    }

    /// The layout of a CSV table whose header is `header` (`cells`: its cells lowercased,
    /// `²` as `^2`) when it is this format's, `nil` when it is not (and for JSON formats).
    /// - Throws: a located `InputError` for a header of this format that cannot work
    ///   (an export without gravity in it, a missing column).
    func csvLayout(_ header: DelimitedText.Line, cells: [String], file: String, fileName: String)
        throws(InputError) -> TiltCSVLayout?
    {
        func fail(_ reason: String) -> InputError { InputError(file: file, line: header.number, reason: reason) }
        func column(_ name: String, shownAs shown: String) throws(InputError) -> Int {
            guard let index = cells.firstIndex(of: name) else { throw fail("missing column '\(shown)'") }
            return index
        }
        switch self {
        case .keyframes:
            return nil
        case .tiltboxCSV:
            guard cells == ["t", "x", "y"] || cells == ["t", "x", "y", "z"] else { return nil }
            return TiltCSVLayout(format: self, time: 0, x: 1, y: 2, names: header.cells)
        case .phyphox:
            guard cells.first == "time (s)" else { return nil }
            if cells.contains(where: { $0.hasPrefix("linear acceleration") }) {
                throw fail(
                    "phyphox Linear Acceleration export has no gravity in it; "
                        + "record with phyphox's \"Acceleration with g\" instead")
            }
            return TiltCSVLayout(
                format: self, time: 0,
                x: try column("acceleration x (m/s^2)", shownAs: "Acceleration x (m/s^2)"),
                y: try column("acceleration y (m/s^2)", shownAs: "Acceleration y (m/s^2)"),
                names: header.cells)
        case .sensorLogger:
            guard cells.contains("seconds_elapsed") else { return nil }
            if fileName.lowercased() == "accelerometer.csv" {
                throw fail(
                    "Sensor Logger Accelerometer.csv has no gravity in it; "
                        + "use Gravity.csv or TotalAcceleration.csv from the same export")
            }
            return TiltCSVLayout(
                format: self, time: try column("seconds_elapsed", shownAs: "seconds_elapsed"),
                x: try column("x", shownAs: "x"), y: try column("y", shownAs: "y"), names: header.cells)
        }
    }

    /// What the format's CSV header looks like, for the message when no header matches
    /// (`nil` for JSON formats).
    var headerExpectation: String? {
        switch self {
        case .tiltboxCSV: return "t,x,y or t,x,y,z"
        case .keyframes: return nil
        case .phyphox: return "a phyphox \"Acceleration with g\" export"
        case .sensorLogger: return "a Sensor Logger Gravity.csv"
        }
    }

    /// The names (lowercased, best first) of the format's recording in an export folder or zip.
    var recordingFileNames: [String] {
        switch self {
        case .tiltboxCSV, .keyframes: return []
        case .phyphox: return ["raw data.csv"]
        case .sensorLogger: return ["gravity.csv", "totalacceleration.csv"]
        }
    }

    /// How messages name the format's recordings in an export (`nil`: not an export).
    var recordingDescription: String? {
        switch self {
        case .tiltboxCSV, .keyframes: return nil
        case .phyphox: return "phyphox's Raw Data.csv"
        case .sensorLogger: return "Sensor Logger's Gravity.csv or TotalAcceleration.csv"
        }
    }

    /// Where a format's sign convention comes from.
    enum SignSource {
        /// Readings already in g in CoreMotion's convention: none applies.
        case inG
        /// Always this convention.
        case fixed(SensorConvention)
        /// `--convention`, else the export's `Metadata.csv`.
        case metadata
    }

    /// Where the format's sign convention comes from.
    var signSource: SignSource {
        switch self {
        case .tiltboxCSV, .keyframes: return .inG
        case .phyphox: return .fixed(.android)
        case .sensorLogger: return .metadata
        }
    }

    /// What one entry of the format is called, as `validate` counts them: keyframes or samples.
    var entryNoun: String {
        switch self {
        case .keyframes: return "keyframes"
        case .tiltboxCSV, .phyphox, .sensorLogger: return "samples"
        }
    }

    // MARK: - Naming

    /// How help strings name the format: a phone app's name for an export.
    var helpName: String {
        switch self {
        case .tiltboxCSV: return "Tiltbox CSV"
        case .keyframes: return "keyframes JSON"
        case .phyphox: return "phyphox"
        case .sensorLogger: return "Sensor Logger"
        }
    }

    /// The formats as the help strings list them: `Tiltbox CSV, keyframes JSON, phyphox or Sensor Logger export`.
    public static var helpList: String {
        let own = allCases.filter { $0.recordingDescription == nil }.map(\.helpName)
        let exports = allCases.filter { $0.recordingDescription != nil }.map(\.helpName)
        return (own + (exports.isEmpty ? [] : [exports.joined(separator: " or ") + " export"])).joined(separator: ", ")
    }

    // MARK: - Fuzzing

    /// The name of the format's fuzz target (`make fuzz`; its seeds are in `Fuzz/corpus/<name>`).
    var fuzzTargetName: String {
        switch self {
        case .tiltboxCSV: return "tilt-csv"
        case .keyframes: return "keyframes"
        case .phyphox: return "phyphox"
        case .sensorLogger: return "sensor-logger"
        }
    }

    /// The file name a fuzz input of the format is parsed under, and the sign convention
    /// given (an in-memory Sensor Logger file has no `Metadata.csv` beside it).
    var fuzzInput: (name: String, convention: SensorConvention?) {
        switch self {
        case .tiltboxCSV, .phyphox: return ("fuzz.csv", nil)
        case .keyframes: return ("fuzz.json", nil)
        case .sensorLogger: return ("Gravity.csv", .android)
        }
    }
}
