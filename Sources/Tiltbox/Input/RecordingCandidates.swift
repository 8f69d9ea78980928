/// Picks the tilt recording out of the files of an export folder or zip.
///
/// phyphox's `Raw Data.csv` comes first, then Sensor Logger's `Gravity.csv` (gravity
/// alone, the cleanest signal), then `TotalAcceleration.csv`; among equals the
/// shallowest, then alphabetically first path wins, so the choice is repeatable.
enum RecordingCandidates {
    enum Choice: Equatable {
        case found(String)
        /// Only Sensor Logger's `Accelerometer.csv`, which has no gravity in it.
        case accelerometerOnly(String)
        case none
    }

    /// The recordings' file names, lowercased, best first (`TiltFormat.recordingFileNames`).
    private static let ranked = TiltFormat.allCases.flatMap(\.recordingFileNames)

    /// `paths` are `/`-separated relative paths.
    static func choose(from paths: [String]) -> Choice {
        let usable = paths.filter { !isSystemJunk($0) }
        let best = usable.compactMap { path -> (rank: Int, depth: Int, path: String)? in
            guard let rank = ranked.firstIndex(of: fileName(path).lowercased()) else { return nil }
            return (rank, path.split(separator: "/").count, path)
        }.min { ($0.rank, $0.depth, $0.path) < ($1.rank, $1.depth, $1.path) }
        if let best { return .found(best.path) }
        if let accelerometer = usable.sorted().first(where: { fileName($0).lowercased() == "accelerometer.csv" }) {
            return .accelerometerOnly(accelerometer)
        }
        return .none
    }

    /// The path of `Metadata.csv` in the same folder as `path`.
    static func metadataPath(besides path: String) -> String {
        let folder = path.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return folder.isEmpty ? "Metadata.csv" : folder + "/Metadata.csv"
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }

    /// macOS's resource-fork copies (`__MACOSX/`, `._name`) that zips made by Finder carry.
    private static func isSystemJunk(_ path: String) -> Bool {
        path.hasPrefix("__MACOSX/") || path.contains("/__MACOSX/") || fileName(path).hasPrefix("._")
    }

    static let expectation =
        "expected " + TiltFormat.allCases.compactMap(\.recordingDescription).joined(separator: " or ")
    static let accelerometerReason =
        "has only Sensor Logger's Accelerometer.csv, which has no gravity in it; export Gravity or TotalAcceleration too"
}
