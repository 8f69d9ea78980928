import Foundation
@_spi(Tools) import Tiltbox

/// The parser under test, from `TILTBOX_FUZZ_TARGET`: one of `ParserFuzzing.Target.allCases`
/// (scenario, one target per tilt format, zip, trace, frames, numbers, run-tilt, run-scenario,
/// generated-scenario).
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

/// libFuzzer's own mutator, for the inputs this one leaves to it.
@_silgen_name("LLVMFuzzerMutate")
func libFuzzerMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int) -> Int

/// The structured mutation of the run targets: one time in two, one number of the
/// input becomes an extreme but well-formed one (`ParserFuzzing.mutateNumbers`); else
/// libFuzzer's own mutations. Other targets only get libFuzzer's.
@_cdecl("LLVMFuzzerCustomMutator")
public func fuzzMutate(_ data: UnsafeMutablePointer<UInt8>?, _ size: Int, _ maxSize: Int, _ seed: UInt32) -> Int {
    if let data, fuzzTarget.readsNumbersInText, seed % 2 == 0,
        let mutated = ParserFuzzing.mutateNumbers(
            Array(UnsafeBufferPointer(start: data, count: size)), seed: UInt64(seed)),
        mutated.count <= maxSize
    {
        mutated.withUnsafeBufferPointer { data.update(from: $0.baseAddress!, count: mutated.count) }
        return mutated.count
    }
    return libFuzzerMutate(data, size, maxSize)
}
