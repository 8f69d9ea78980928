/// phyphox's remote-access interface, as its documentation describes it
/// (phyphox wiki, "Remote-interface communication"; the app's `RemoteServer`): the parts
/// a live tilt needs, with no networking (that is `HTTPGet`'s).
///
/// - `/config` answers `{"crc32", "title", …, "buffers": [{"name", "size"}], "inputs":
///   [{"source": "accelerometer", "outputs": [{"x": "accX"}, {"y": "accY"}, {"z": "accZ"},
///   {"t": "acc_time"}]}], "export": […]}`: the sensors feeding the experiment and the
///   buffers each of their components goes to.
/// - `/get?B=T|R&…` answers, for each buffer B, the values at the indices where buffer R
///   holds a value greater than T (`B=T` alone compares B itself, `B=` with no value gives
///   only its last value, `B=full` all of it): `{"buffer": {"accX": {"size": 0,
///   "updateMode": "partial", "buffer": [-0.12, …]}, …}, "status": {"session": "a1b2c3",
///   "measuring": true, "timedRun": false, "countDown": 0}}`. Numbers have 8 significant
///   digits (`9.8066502E0`), a value that is not finite is `null`, and the server raises
///   T by one unit of the 8th digit so the last value received is not sent again. A time
///   that is not finite (`1E999`), or past `maxSampleTime` (`1E300`), makes the answer malformed (no later sample
///   could follow it). After
///   the data were cleared the next answer is `"updateMode": "full"`; a new `session` means
///   the experiment was started afresh.
@_spi(Tools) public enum PhyphoxRemote {
    /// The largest sample time taken, in seconds since the experiment started (about 31 years): a
    /// later one is a malformed answer, since it would become the next request's threshold and no
    /// sample would ever be newer.
    public static let maxSampleTime = 1e9
    /// The sensor phyphox calls `accelerometer` (acceleration with g).
    public static let accelerometer = "accelerometer"
    /// The sensor phyphox calls `linear_acceleration` (gravity removed).
    public static let linearAcceleration = "linear_acceleration"

    /// The accelerometer's buffers in the running experiment, as `/config` names them.
    public struct Buffers: Sendable, Equatable {
        /// The buffers of x, y and z, m/s² (Android's sign convention on both platforms).
        public var x: String
        public var y: String
        public var z: String?
        /// The buffer of sample times, seconds since the measurement started.
        public var t: String

        public init(x: String, y: String, z: String? = nil, t: String) {
            self.x = x
            self.y = y
            self.z = z
            self.t = t
        }
    }

    /// Reads `/config`: the buffers of the experiment's `accelerometer` input. Refuses an
    /// experiment whose only acceleration is `linear_acceleration` (it has no gravity in
    /// it), one with no accelerometer, and one whose accelerometer lacks x, y or t.
    /// - Parameter place: how messages name the source (`phyphox://HOST:PORT/config`).
    public static func buffers(fromConfig bytes: [UInt8], place: String) throws(InputError) -> Buffers {
        let root = try parse(bytes, place: place)
        guard case .object(let members) = root.value else {
            throw InputError(file: place, reason: "expected a JSON object, got \(root.value.typeName)")
        }
        guard let inputsNode = members.first(where: { $0.key == "inputs" })?.node,
            case .array(let inputs) = inputsNode.value
        else {
            throw InputError(file: place, path: "inputs", reason: "missing: this is not phyphox's /config")
        }
        var sources: [String] = []
        for (index, input) in inputs.enumerated() {
            guard case .object(let fields) = input.value,
                let sourceNode = fields.first(where: { $0.key == "source" })?.node,
                case .string(let source) = sourceNode.value
            else { continue }
            sources.append(source)
            guard source == accelerometer else { continue }
            var names: [String: String] = [:]
            if let outputsNode = fields.first(where: { $0.key == "outputs" })?.node,
                case .array(let outputs) = outputsNode.value
            {
                for output in outputs {
                    guard case .object(let pairs) = output.value else { continue }
                    for pair in pairs { if case .string(let name) = pair.node.value { names[pair.key] = name } }
                }
            }
            guard let x = names["x"], let y = names["y"], let t = names["t"] else {
                let missing = ["x", "y", "t"].filter { names[$0] == nil }.joined(separator: ", ")
                throw InputError(
                    file: place, path: "inputs[\(index)].outputs",
                    reason: "the accelerometer has no \(missing) buffer: the experiment must record x, y and time")
            }
            return Buffers(x: x, y: y, z: names["z"], t: t)
        }
        if sources.contains(linearAcceleration) {
            throw InputError(
                file: place,
                reason:
                    "the experiment reads linear_acceleration, which has no gravity in it; "
                    + "open \"Acceleration with g\" on the phone instead")
        }
        let list = sources.isEmpty ? "no sensor" : "only " + sources.joined(separator: ", ")
        throw InputError(
            file: place,
            reason: "the experiment has no accelerometer input (\(list)); open \"Acceleration with g\" on the phone")
    }

    /// The `/get` target asking for every sample newer than `after` seconds (the last one
    /// received), or, with `after` nil, for the last sample only. `|` is percent-encoded.
    public static func getTarget(_ buffers: Buffers, after: Double?) -> String {
        let value = after.map { NumberFormat.shortest($0) } ?? ""
        var names = [buffers.x, buffers.y]
        if let z = buffers.z { names.append(z) }
        var parts = names.map { after == nil ? "\(percent($0))=" : "\(percent($0))=\(value)%7C\(percent(buffers.t))" }
        parts.append("\(percent(buffers.t))=\(value)")
        return "/get?" + parts.joined(separator: "&")
    }

