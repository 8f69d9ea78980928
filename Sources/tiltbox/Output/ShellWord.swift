import Foundation

/// Quoting for a word of a POSIX shell command line shown to users.
enum ShellWord {
    /// `word` as is when it holds only safe characters, else in single quotes.
    static func quote(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./-:=+,@%")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
