import Testing

@_spi(Tools) @testable import Tiltbox

/// The optional `space` header key: written in a fixed order with shortest round-trip
/// numbers (infinity as null), read back to the same bits, and accepted by readers.
@Suite struct SpaceHeaderTests {
    static let end = #"{"end":"complete","steps":0,"simTime":0,"droppedTime":0,"digest":"fnv1a64:cbf29ce484222325"}"#

    static func roundTrip(_ header: TraceHeader) throws -> TraceHeader {
        try TraceReader.parse(Array((header.jsonLine + end + "\n").utf8), file: "t.jsonl").header
    }

    @Test func chipmunksDefaultsAreWrittenAndReadBackBitForBit() throws {
        var header = TraceHeader(scenario: "s", spatialIndex: "bbtree", dt: 0.5, every: 1, bodies: [])
        header.space = SpaceSettings.chipmunkDefaults
        #expect(
            header.jsonLine.hasSuffix(
                #","space":{"iterations":10,"damping":1,"collisionSlop":0.10000000149011612,"collisionBias":0.0017970074436457143,"collisionPersistence":3,"sleepTimeThreshold":null,"idleSpeedThreshold":0}}"#
                    + "\n"))
        let read = try Self.roundTrip(header)
        #expect(read.space == header.space)
        #expect(read.space?.collisionSlop.bitPattern == Double(Float(0.1)).bitPattern)
        #expect(read.space?.sleepTimeThreshold == .infinity)
    }

    @Test func setValuesRoundTrip() throws {
        let space = SpaceSettings(
            iterations: 7, damping: 0.25, collisionSlop: 0.1, collisionBias: 0.5,
            collisionPersistence: 2, sleepTimeThreshold: 0.75, idleSpeedThreshold: 3.5)
        let header = TraceHeader(scenario: "s", spatialIndex: "bbtree", dt: 0.5, every: 1, bodies: [], space: space)
        #expect(try Self.roundTrip(header).space == space)
    }

    @Test func aHeaderWithoutSpaceOrWithAnotherVersionsSpaceIsAccepted() throws {
        let plain = TraceHeader(scenario: "s", spatialIndex: "bbtree", dt: 0.5, every: 1, bodies: [])
        #expect(try Self.roundTrip(plain).space == nil)
        let other = String(plain.jsonLine.dropLast(2)) + #","space":{"iterations":10,"gravityWells":3}}"# + "\n"
        let trace = try TraceReader.parse(Array((other + Self.end + "\n").utf8), file: "t.jsonl")
        #expect(trace.header.space == nil, "an incomplete space object is accepted and ignored")
        let wrong = String(plain.jsonLine.dropLast(2)) + #","space":[1,2]}"# + "\n"
        #expect(throws: InputError.self) {
            try TraceReader.parse(Array((wrong + Self.end + "\n").utf8), file: "t.jsonl")
        }
    }
}
