import Foundation

/// The subcommands by name, to tell a mistyped command from `run`'s scenario argument.
enum CommandNames {
    /// Every name the first argument may take, `help` included.
    static var all: [String] {
        TiltboxCommand.configuration.subcommands.map { $0._commandName } + ["help"]
    }

    /// The subcommand `arguments` call (`run`, the default, when none is named).
    static func subcommand(in arguments: [String]) -> String {
        guard let first = arguments.first, all.contains(first), first != "help" else { return "run" }
        return first
    }

    /// A message when the first argument looks like a command name but is none: not an
    /// option, not an existing file, and with no `/` or `.` that would make it a path
    /// (`run`'s scenario argument). Nil when it is fine.
    static func unknownCommand(
        in arguments: [String], fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> String? {
        guard let first = arguments.first, !first.isEmpty, !first.hasPrefix("-"), !all.contains(first),
            !first.contains("/"), !first.contains("."), !fileExists(first)
        else { return nil }
        if let guess = closest(to: first) {
            return "unknown command '\(first)' (did you mean '\(guess)'?)"
        }
        return
            "unknown command '\(first)' (commands: \(all.joined(separator: ", ")); a scenario is given by its path, like Scenarios/book.json)"
    }

    /// The command name within two edits of `word` (the nearest; the first listed on a tie).
    static func closest(to word: String) -> String? {
        let scored = all.map { (name: $0, distance: editDistance(word.lowercased(), $0)) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= 2,
            best.distance < best.name.count
        else { return nil }
        return best.name
    }

    /// Levenshtein distance, counting a swap of two neighbours as one edit.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let x = Array(a), y = Array(b)
        if x.isEmpty { return y.count }
        if y.isEmpty { return x.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: y.count + 1), count: x.count + 1)
        for i in 0...x.count { d[i][0] = i }
        for j in 0...y.count { d[0][j] = j }
        for i in 1...x.count {
            for j in 1...y.count {
                let cost = x[i - 1] == y[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, x[i - 1] == y[j - 2], x[i - 2] == y[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[x.count][y.count]
    }
}
