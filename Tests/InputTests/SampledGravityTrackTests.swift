import Foundation
import Testing

@_spi(Tools) @testable import Tiltbox

@Suite struct SampledGravityTrackTests {
    static let samples = [
        TiltSample(t: 1, reading: Vec2(0, -1)),
        TiltSample(t: 2, reading: Vec2(0.5, -0.5)),
        TiltSample(t: 2, reading: Vec2(0.25, -0.75)),
        TiltSample(t: 4, reading: Vec2(-0.5, -0.5)),
    ]

    func pair(_ v: Vec2) -> Vec2Like { (v.x, v.y) }

    @Test func holdKeepsTheLatestSampleAtOrBeforeT() {
        let track = SampledGravityTrack(samples: Self.samples, orientation: .portrait, g: 100)
        #expect(track.interpolation == .hold)
        #expect(close(pair(track.gravity(at: 1)), (0, -100)))
        #expect(close(pair(track.gravity(at: 1.999)), (0, -100)))
        // Two samples at t = 2: the later one is "the latest at or before".
        #expect(close(pair(track.gravity(at: 2)), (25, -75)))
        #expect(close(pair(track.gravity(at: 3.5)), (25, -75)))
        #expect(close(pair(track.gravity(at: 4)), (-50, -50)))
    }

    @Test func linearBlendsBetweenNeighbours() {
        let track = SampledGravityTrack(samples: Self.samples, orientation: .portrait, g: 100, interpolation: .linear)
        #expect(close(pair(track.gravity(at: 1.5)), (25, -75)))
        #expect(close(pair(track.gravity(at: 1.75)), (37.5, -62.5)))
        #expect(close(pair(track.gravity(at: 2)), (25, -75)))
        #expect(close(pair(track.gravity(at: 3)), (-12.5, -62.5)))
    }

    @Test(arguments: Interpolation.allCases)
    func firstValueBeforeFirstSampleAndLastAfterLast(_ interpolation: Interpolation) {
        let track = SampledGravityTrack(
            samples: Self.samples, orientation: .portrait, g: 100,
            interpolation: interpolation)
        #expect(close(pair(track.gravity(at: 0)), (0, -100)))
        #expect(close(pair(track.gravity(at: -5)), (0, -100)))
        #expect(close(pair(track.gravity(at: .nan)), (0, -100)))
        #expect(close(pair(track.gravity(at: 4.01)), (-50, -50)))
        #expect(close(pair(track.gravity(at: .infinity)), (-50, -50)))
    }

    @Test func singleSampleIsConstant() {
        let track = SampledGravityTrack(
            samples: [TiltSample(t: 3, reading: Vec2(0, -1))], orientation: .portrait,
            g: 980, interpolation: .linear)
        for t in [0.0, 3, 10] { #expect(close(pair(track.gravity(at: t)), (0, -980))) }
    }

    /// docs/formats.md §2: portrait (X, Y); landscapeRight (Y, −X); landscapeLeft (−Y, X);
    /// portraitUpsideDown (−X, −Y); then × g.
    @Test(arguments: [
        (Orientation.portrait, (0.25, -0.5)), (.landscapeRight, (-0.5, -0.25)),
        (.landscapeLeft, (0.5, 0.25)), (.portraitUpsideDown, (-0.25, 0.5)),
    ])
    func orientationTableMapsDeviceToWorld(_ orientation: Orientation, _ expected: Vec2Like) {
        let track = SampledGravityTrack(
            samples: [TiltSample(t: 0, reading: Vec2(0.25, -0.5))],
            orientation: orientation, g: 980)
        #expect(close(pair(track.gravity(at: 0)), (expected.0 * 980, expected.1 * 980)))
    }

    @Test func uprightPortraitFallsDownTheScreen() {
        let upright = Vec2(0, -1)
        #expect(Orientation.portrait.worldVector(fromDevice: upright) == Vec2(0, -1))
        #expect(Orientation.portraitUpsideDown.worldVector(fromDevice: upright) == Vec2(0, 1))
        #expect(Orientation.landscapeRight.worldVector(fromDevice: upright) == Vec2(-1, 0))
        #expect(Orientation.landscapeLeft.worldVector(fromDevice: upright) == Vec2(1, 0))
    }

    @Test func keyframeTrackEasesEachSegmentWithTheCurveOfItsEnd() throws {
        let track = KeyframeGravityTrack(keyframes: [
            Keyframe(t: 0, gravity: Vec2(0, -100)),
            Keyframe(t: 1, gravity: Vec2(100, -100), curve: .ahEasing(.quadraticEaseIn)),
            Keyframe(t: 2, gravity: Vec2(0, 0), curve: .hold),
            Keyframe(t: 2, gravity: Vec2(7, 7)),
        ])
        #expect(close(pair(track.gravity(at: -1)), (0, -100)))
        #expect(close(pair(track.gravity(at: 0.5)), (25, -100))) // 0.5² = 0.25
        #expect(close(pair(track.gravity(at: 1.5)), (100, -100))) // hold until t = 2
        #expect(close(pair(track.gravity(at: 2)), (7, 7))) // the later of two keyframes at t = 2
        #expect(close(pair(track.gravity(at: 9)), (7, 7)))
    }

    @Test func delimitedTextSplitsQuotedCells() throws {
        let quoted = try DelimitedText.read(Data(#""a, b", c ,"say ""hi""""#.utf8), file: "q.csv")
        #expect(quoted?.header.cells == ["a, b", "c", #"say "hi""#])
        #expect(quoted?.header.columns == [1, 9, 12])
        let semicolons = try DelimitedText.read(Data("1;2;;".utf8), file: "s.csv")
        #expect(semicolons?.header.cells == ["1", "2", "", ""])
        let text = try DelimitedText.read(Data("\u{FEFF}# note\r\n\r\nt,x,y\r\n0,1,2\r\n".utf8), file: "b.csv")
        #expect(text?.header.number == 3)
        var numbers: [Int] = []
        try text?.forEachRow { (row: DelimitedText.Line) throws(InputError) in numbers.append(row.number) }
        #expect(numbers == [4])
    }

    @Test func delimitedTextRefusesALineOfTooManyCells() {
        let line = String(repeating: ",", count: DelimitedText.maxCellsPerLine)
        #expect(throws: InputError.self) { _ = try DelimitedText.read(Data(line.utf8), file: "commas.csv") }
        let atTheLimit = String(repeating: ",", count: DelimitedText.maxCellsPerLine - 1)
        #expect(
            (try? DelimitedText.read(Data(atTheLimit.utf8), file: "ok.csv"))??.header.cells.count
                == DelimitedText.maxCellsPerLine)
    }
}
