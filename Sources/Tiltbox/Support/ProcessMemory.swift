import Foundation

/// This process's memory as Linux reports it in `/proc/self/status`, in kibibytes.
public enum ProcessMemory {
    /// Resident set size now (`VmRSS`).
    public static var residentKiB: Int? { field("VmRSS:") }
    /// Peak resident set size so far (`VmHWM`).
    public static var peakResidentKiB: Int? { field("VmHWM:") }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return Int(line.dropFirst(name.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}
