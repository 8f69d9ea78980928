/// A `--tilt` value naming a live source rather than a file: `-` (a Tiltbox CSV streamed
/// on standard input) or `phyphox://HOST[:PORT]` (a phone's phyphox remote access).
@_spi(Tools) public enum LiveTiltInput: Sendable, Equatable {
    /// A Tiltbox CSV on standard input.
    case standardInput
    /// A phone's phyphox remote access at `host:port`.
    case phyphox(host: String, port: Int)

    /// The live source `value` names, or `nil` for a file path.
    /// - Throws: `InputError` for a `phyphox://` URL that does not parse.
    public static func parse(_ value: String?) throws(InputError) -> LiveTiltInput? {
        guard let value else { return nil }
        if value == "-" { return .standardInput }
        if let (host, port) = try PhyphoxTiltSource.address(value) { return .phyphox(host: host, port: port) }
        return nil
    }

    /// How messages and the HUD name the source.
    public var label: String {
        switch self {
        case .standardInput: return StreamTiltSource.label
        case .phyphox(let host, let port): return "phyphox://\(host.contains(":") ? "[\(host)]" : host):\(port)"
        }
    }

    /// Connects (a phone: `/config` and its last sample, before the run) and starts the
    /// source's thread, polling at most `fps` times a second.
    /// - Throws: `InputError` when the phone cannot be reached or its experiment has no gravity.
    public func open(frame: TiltFrame, fps: Double) throws(InputError) -> LiveTiltFeed {
        switch self {
        case .standardInput:
            let source = StreamTiltSource(orientation: frame.orientation, g: frame.g)
            source.start()
            return source.feed
        case .phyphox(let host, let port):
            let source = try PhyphoxTiltSource.connect(host: host, port: port)
            source.start(interval: 1 / fps)
            return source.feed
        }
    }
}

extension RunPlan.Resolved {
    /// The gravity of a run driven by `track` (a live source's), with no tilt file loaded.
    public init(liveTrack track: any GravityTrack) {
        self.init(track: track, tilt: nil)
    }
}

extension RunPlan {
    /// The trace header's `source` for a live run: the scenario and overrides as for any
    /// run, and, as its tilt, the CSV of the gravity applied that the run writes at its end
    /// (`csv`, Tiltbox CSV in `frame`), so that `verify` replays it. Not hashed: it does
    /// not exist yet when the header is written.
    public func liveSource(csv: String, frame: TiltFrame) -> TraceHeader.Source {
        var source = self.source(Resolved(track: ConstantGravity(scenario.world.gravity), tilt: nil))
        source.tilt = csv
        source.tiltFormat = TiltFormat.tiltboxCSV.rawValue
        source.orientation = frame.orientation
        source.interpolate = .hold
        source.g = frame.g
        return source
    }
}
