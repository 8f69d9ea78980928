import Foundation
import Tiltbox

/// The parser under test, from `TILTBOX_FUZZ_TARGET` (scenario, tilt-csv, phyphox,
/// sensor-logger, keyframes, zip, trace, frames, numbers).
let fuzzTarget: ParserFuzzing.Target = {
    let name = ProcessInfo.processInfo.environment["TILTBOX_FUZZ_TARGET"] ?? ""
    guard let target = ParserFuzzing.Target(rawValue: name) else {
        let names = ParserFuzzing.Target.allCases.map(\.rawValue).joined(separator: ", ")
        FileHandle.standardError.write(Data("TILTBOX_FUZZ_TARGET must be one of: \(names)\n".utf8))
        exit(2)
    }
    return target
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    ParserFuzzing.run(fuzzTarget, bytes: UnsafeRawBufferPointer(start: data, count: size))
    return 0
}
