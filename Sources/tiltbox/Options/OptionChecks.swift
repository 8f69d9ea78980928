import ArgumentParser
@_spi(Tools) import Tiltbox

/// The checks of option values that more than one subcommand takes, written once so
/// that `--g` or `--fps` means the same range (and the same message) everywhere.
enum OptionChecks {
    /// `--g`: world units per 1 g, in (0, the scenario bound on gravity].
    static func g(_ value: Double) throws {
        guard value.isFinite, value > 0, value <= ScenarioLoader.limits.maxGravity else {
            throw ValidationError("--g must be a number in (0, \(Int(ScenarioLoader.limits.maxGravity))]")
        }
    }

    /// The most frames per second a display loop is asked for.
    static let maxFPS = 1000.0

    /// `--fps`: frames per second of the live view (or of `run --realtime`), in (0, 1000].
    static func fps(_ value: Double) throws {
        guard value.isFinite, value > 0, value <= maxFPS else {
            throw ValidationError("--fps must be a number in (0, \(Int(maxFPS))]")
        }
    }
}

/// `--interval S` of `render` and `tilt`: seconds between film strip panels or printed
/// rows. `--every S` is its old name there, kept for one release with a warning, because
/// `run --every K` counts steps.
struct IntervalOption {
    /// The warning printed when the old name is used.
    static let deprecationWarning = "tiltbox: warning: --every is deprecated for render/tilt; use --interval (seconds)"

    var interval: Double?
    var every: Double?

    /// The interval given under either name (nil when neither), checked to be a number
    /// of seconds > 0. Giving both names is a usage error.
    func seconds() throws -> Double? {
        if interval != nil, every != nil {
            throw ValidationError("--every is the old name of --interval: give only --interval")
        }
        guard let value = interval ?? every else { return nil }
        let name = interval != nil ? "--interval" : "--every"
        guard value.isFinite, value > 0 else { throw ValidationError("\(name) must be a number of seconds > 0") }
        return value
    }

    /// Prints the deprecation warning on standard error when `--every` was used.
    func warnIfDeprecated() throws {
        if every != nil { try Console.error(Self.deprecationWarning) }
    }
}
