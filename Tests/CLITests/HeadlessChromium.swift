import Foundation
import Testing

/// Debian's Chromium run headless on a page, the way a user's browser opens it.
///
/// Found on PATH as `chromium` (or from `CHROMIUM`). `make test` installs it when it is
/// missing; a test that needs it fails with `NotInstalled`, it is never skipped.
/// Each run gets its own profile folder, so tests can run browsers side by side.
enum HeadlessChromium {
    struct NotInstalled: Error, CustomStringConvertible {
        var description: String {
            "Chromium is not installed: the browser tests need it. `make test` installs it "
                + "(apt-get install chromium); or set CHROMIUM to a Chromium executable."
        }
    }

    struct Failed: Error, CustomStringConvertible {
        var description: String
    }

    static func executable() throws -> URL {
        if let explicit = ProcessInfo.processInfo.environment["CHROMIUM"], !explicit.isEmpty {
            return URL(fileURLWithPath: explicit)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") {
            for name in ["chromium", "chromium-browser"] {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        throw NotInstalled()
    }

    /// The DOM after the page's scripts ran for `virtualTime` milliseconds of virtual time.
    static func dumpDOM(url: URL, in directory: TemporaryDirectory, virtualTime: Int = 5000) throws -> String {
        let result = try run(["--virtual-time-budget=\(virtualTime)", "--dump-dom", url.absoluteString], in: directory)
        return String(decoding: result, as: UTF8.self)
    }

    /// A screenshot of the page (1000×800) written to `png`.
    static func screenshot(url: URL, to png: String, in directory: TemporaryDirectory, virtualTime: Int = 5000) throws {
        _ = try run(["--virtual-time-budget=\(virtualTime)", "--screenshot=\(png)", url.absoluteString], in: directory)
        guard FileManager.default.fileExists(atPath: png) else {
            throw Failed(description: "chromium wrote no screenshot at \(png)")
        }
    }

    /// Runs Chromium headless with `arguments` and returns its standard output; killed
    /// after 60 s.
    private static func run(_ arguments: [String], in directory: TemporaryDirectory) throws -> Data {
        let name = UUID().uuidString
        let profile = directory.path("chromium-profile-\(name)")
        let out = directory.url.appendingPathComponent("chromium-\(name).stdout")
        let err = directory.url.appendingPathComponent("chromium-\(name).stderr")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        let process = Process()
        process.executableURL = try executable()
        process.arguments =
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run",
                "--disable-dev-shm-usage", "--user-data-dir=\(profile)", "--window-size=1000,800",
            ] + arguments
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
            throw Failed(description: "chromium did not finish within 60 s")
        }
        let stdout = try Data(contentsOf: out)
        guard process.terminationStatus == 0 else {
            let stderr = String(decoding: try Data(contentsOf: err), as: UTF8.self)
            throw Failed(description: "chromium exited with \(process.terminationStatus): \(stderr.suffix(2000))")
        }
        return stdout
    }
}

/// Counts pixels of a PNG that differ from white inside a rectangle, decoded by a
/// small Python program (zlib and struct only: Foundation on Linux decodes no PNG).
enum PNGPixels {
    struct Count: Decodable {
        var width: Int
        var height: Int
        var nonWhite: Int
        var inside: Int
    }

    private static let program = #"""
        import struct, sys, zlib, json
        path, left, top, width, height = sys.argv[1], *map(int, sys.argv[2:6])
        data = open(path, "rb").read()
        assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
        pos, idat, w, h = 8, b"", 0, 0
        while pos < len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            chunk = data[pos + 8:pos + 8 + length]
            pos += 12 + length
            if kind == b"IHDR":
                w, h, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", chunk)
                assert depth == 8 and colour in (2, 6) and interlace == 0, "unsupported PNG layout"
                bpp = 3 if colour == 2 else 4
            elif kind == b"IDAT":
                idat += chunk
        raw = zlib.decompress(idat)
        stride = w * bpp
        rows, prev, i = [], bytearray(stride), 0
        for y in range(h):
            f = raw[i]; line = bytearray(raw[i + 1:i + 1 + stride]); i += 1 + stride
            for x in range(stride):
                a = line[x - bpp] if x >= bpp else 0
                b = prev[x]
                c = prev[x - bpp] if x >= bpp else 0
                if f == 1: line[x] = (line[x] + a) & 255
                elif f == 2: line[x] = (line[x] + b) & 255
                elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
                elif f == 4:
                    p = a + b - c; pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                    line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
            rows.append(line); prev = line
        count = inside = 0
        for y in range(max(0, top), min(h, top + height)):
            line = rows[y]
            for x in range(max(0, left), min(w, left + width)):
                inside += 1
                r, g, b = line[x * bpp], line[x * bpp + 1], line[x * bpp + 2]
                if (255 - r) + (255 - g) + (255 - b) > 24: count += 1
        print(json.dumps({"width": w, "height": h, "nonWhite": count, "inside": inside}))
        """#

    static func count(png: String, left: Int, top: Int, width: Int, height: Int) throws -> Count {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program, png, String(left), String(top), String(width), String(height)]
        let pipe = Pipe()
        let errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        let errorText = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw HeadlessChromium.Failed(description: "python3 could not decode \(png): \(errorText)")
        }
        return try JSONDecoder().decode(Count.self, from: output)
    }
}

/// What the HTML player writes into `<pre id="test-output">` when opened with `#test`
/// (base64 of JSON): see `HTMLPlayer`.
struct PlayerReport: Decodable {
    struct Crate: Decodable {
        var id: String
        var x: Double
        var y: Double
        var angle: Double
    }

    struct Rect: Decodable {
        var left: Double
        var top: Double
        var width: Double
        var height: Double
    }

    var errors: [String]
    var frameIndex: Int
    var frameCount: Int
    var time: Double
    var lastTime: Double
    var ticks: Int
    var crates: [Crate]
    var nonBackground: Int
    var canvasPixels: Int
    var devicePixelRatio: Double
    var canvas: Rect
    var hoverCentre: String?

    /// Reads the report out of a dumped DOM.
    static func from(dom: String) throws -> PlayerReport {
        guard
            let open = dom.range(of: #"<pre id="test-output" data-ready="1">"#)
                ?? dom.range(of: #"<pre data-ready="1" id="test-output">"#),
            let close = dom.range(of: "</pre>", range: open.upperBound..<dom.endIndex)
        else {
            throw HeadlessChromium.Failed(
                description: "the page wrote no test report (did its script fail to run?): \(dom.suffix(600))")
        }
        guard let json = Data(base64Encoded: String(dom[open.upperBound..<close.lowerBound])) else {
            throw HeadlessChromium.Failed(description: "the test report is not base64")
        }
        return try JSONDecoder().decode(PlayerReport.self, from: json)
    }
}
