import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// The SHA-256 behind the trace header's fingerprints, against FIPS 180-4's test vectors
/// and the system's `sha256sum`.
@Suite struct SHA256Tests {
    @Test func matchesTheStandardTestVectors() {
        #expect(SHA256.hex(of: [UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(of: Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(
            SHA256.hex(of: Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(
            SHA256.hex(of: repeatElement(UInt8(ascii: "a"), count: 1_000_000))
                == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    @Test func piecesGiveTheSameDigestAsOneUpdate() {
        let bytes = (0..<1000).map { UInt8(truncatingIfNeeded: $0 &* 37) }
        var pieces = SHA256()
        pieces.update(bytes[0..<1])
        pieces.update(bytes[1..<64])
        pieces.update(bytes[64..<65])
        pieces.update(bytes[65...])
        #expect(pieces.hexDigest() == SHA256.hex(of: bytes))
    }

    /// Lengths around the padding boundaries (55, 56, 63, 64 bytes mod 64), checked by a
    /// second implementation.
    @Test func agreesWithSha256sumAroundBlockBoundaries() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tiltbox-sha-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for length in [1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 70_000] {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 &* 131 &+ length) }
            let file = folder.appendingPathComponent("\(length).bin")
            try Data(bytes).write(to: file)
            let expected = try sha256sum(file.path)
            #expect(SHA256.hex(ofFileAt: file.path) == expected, "length \(length)")
            #expect(SHA256.hex(of: bytes) == expected, "length \(length)")
        }
        #expect(SHA256.hex(ofFileAt: folder.path) == nil, "a folder has no file digest")
        #expect(SHA256.hex(ofFileAt: folder.appendingPathComponent("missing").path) == nil)
    }

    private func sha256sum(_ path: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sha256sum", path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        return String(String(decoding: output, as: UTF8.self).prefix(64))
    }
}