    /// One answer of `/get`: its samples (converted to g in the CoreMotion convention, by
    /// phyphox's Android convention: g = −v / 9.80665), and the status.
    public struct Answer: Sendable, Equatable {
        /// The samples answered, oldest first; rows with a `null` (not finite) value are left out.
        public var samples: [TiltSample]
        /// The time of the newest row answered, even one left out for a `null`: the next threshold.
        public var newestTime: Double?
        /// `status.session`: changes when the experiment is started afresh.
        public var session: String
        /// `status.measuring`: false while the phone's measurement is paused.
        public var measuring: Bool
        /// `"full"` after the phone's data were cleared (the whole buffer is sent again).
        public var isFull: Bool
    }

    /// Reads an answer of `/get`. - Throws: `InputError` naming what is malformed.
    public static func answer(fromGet bytes: [UInt8], buffers: Buffers, place: String) throws(InputError) -> Answer {
        let root = try parse(bytes, place: place)
        guard case .object(let members) = root.value else {
            throw InputError(file: place, reason: "expected a JSON object, got \(root.value.typeName)")
        }
        func object(_ node: JSONNode?, _ path: String) throws(InputError) -> [(key: String, node: JSONNode)] {
            guard let node else { throw InputError(file: place, path: path, reason: "missing") }
            guard case .object(let fields) = node.value else {
                throw InputError(file: place, path: path, reason: "expected an object, got \(node.value.typeName)")
            }
            return fields
        }
        let buffer = try object(members.first { $0.key == "buffer" }?.node, "buffer")
        let status = try object(members.first { $0.key == "status" }?.node, "status")
        guard let sessionNode = status.first(where: { $0.key == "session" })?.node,
            case .string(let session) = sessionNode.value
        else { throw InputError(file: place, path: "status.session", reason: "missing or not a string") }
        guard let measuringNode = status.first(where: { $0.key == "measuring" })?.node,
            case .bool(let measuring) = measuringNode.value
        else { throw InputError(file: place, path: "status.measuring", reason: "missing or not a boolean") }
        var isFull = false
        func column(_ name: String) throws(InputError) -> [Double?] {
            let fields = try object(buffer.first { $0.key == name }?.node, "buffer.\(name)")
            if let mode = fields.first(where: { $0.key == "updateMode" })?.node, case .string("full") = mode.value {
                isFull = true
            }
            guard let valuesNode = fields.first(where: { $0.key == "buffer" })?.node,
                case .array(let values) = valuesNode.value
            else { throw InputError(file: place, path: "buffer.\(name).buffer", reason: "missing or not an array") }
            var column: [Double?] = []
            column.reserveCapacity(values.count)
            for (i, value) in values.enumerated() {
                switch value.value {
                case .number(let v): column.append(v)
                case .null: column.append(nil)
                default:
                    throw InputError(
                        file: place, path: "buffer.\(name).buffer[\(i)]",
                        reason: "expected a number or null, got \(value.value.typeName)")
                }
            }
            return column
        }
        let xs = try column(buffers.x), ys = try column(buffers.y), ts = try column(buffers.t)
        guard xs.count == ys.count, xs.count == ts.count else {
            throw InputError(
                file: place, path: "buffer",
                reason: "the buffers differ in length (x \(xs.count), y \(ys.count), t \(ts.count))")
        }
        var samples: [TiltSample] = []
        var newest: Double?
        for i in 0..<ts.count {
            guard let t = ts[i] else { continue }
            guard t.isFinite else {
                // A time beyond ±1.8e308 (`1E999`) would become the next threshold: no sample is
                // newer, and gravity would freeze with no word. The answer is malformed instead.
                throw InputError(
                    file: place, path: "buffer.\(buffers.t).buffer[\(i)]", reason: "the time is not a finite number")
            }
            guard abs(t) <= maxSampleTime else {
                // A finite time no experiment reaches (`1E300`) would freeze gravity the same way.
                throw InputError(
                    file: place, path: "buffer.\(buffers.t).buffer[\(i)]",
                    reason: "the time \(t) s is beyond the \(Int(maxSampleTime)) s an experiment can have run")
            }
            if let last = newest, t < last {
                throw InputError(file: place, path: "buffer.\(buffers.t).buffer[\(i)]", reason: "time goes backwards")
            }
            newest = t
            guard let x = xs[i], let y = ys[i] else { continue }
            samples.append(TiltSample(t: t, reading: reading(x: x, y: y)))
        }
        return Answer(samples: samples, newestTime: newest, session: session, measuring: measuring, isFull: isFull)
    }

    /// A phyphox reading in m/s² as a device-frame reading in g: Android's convention on
    /// both platforms, as the export reader converts it.
    public static func reading(x: Double, y: Double) -> Vec2 {
        Vec2(SensorConvention.android.toCoreMotionG(x), SensorConvention.android.toCoreMotionG(y))
    }

    private static func parse(_ bytes: [UInt8], place: String) throws(InputError) -> JSONNode {
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                try JSONParser.parse(utf8: buffer)
            }
        } catch {
            throw InputError(
                file: place, line: error.location.line, column: error.location.column, reason: error.reason)
        }
    }

    private static func percent(_ name: String) -> String {
        var out = ""
        for byte in name.utf8 {
            let c = Character(Unicode.Scalar(byte))
            if c.isASCII && (c.isLetter || c.isNumber || "-_.~".contains(c)) {
                out.append(c)
            } else {
                out += "%" + String(byte, radix: 16, uppercase: true).leftPadded
            }
        }
        return out
    }
}

extension String {
    fileprivate var leftPadded: String { count == 1 ? "0" + self : self }
}
