import Foundation

/// Loads gravity input ("tilt") files: the entry point for `tiltbox run --tilt` and
/// `tiltbox validate`.
///
/// The format is found from the path and the contents (docs/formats.md §2):
/// - a `.json` file (or one starting with `{`): `tiltbox-tilt/1` keyframes, in g
///   (device frame, mapped by orientation and scaled by g) or, with `"units": "world"`,
///   already in world units/s² (orientation and g not applied);
/// - a `.zip` file or a folder: a phyphox or Sensor Logger export, whose recording
///   (`Raw Data.csv`, `Gravity.csv` or `TotalAcceleration.csv`, at any depth) is used;
/// - any other file: a CSV recognised by its header (Tiltbox CSV, phyphox, Sensor Logger).
public enum TiltFile {
    /// The largest file (or zip entry) read: 64 MiB, checked from the size before reading.
    public static let maximumFileSize = 64 << 20
    /// The largest keyframes JSON file: 16 MiB (half a million keyframes), like a scenario.
    /// A JSON document costs about 36 times its size once parsed (a located node per
    /// value), where a CSV costs about 4, so JSON gets the smaller cap.
    public static let maximumKeyframeFileSize = 16 << 20

    /// Reads and checks a tilt file and builds its gravity track.
    ///
    /// - Parameters:
    ///   - path: The file, zip or export folder. Errors name it as given.
    ///   - orientation: How the device was held; maps device axes to world axes.
    ///   - g: World units per 1 g (the scenario's `tilt.g`).
    ///   - interpolation: Between recorded samples; keyframe files use their curves instead.
    ///   - convention: Overrides the sign convention of a Sensor Logger export (and
    ///     fills in when it has no `Metadata.csv`). phyphox always uses Android's, and
    ///     Tiltbox CSV and keyframes are in g already, so it does not apply to them.
    /// - Throws: `InputError` naming the file and the line, keyframe or field at fault.
    public static func load(
        path: String, orientation: Orientation = .portrait, g: Double,
        interpolation: Interpolation = .hold, convention: SensorConvention? = nil
    ) throws(InputError) -> LoadedTilt {
        guard g.isFinite else { throw InputError(file: path, reason: "g must be a finite number, got \(g)") }
        let options = Options(orientation: orientation, g: g, interpolation: interpolation, convention: convention)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw InputError(file: path, reason: "no such file")
        }
        if isDirectory.boolValue { return try loadFolder(path, options) }
        if path.lowercased().hasSuffix(".zip") { return try loadZip(path, options) }
        return try loadData(try readFile(path), name: path, options: options) { () throws(InputError) in
            let metadata = RecordingCandidates.metadataPath(besides: path)
            guard FileManager.default.fileExists(atPath: metadata) else { return nil }
            return (metadata, try readFile(metadata))
        }
    }

    // MARK: - Sources

    struct Options {
        var orientation: Orientation
        var g: Double
        var interpolation: Interpolation
        var convention: SensorConvention?
    }

    /// Finds `Metadata.csv` beside a Sensor Logger file: its name for messages and its bytes.
    typealias MetadataLookup = () throws(InputError) -> (name: String, data: Data)?

    /// The files `load(path:...)` reads for `path`: the path itself, and for an export
    /// folder the recording it would choose and the `Metadata.csv` beside that (those
    /// that exist). For checking that no output overwrites them.
    public static func inputFiles(path: String) -> [String] {
        var files = [path]
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else {
            return files
        }
        let (base, relative) = folderFiles(path)
        if case .found(let relative) = RecordingCandidates.choose(from: relative) {
            files.append(base + "/" + relative)
            let metadata = base + "/" + RecordingCandidates.metadataPath(besides: relative)
            if FileManager.default.fileExists(atPath: metadata) { files.append(metadata) }
        }
        return files
    }

    /// The folder without a trailing slash, and the relative paths of the files in it (at any depth).
    private static func folderFiles(_ folder: String) -> (base: String, relative: [String]) {
        let base = folder.hasSuffix("/") ? String(folder.dropLast()) : folder
        let paths = (FileManager.default.enumerator(atPath: base)?.allObjects as? [String] ?? [])
            .filter { relative in
                var isDirectory: ObjCBool = false
                return FileManager.default.fileExists(atPath: base + "/" + relative, isDirectory: &isDirectory)
                    && !isDirectory.boolValue
            }
        return (base, paths)
    }

    private static func loadFolder(_ folder: String, _ options: Options) throws(InputError) -> LoadedTilt {
        let (base, paths) = folderFiles(folder)
        switch RecordingCandidates.choose(from: paths) {
        case .none:
            throw InputError(
                file: folder,
                reason: "no recognised tilt recording in the folder; "
                    + RecordingCandidates.expectation)
        case .accelerometerOnly:
            throw InputError(file: folder, reason: "the folder " + RecordingCandidates.accelerometerReason)
        case .found(let relative):
            let file = base + "/" + relative
            return try loadData(try readFile(file), name: file, options: options) { () throws(InputError) in
                let metadata = base + "/" + RecordingCandidates.metadataPath(besides: relative)
                guard FileManager.default.fileExists(atPath: metadata) else { return nil }
                return (metadata, try readFile(metadata))
            }
        }
    }

    private static func loadZip(_ path: String, _ options: Options) throws(InputError) -> LoadedTilt {
        try checkSize(path)
        let archive = try TiltArchive(path: path)
        switch RecordingCandidates.choose(from: archive.filePaths) {
        case .none:
            throw InputError(
                file: path,
                reason: "no recognised tilt recording in the zip; "
                    + RecordingCandidates.expectation)
        case .accelerometerOnly:
            throw InputError(file: path, reason: "the zip " + RecordingCandidates.accelerometerReason)
        case .found(let entry):
            guard let data = try archive.contents(of: entry) else {
                throw InputError(file: archive.displayName(of: entry), reason: "cannot read from the zip archive")
            }
            return try loadData(data, name: archive.displayName(of: entry), options: options) { () throws(InputError) in
                let metadata = RecordingCandidates.metadataPath(besides: entry)
                guard let data = try archive.contents(of: metadata) else { return nil }
                return (archive.displayName(of: metadata), data)
            }
        }
    }

    /// Parses a tilt file already in memory (a CSV or keyframes JSON, found as `load`
    /// finds it). `name` is used in messages and to recognise `.json` and Sensor Logger
    /// file names; there is no `Metadata.csv` beside in-memory data, so a Sensor Logger
    /// file needs `convention`.
    public static func parse(
        data: Data, name: String, orientation: Orientation = .portrait, g: Double,
        interpolation: Interpolation = .hold, convention: SensorConvention? = nil
    ) throws(InputError) -> LoadedTilt {
        guard g.isFinite else { throw InputError(file: name, reason: "g must be a finite number, got \(g)") }
        guard data.count <= maximumFileSize else {
            throw InputError(
                file: name, reason: "the file is \(data.count) bytes, more than the limit of \(maximumFileSize)")
        }
        let options = Options(orientation: orientation, g: g, interpolation: interpolation, convention: convention)
        return try loadData(data, name: name, options: options) { () throws(InputError) in nil }
    }

    // MARK: - Formats

    private static func loadData(_ data: Data, name: String, options: Options, metadata: MetadataLookup)
        throws(InputError) -> LoadedTilt
    {
        guard data.contains(where: { !Self.isWhitespace($0) }) else {
            throw InputError(file: name, line: 1, reason: "empty file")
        }
        switch TiltFormat.container(name: name, data: data) {
        case .jsonDocument:
            guard data.count <= maximumKeyframeFileSize else {
                throw InputError(
                    file: name,
                    reason: "keyframes file too large (\(data.count) bytes; keyframe files are "
                        + "capped at \(maximumKeyframeFileSize) bytes, 16 MiB)")
            }
            let track = try KeyframeFile.load(data, file: name, orientation: options.orientation, g: options.g)
            return LoadedTilt(
                track: track, format: .keyframes, source: name, count: track.keyframes.count,
                startTime: track.keyframes[0].t, endTime: track.keyframes[track.keyframes.count - 1].t)
        case .csvTable:
            break
        }
        guard let table = try DelimitedText.read(data, file: name) else {
            throw InputError(file: name, line: 1, reason: "empty file (only blank and comment lines)")
        }
        let layout = try TiltCSVLayout.recognise(
            table.header, file: name,
            fileName: RecordingCandidates.fileName(name))
        let convention: SensorConvention?
        switch layout.format.signSource {
        case .inG: convention = nil
        case .fixed(let fixed): convention = fixed
        case .metadata: convention = try sensorLoggerConvention(options.convention, metadata: metadata, file: name)
        }
        let samples = try layout.samples(
            from: table, file: name, orientation: options.orientation,
            g: options.g
        ) { value in
            convention?.toCoreMotionG(value) ?? value
        }
        let track = SampledGravityTrack(
            samples: samples, orientation: options.orientation, g: options.g,
            interpolation: options.interpolation)
        return LoadedTilt(
            track: track, format: layout.format, source: name, count: samples.count,
            startTime: samples[0].t, endTime: samples[samples.count - 1].t, convention: convention)
    }

    /// The override if given, else the `platform` column of `Metadata.csv`.
    private static func sensorLoggerConvention(_ override: SensorConvention?, metadata: MetadataLookup, file: String)
        throws(InputError) -> SensorConvention
    {
        if let override { return override }
        guard let (name, data) = try metadata() else {
            throw InputError(
                file: file,
                reason: "no Metadata.csv beside this Sensor Logger file to tell "
                    + "the platform's sign convention; pass --convention ios|android")
        }
        guard let table = try DelimitedText.read(data, file: name) else {
            throw InputError(file: name, line: 1, reason: "empty file")
        }
        let columns = table.header.cells.map { $0.lowercased() }
        guard let column = columns.firstIndex(of: "platform") else {
            throw InputError(
                file: name, line: table.header.number,
                reason: "missing column 'platform'; pass --convention ios|android")
        }
        guard let row = try table.firstRow(), column < row.cells.count else {
            throw InputError(
                file: name, line: table.header.number + 1,
                reason: "no platform value; pass --convention ios|android")
        }
        guard let convention = SensorConvention(rawValue: row.cells[column].lowercased()) else {
            throw InputError(
                file: name, line: row.number,
                reason: "unknown platform '\(row.cells[column])', expected ios or android")
        }
        return convention
    }

    // MARK: - Reading files

    static func tooLargeReason(_ size: UInt64) -> String {
        "file too large (\(size) bytes; tilt input is capped at \(maximumFileSize) bytes, 64 MiB)"
    }

    /// Checks that the zip at `path` is a regular file within the cap before `TiltArchive`
    /// opens it (a FIFO would block the open until a writer came).
    private static func checkSize(_ path: String) throws(InputError) {
        let size = try RegularFile.size(of: path)
        if size > UInt64(maximumFileSize) { throw InputError(file: path, reason: tooLargeReason(size)) }
    }

    /// The file's bytes, from a regular file within the cap (`RegularFile.read`).
    private static func readFile(_ path: String) throws(InputError) -> Data {
        try RegularFile.read(path, maxBytes: maximumFileSize, tooLarge: tooLargeReason)
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
