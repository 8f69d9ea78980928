import ArgumentParser
import Tiltbox

/// Prints a comparison and exits 1 when the traces differ.
enum TraceVerdict {
    /// Compares the two traces `open` gives within `tolerance` and reports it: "identical"
    /// only when they agree bit for bit, "equal within X" when they agree only within the
    /// tolerance (then `open` is called a second time for the bitwise pass: traces are read
    /// one record at a time, never held whole). `sides` names the traces; `notes` (asked
    /// only after a divergence) are printed after it, one line each, as what may explain it.
    static func report(tolerance: Double, sides: TraceSides, notes: () -> [String] = { [] },
                       open: () throws -> (TraceStream, TraceStream)) throws {
        let (a, b) = try open()
        let comparison = try TraceDiff.compare(a, b, tolerance: tolerance)
        if case .identical(let records) = comparison, tolerance > 0 {
            let (exactA, exactB) = try open()
            if try !TraceDiff.compare(exactA, exactB).isIdentical {
                try Console.out("equal within \(PeopleText.exact(tolerance)): \(PeopleText.count(records, "record")) (not bit for bit)")
                return
            }
        }
        try report(comparison, sides: sides, notes: notes)
    }

    static func report(_ comparison: TraceComparison, sides: TraceSides, notes: () -> [String] = { [] }) throws {
        switch comparison {
        case .identical(let records):
            try Console.out("identical: \(PeopleText.count(records, "record"))")
        case .diverged(let divergence):
            try Console.out("differ: \(divergence.describe(sides))")
            for note in notes() { try Console.out("note: \(note)") }
            throw ExitCode(ExitStatus.failure)
        }
    }
}
