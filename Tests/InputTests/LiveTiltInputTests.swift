import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The parts of the live tilt that need no network or thread: reading phyphox's `/config`
/// and `/get`, building its threshold query, a streamed CSV's rows, the live track and its
/// CSV, and the HTTP answer parser.
@Suite struct LiveTiltInputTests {
    static let config = """
        {"crc32":"5a1e7c3d","title":"Acceleration with g","buffers":[{"name":"acc_time","size":0}],
         "inputs":[{"source":"accelerometer","outputs":[{"x":"accX"},{"y":"accY"},{"z":"accZ"},{"t":"acc_time"}]}],
         "export":[]}
        """
    static let buffers = PhyphoxRemote.Buffers(x: "accX", y: "accY", z: "accZ", t: "acc_time")

    @Test func configFindsTheAccelerometersBuffersByWhatItSays() throws {
        let renamed = Self.config.replacingOccurrences(of: "\"accX\"}", with: "\"ax\"}")
        let found = try PhyphoxRemote.buffers(fromConfig: Array(renamed.utf8), place: "p/config")
        #expect(found == PhyphoxRemote.Buffers(x: "ax", y: "accY", z: "accZ", t: "acc_time"))
    }

    @Test func configWithOnlyLinearAccelerationIsRefusedWithItsReason() {
        let linear = Self.config.replacingOccurrences(of: "\"accelerometer\"", with: "\"linear_acceleration\"")
        #expect(throws: InputError.self) { try PhyphoxRemote.buffers(fromConfig: Array(linear.utf8), place: "p") }
        do {
            _ = try PhyphoxRemote.buffers(fromConfig: Array(linear.utf8), place: "p/config")
        } catch {
            #expect(
                error.description.hasPrefix("p/config: the experiment reads linear_acceleration, which has no gravity"))
        }
        let audio = #"{"inputs":[{"source":"audio","outputs":[{"out":"recording"}]}]}"#
        do {
            _ = try PhyphoxRemote.buffers(fromConfig: Array(audio.utf8), place: "p/config")
            Issue.record("an experiment without an accelerometer was accepted")
        } catch {
            #expect(error.reason.contains("no accelerometer input (only audio)"), "\(error)")
        }
    }

    @Test func getTargetUsesTheThresholdFormOrTheSingleValueForm() {
        #expect(
            PhyphoxRemote.getTarget(Self.buffers, after: 1.25)
                == "/get?accX=1.25%7Cacc_time&accY=1.25%7Cacc_time&accZ=1.25%7Cacc_time&acc_time=1.25")
        #expect(PhyphoxRemote.getTarget(Self.buffers, after: nil) == "/get?accX=&accY=&accZ=&acc_time=")
        let odd = PhyphoxRemote.Buffers(x: "a x", y: "a|y", t: "t")
        #expect(PhyphoxRemote.getTarget(odd, after: 0) == "/get?a%20x=0%7Ct&a%7Cy=0%7Ct&t=0")
    }

    @Test func answerConvertsPhyphoxNumbersAsTheExportIsConvertedAndSkipsNulls() throws {
        let text = """
            {"buffer":{
            "accX":{"size":0,"updateMode":"partial", "buffer":[9.80665E0,null,-4.903325E0]},
            "accY":{"size":0,"updateMode":"partial", "buffer":[0E0,1E0,9.80665E0]},
            "accZ":{"size":0,"updateMode":"partial", "buffer":[0E0,0E0,0E0]},
            "acc_time":{"size":0,"updateMode":"partial", "buffer":[1.01E0,1.02E0,1.03E0]}
            },
            "status":{
            "session":"a1b2c3", "measuring":true, "timedRun":false, "countDown":0
            }
            }
            """
        let answer = try PhyphoxRemote.answer(fromGet: Array(text.utf8), buffers: Self.buffers, place: "p")
        #expect(answer.samples.map(\.t) == [1.01, 1.03])
        #expect(answer.samples[0].reading == Vec2(-1, -0.0))
        #expect(answer.samples[1].reading == Vec2(0.5, -1))
        #expect(answer.newestTime == 1.03)
        #expect(answer.session == "a1b2c3" && answer.measuring && !answer.isFull)
    }

    @Test func malformedAnswersAreLocatedErrors() {
        let cases: [(String, String)] = [
            (#"{"buffer": {"accX": [1.0, "#, "1:"),
            (#"{"buffer": {}, "status": {"session": "s", "measuring": true}}"#, "buffer.accX"),
            (
                #"{"buffer": {"accX": {"buffer": [1]}, "accY": {"buffer": [1, 2]}, "accZ": {"buffer": []}, "acc_time": {"buffer": [1]}}, "status": {"session": "s", "measuring": true}}"#,
                "differ in length"
            ),
            (#"{"buffer": {}, "status": {"measuring": true}}"#, "status.session"),
            (
                #"{"buffer": {"accX": {"buffer": [1, 1]}, "accY": {"buffer": [1, 1]}, "accZ": {"buffer": [1, 1]}, "acc_time": {"buffer": [0.5, 1E300]}}, "status": {"session": "s", "measuring": true}}"#,
                "buffer.acc_time.buffer[1]: the time 1e+300 s is beyond"
            ),
        ]
        for (text, expected) in cases {
            do {
                _ = try PhyphoxRemote.answer(fromGet: Array(text.utf8), buffers: Self.buffers, place: "p/get")
                Issue.record("accepted: \(text)")
            } catch {
                #expect(error.description.contains(expected), "\(error) for \(text)")
            }
        }
    }

    @Test func phyphoxURLsParseWithTheirDefaultPortAndBadOnesAreRefused() throws {
        #expect(try LiveTiltInput.parse("phyphox://192.168.0.42") == .phyphox(host: "192.168.0.42", port: 8080))
        #expect(try LiveTiltInput.parse("PHYPHOX://phone.local:80/") == .phyphox(host: "phone.local", port: 80))
        #expect(try LiveTiltInput.parse("phyphox://[fe80::1]:9000") == .phyphox(host: "fe80::1", port: 9000))
        #expect(try LiveTiltInput.parse("-") == .standardInput)
        #expect(try LiveTiltInput.parse("tilt.csv") == nil)
        for bad in ["phyphox://", "phyphox://h:0", "phyphox://h:x", "phyphox://h/get", "phyphox://[::1"] {
            #expect(throws: InputError.self, "\(bad)") { try LiveTiltInput.parse(bad) }
        }
    }

    @Test func aStreamedCSVGivesSamplesAndNamesEachBadRow() {
        var parser = TiltStreamParser(orientation: .portrait, g: 980)
        #expect(parser.feed("# a comment") == .skipped)
        #expect(parser.feed("t,x,y,z\r") == .skipped)
        #expect(parser.feed("0,0,-1,0") == .sample(TiltSample(t: 0, reading: Vec2(0, -1))))
        #expect(parser.feed("1,0.5") == .bad(line: 4, reason: "2 cells, the header has 4"))
        #expect(parser.feed("1,nan,0,0") == .bad(line: 5, reason: "x is not a finite number"))
        #expect(parser.feed("2,0.5,-0.5,0") == .sample(TiltSample(t: 2, reading: Vec2(0.5, -0.5))))
        #expect(parser.feed("1.5,0,-1,0") == .bad(line: 7, reason: "time 1.5 s is earlier than the row before"))
        guard case .bad(8, let reason) = parser.feed("3,1e308,-1,0") else {
            Issue.record("a reading beyond the gravity bound was accepted")
            return
        }
        #expect(reason.contains("not finite"))
        var headless = TiltStreamParser(orientation: .portrait, g: 980)
        #expect(headless.feed("0,0,-1") == .bad(line: 1, reason: "the first line is not the header t,x,y or t,x,y,z"))
    }

    @Test func aLiveTrackHoldsEachSampleFromItsStepAndWritesNotesBetweenRows() {
        let track = LiveTiltTrack(initialReading: Vec2(0, -1), orientation: .landscapeRight, g: 980)
        track.apply(reading: Vec2(0.5, -0.5), at: 0.25)
        track.note("gap: no answer")
        track.apply(reading: Vec2(-0.25, -0.75), at: 0.5)
        let replay = SampledGravityTrack(
            samples: track.samples, orientation: .landscapeRight, g: 980)
        for t in [0, 0.1, 0.25, 0.3, 0.5, 0.75, 10] {
            #expect(track.gravity(at: t) == replay.gravity(at: t), "t = \(t)")
        }
        #expect(track.gravity(at: 0.1) == Vec2(-980, 0))
        let csv = track.csv(comment: "replay: x")
        #expect(csv == "# replay: x\nt,x,y\n0,0,-1\n0.25,0.5,-0.5\n# gap: no answer\n0.5,-0.25,-0.75\n")
    }

    @Test func theRequestsHostHeaderBracketsAnIPv6Address() throws {
        guard case .phyphox(let host, let port)? = try LiveTiltInput.parse("phyphox://[::1]:8080") else {
            Issue.record("phyphox://[::1]:8080 did not parse as a phone")
            return
        }
        #expect(
            HTTPGet(host: host, port: port).request("/config")
                == "GET /config HTTP/1.1\r\nHost: [::1]:8080\r\nConnection: close\r\nAccept: application/json\r\n\r\n")
        #expect(HTTPGet(host: "fe80::1", port: 80).request("/get?accX=").contains("\r\nHost: [fe80::1]:80\r\n"))
        #expect(
            HTTPGet(host: "192.168.0.42", port: 8080).request("/config").contains("\r\nHost: 192.168.0.42:8080\r\n"))
        #expect(HTTPGet(host: "phone.local", port: 80).request("/config").contains("\r\nHost: phone.local:80\r\n"))
    }

    @Test func httpAnswersNeedStatus200AndGiveTheirContentLengthBody() throws {
        let ok = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\n{}extra".utf8)
        #expect(try HTTPGet.body(of: ok) == Array("{}".utf8))
        #expect(throws: HTTPGetError.status(404)) {
            try HTTPGet.body(of: Array("HTTP/1.1 404 Not Found\r\n\r\n".utf8))
        }
        #expect(throws: HTTPGetError.self) {
            try HTTPGet.body(of: Array("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}".utf8))
        }
        #expect(throws: HTTPGetError.self) { try HTTPGet.body(of: Array("SSH-2.0-OpenSSH\r\n\r\n".utf8)) }
        #expect(throws: HTTPGetError.self) {
            try HTTPGet.body(of: Array("HTTP/1.1 200 OK\r\nContent-Length: -5\r\n\r\n{}".utf8))
        }
        #expect(throws: HTTPGetError.tooLarge) {
            try HTTPGet.body(of: Array("HTTP/1.1 200 OK\r\nContent-Length: 9223372036854775807\r\n\r\n{}".utf8))
        }
    }

    /// Every byte of a valid answer (and of a valid HTTP answer and streamed rows) changed,
    /// dropped or cut off, and random bytes by a seeded SplitMix64: each is an answer or a
    /// located error, never a trap (a trap would end the test process).
    @Test func mutatedAnswersAreErrorsOrAnswersNeverATrap() throws {
        let answer = Array(
            """
            {"buffer":{"accX":{"size":0,"updateMode":"partial","buffer":[9.80665E0,null]},
            "accY":{"size":0,"updateMode":"full","buffer":[0E0,1E0]},"accZ":{"buffer":[1,2]},
            "acc_time":{"buffer":[1.01E0,1.02E0]}},"status":{"session":"a","measuring":false}}
            """.utf8)
        let http = Array("HTTP/1.1 200 OK\r\nContent-Length: 2\r\nX: y\r\n\r\n{}".utf8)
        let rows = Array("t,x,y,z\n0,0,-1,0\n1,0.5,-0.5,0\n".utf8)
        let extremes: [UInt8] = Array("0-e9.,\"{}[]|\r\n".utf8) + [0, 0xFF]
        var state: UInt64 = 0x5EED
        func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        func mutations(of bytes: [UInt8]) -> [[UInt8]] {
            var out: [[UInt8]] = []
            for i in bytes.indices {
                var changed = bytes
                changed[i] = extremes[Int(next() % UInt64(extremes.count))]
                out.append(changed)
                var dropped = bytes
                dropped.remove(at: i)
                out.append(dropped)
                out.append(Array(bytes[..<i]))
            }
            for _ in 0..<200 { out.append((0..<Int(next() % 64)).map { _ in UInt8(truncatingIfNeeded: next()) }) }
            return out
        }
        var accepted = 0
        for bytes in mutations(of: answer) {
            if (try? PhyphoxRemote.answer(fromGet: bytes, buffers: Self.buffers, place: "p")) != nil { accepted += 1 }
            _ = try? PhyphoxRemote.buffers(fromConfig: bytes, place: "p")
        }
        for bytes in mutations(of: http) { _ = try? HTTPGet.body(of: bytes) }
        var parser = TiltStreamParser(orientation: .landscapeLeft, g: 980)
        for bytes in mutations(of: rows) {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") { _ = parser.feed(line) }
        }
        #expect(accepted > 0, "no mutation was accepted: the mutations never reached the sample reading")
    }
}
