import Testing

@_spi(Tools) @testable import Tiltbox

/// Record times of a 10 s run at 120 Hz recorded every step: 1201 records.
private let times = (0...1200).map { Double($0) / 120 }

@Test func defaultFilmStripShowsEightEvenlySpacedRecordsFromFirstToLast() throws {
    let indices = try RenderFrameSelection.evenly(count: 8).recordIndices(times: times)
    #expect(indices.count == 8)
    #expect(indices.first == 0 && indices.last == 1200)
    for (k, index) in indices.enumerated() {
        #expect(abs(times[index] - 10 * Double(k) / 7) <= 0.5 / 120 + 1e-12)
    }
}

@Test func fewerRecordsThanPanelsShowsEveryRecord() throws {
    #expect(try RenderFrameSelection.evenly(count: 8).recordIndices(times: [0, 0.5, 1]) == [0, 1, 2])
}

@Test func atPicksTheNearestRecordToEachTimeTheEarlierOnATie() throws {
    let coarse = [0, 0.5, 1, 1.5, 2.0]
    #expect(try RenderFrameSelection.at([0.26, 1.24, 2]).recordIndices(times: coarse) == [1, 2, 4])
    #expect(try RenderFrameSelection.at([0.25, 0.75]).recordIndices(times: coarse) == [0, 1])
    #expect(try RenderFrameSelection.at([1.9, 0]).recordIndices(times: coarse) == [4, 0], "in the order given")
    #expect(RenderFrameSelection.nearest(0.74, in: coarse) == 1)
    #expect(RenderFrameSelection.nearest(-5, in: coarse) == 0)
    #expect(RenderFrameSelection.nearest(99, in: coarse) == 4)
}

@Test func atRefusesTimesOutsideTheTrace() {
    #expect(throws: InputError.self) { try RenderFrameSelection.at([10.5]).recordIndices(times: times) }
    #expect(throws: InputError.self) { try RenderFrameSelection.at([-0.1]).recordIndices(times: times) }
    do {
        _ = try RenderFrameSelection.at([12]).recordIndices(times: times)
    } catch {
        #expect(error.description == "--at: 12 is outside the trace's times, 0 to 10 s")
    }
}

@Test func everyPicksAPanelEverySSecondsAndCapsThePanelCount() throws {
    let indices = try RenderFrameSelection.every(seconds: 2.5).recordIndices(times: times)
    #expect(indices == [0, 300, 600, 900, 1200])
    #expect(throws: InputError.self) { try RenderFrameSelection.every(seconds: 0.001).recordIndices(times: times) }
    #expect(throws: InputError.self) { try RenderFrameSelection.every(seconds: 0).recordIndices(times: times) }
}

@Test func decimationKeepsFramesTimesBodiesUnderTheCapAndTheLastRecord() {
    let all = TraceDecimation(recordCount: 1201, bodies: 100)
    #expect(all.stride == 1 && all.indices.count == 1201)
    for (records, bodies, cap) in [
        (1201, 100, 50_000), (100_001, 10, 500_000), (10, 7, 20), (5, 1_000_000, 10), (2_000_000, 1, 500_000),
    ] {
        let d = TraceDecimation(recordCount: records, bodies: bodies, maxBodyFrames: cap)
        #expect(d.indices.first == 0 && d.indices.last == records - 1)
        #expect(d.indices.count * bodies <= cap || d.indices.count == 2, "\(records) × \(bodies) under \(cap)")
        #expect(d.indices == d.indices.sorted() && Set(d.indices).count == d.indices.count)
        // As many frames as the cap allows: the next smaller stride would break it.
        if d.stride > 1, d.indices.count > 2 {
            let finer = (records - 1 + d.stride - 2) / (d.stride - 1) + 1
            #expect(finer * bodies > cap)
        }
    }
    let d = TraceDecimation(recordCount: 1201, bodies: 100, maxBodyFrames: 50_000)
    #expect(d.stride == 3 && d.indices.count == 401)
}
