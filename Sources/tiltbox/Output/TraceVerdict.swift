import ArgumentParser
@_spi(Tools) import Tiltbox

/// Prints a comparison and exits 1 when the traces differ.
enum TraceVerdict {
    /// Compares the two traces `open` gives within `tolerance` and reports it: "identical"
    /// only when they agree bit for bit, "equal within X" when they agree only within the
    /// tolerance (then `open` is called a second time for the bitwise pass: traces are read
    /// one record at a time, never held whole). `sides` names the traces; `notes` (asked
    /// only after a divergence) are printed after it, one line each, as what may explain it.
    /// `hashNotes` (asked only after a divergence of record hashes, with its step and time)
    /// say how to see the fields a hash trace does not hold. `--tolerance` cannot apply to a
    /// hash trace, which holds no values (exit 2).
    static func report(
        tolerance: Double, sides: TraceSides, notes: () -> [String] = { [] },
        hashNotes: (Int, Double) -> [String] = { _, _ in [] },
        open: () throws -> (TraceStream, TraceStream)
    ) throws {
        let (a, b) = try open()
        if tolerance > 0, let hashed = [a, b].first(where: { $0.header.records == .hashes }) {
            throw InputError(
                file: hashed.file, path: "records",
                reason:
                    "a hash trace holds no values to compare within --tolerance: compare it bit for bit (no --tolerance)"
            )
        }
        let comparison = try TraceDiff.compare(a, b, tolerance: tolerance)
        if comparison.agrees, tolerance > 0 {
            let (exactA, exactB) = try open()
            if try !TraceDiff.compare(exactA, exactB).agrees {
                switch comparison {
                case .identicalUntilInterrupted(let prefix):
                    try Console.out(
                        prefix.describe(
                            sides, agreement: "equal within \(PeopleText.exact(tolerance)) (not bit for bit)"))
                default:
                    try Console.out(
                        "equal within \(PeopleText.exact(tolerance)): \(PeopleText.count(comparison.records, "record")) (not bit for bit)"
                    )
                }
                return
            }
        }
        try report(comparison, sides: sides, notes: notes, hashNotes: hashNotes)
    }

    static func report(
        _ comparison: TraceComparison, sides: TraceSides, notes: () -> [String] = { [] },
        hashNotes: (Int, Double) -> [String] = { _, _ in [] }
    ) throws {
        switch comparison {
        case .identical(let records):
            try Console.out("identical: \(PeopleText.count(records, "record"))")
        case .identicalUntilInterrupted(let prefix):
            // Not a divergence: one run stopped early, and agrees with the other as far as it went.
            try Console.out(prefix.describe(sides))
        case .diverged(let divergence):
            try Console.out("differ: \(divergence.describe(sides))")
            for note in notes() { try Console.out("note: \(note)") }
            if case .recordHash(let step, let time, _, _) = divergence {
                for note in hashNotes(step, time) { try Console.out("note: \(note)") }
            }
            throw ExitCode(ExitStatus.failure)
        }
    }
}
