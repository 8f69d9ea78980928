import Foundation

/// This process's memory as Linux reports it in `/proc/self/status`, in kibibytes.
@_spi(Tools) public enum ProcessMemory {
    /// Resident set size now (`VmRSS`).
    public static var residentKiB: Int? { field("VmRSS:") }
    /// Peak resident set size so far (`VmHWM`).
    public static var peakResidentKiB: Int? { field("VmHWM:") }

    /// Resident anonymous memory now (`RssAnon`: heap, stacks, anonymous maps). Unlike
    /// RSS it leaves out pages of code and libraries touched for the first time, so
    /// steady growth here is what a leak looks like.
    public static var residentAnonymousKiB: Int? { field("RssAnon:") }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            return Int(
                line.dropFirst(name.count).trimmingCharacters(in: .whitespaces).split(separator: " ").first ?? "")
        }
        return nil
    }
}
