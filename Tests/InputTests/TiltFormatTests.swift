import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

/// Each tilt format recognises its own files in one place (`TiltFormat`): the loader,
/// the fuzz targets and the help strings all follow from its cases.
@Suite struct TiltFormatTests {
    static let fixtureOfFormat: [TiltFormat: String] = [
        .tiltboxCSV: "tiltbox.csv", .keyframes: "keyframes.json", .phyphox: "phyphox-comma.csv",
        .sensorLogger: "sensorlogger-android/Gravity.csv",
    ]

    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test(arguments: TiltFormat.allCases)
    func eachFormatsFixtureLoadsAsThatFormat(_ format: TiltFormat) throws {
        let name = try #require(Self.fixtureOfFormat[format], "no fixture listed for \(format)")
        let loaded = try TiltFile.load(path: Fixture.path(name), g: 980, convention: .android)
        #expect(loaded.format == format)
    }

    @Test(arguments: TiltFormat.allCases)
    func eachFormatIsAFuzzTargetWithASeedFolder(_ format: TiltFormat) {
        #expect(ParserFuzzing.Target(rawValue: format.fuzzTargetName) == .tilt(format))
        // The Makefile fuzzes every folder of Fuzz/corpus.
        let folder = Self.repository.appendingPathComponent("Fuzz/corpus/\(format.fuzzTargetName)").path
        var isDirectory: ObjCBool = false
        #expect(
            FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) && isDirectory.boolValue,
            "\(folder)")
    }

    @Test func theHelpListNamesEveryFormatAsItDidBeforeTheFormatsKnewTheirNames() {
        #expect(TiltFormat.helpList == "Tiltbox CSV, keyframes JSON, phyphox or Sensor Logger export")
        #expect(
            TiltCSVLayout.expectation
                == #"t,x,y or t,x,y,z, a phyphox "Acceleration with g" export, or a Sensor Logger Gravity.csv"#)
        #expect(
            RecordingCandidates.expectation
                == "expected phyphox's Raw Data.csv or Sensor Logger's Gravity.csv or TotalAcceleration.csv")
    }

    @Test func fuzzTargetNamesRoundTripAndAreUnique() {
        let names = ParserFuzzing.Target.allCases.map(\.rawValue)
        #expect(Set(names).count == names.count, "\(names)")
        for target in ParserFuzzing.Target.allCases {
            #expect(ParserFuzzing.Target(rawValue: target.rawValue) == target)
        }
    }
}
