import ArgumentParser
import Synchronization
@_spi(Tools) import Tiltbox

/// `--set PATH=JSON` (repeatable), shared by `run` and `verify`: scenario values changed
/// before validation.
struct OverrideOptions: ParsableArguments {
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Change a scenario value before validation: PATH is a field path (keys, [N], [*] for every element), JSON its new value, e.g. world.gravity=[0,-500] or 'crates[*].friction=0.3'. Repeatable, applied in order; the trace header records them.",
            valueName: "PATH=JSON"))
    var set: [String] = []

    /// The `--set` values `main` took out of the arguments (`takeSetOptions`), in order.
    private static let taken = Mutex<[String]>([])

    /// The overrides, parsed (a bad path or value is an `InputError` naming the `--set`, exit 2);
    /// a path given twice keeps its last value.
    func overrides() throws(InputError) -> [ScenarioOverride] {
        var parsed: [ScenarioOverride] = []
        for argument in Self.taken.withLock({ $0 }) + set { parsed.append(try ScenarioOverride(argument: argument)) }
        return ScenarioOverride.merged([], parsed)
    }

    /// Takes every `--set VALUE` and `--set=VALUE` out of the arguments of `run` and `verify`
    /// (up to a `--`), keeps the values for `overrides()` and returns the rest, for
    /// ArgumentParser. Its repeated options cost time quadratic in their number (each value
    /// merges the input positions of all before it: 16 000 `--set` took 17.7 s to parse);
    /// taken out here they cost one pass. A `--set` without a value, or for a command that
    /// has no such option, is left for ArgumentParser to refuse as before.
    static func takeSetOptions(from arguments: [String], command: String) -> [String] {
        guard command == "run" || command == "verify" else { return arguments }
        var rest: [String] = []
        var values: [String] = []
        rest.reserveCapacity(arguments.count)
        var i = 0
        while i < arguments.count {
            let argument = arguments[i]
            if argument == "--" {
                rest += arguments[i...]
                break
            }
            if argument == "--set", i + 1 < arguments.count, !arguments[i + 1].hasPrefix("-") {
                values.append(arguments[i + 1])
                i += 2
                continue
            }
            if argument.hasPrefix("--set="), argument.count > "--set=".count {
                values.append(String(argument.dropFirst("--set=".count)))
            } else {
                rest.append(argument)
            }
            i += 1
        }
        taken.withLock { $0 = values }
        return rest
    }
}

/// `run --hashes`: a compact golden trace.
struct HashesOption: ParsableArguments {
    @Flag(
        name: .long,
        help:
            "With --trace: write each record's FNV-1a 64 hash (\"h\") instead of its states, a compact golden for verify and diff."
    )
    var hashes = false

    /// Refuses `--hashes` without a trace file to write, or with `--html` (which draws states).
    func validate(trace: String?, html: String?) throws {
        guard hashes else { return }
        guard trace != nil else { throw ValidationError("--hashes sets what --trace records: give --trace FILE") }
        guard html == nil else {
            throw ValidationError("--html draws the trace's states, and --hashes records none: leave one out")
        }
    }
}
