import ArgumentParser
@_spi(Tools) import Tiltbox

/// `--set PATH=JSON` (repeatable), shared by `run` and `verify`: scenario values changed
/// before validation.
struct OverrideOptions: ParsableArguments {
    @Option(name: .customLong("set"), help: ArgumentHelp(
        "Change a scenario value before validation: PATH is a field path (keys, [N], [*] for every element), JSON its new value, e.g. world.gravity=[0,-500] or 'crates[*].friction=0.3'. Repeatable, applied in order; the trace header records them.",
        valueName: "PATH=JSON"))
    var set: [String] = []

    /// The overrides, parsed (a bad path or value is an `InputError` naming the `--set`, exit 2);
    /// a path given twice keeps its last value.
    func overrides() throws(InputError) -> [ScenarioOverride] {
        var parsed: [ScenarioOverride] = []
        for argument in set { parsed.append(try ScenarioOverride(argument: argument)) }
        return ScenarioOverride.merged([], parsed)
    }
}

/// `run --hashes`: a compact golden trace.
struct HashesOption: ParsableArguments {
    @Flag(name: .long, help: "With --trace: write each record's FNV-1a 64 hash (\"h\") instead of its states, a compact golden for verify and diff.")
    var hashes = false

    /// Refuses `--hashes` without a trace file to write, or with `--html` (which draws states).
    func validate(trace: String?, html: String?) throws {
        guard hashes else { return }
        guard trace != nil else { throw ValidationError("--hashes sets what --trace records: give --trace FILE") }
        guard html == nil else { throw ValidationError("--html draws the trace's states, and --hashes records none: leave one out") }
    }
}
