import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TraceHeader.Platform {
    /// This machine: architecture and OS from `uname`, the C library's version, the SHA-256
    /// of the loaded Chipmunk library and whether the CPU has FMA. Computed once.
    public static var current: TraceHeader.Platform { currentFingerprint }

    private static let currentFingerprint: TraceHeader.Platform = {
        var names = utsname()
        _ = uname(&names)
        func field<T>(_ value: inout T) -> String {
            withUnsafeBytes(of: &value) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
        }
        let arch = field(&names.machine)
        let os = field(&names.sysname).lowercased()
        return TraceHeader.Platform(
            arch: arch, os: os, libc: libcVersion,
            chipmunkSHA256: ChipmunkLibrary.loadedPath.flatMap(SHA256.hex(ofFileAt:)),
            fma: cpuHasFMA(arch: arch))
    }()

    private static var libcVersion: String {
        // confstr(_CS_GNU_LIBC_VERSION) gives "glibc 2.36", as gnu_get_libc_version's
        // number (which needs _GNU_SOURCE) with the library's name.
        let name = Int32(_CS_GNU_LIBC_VERSION)
        let size = confstr(name, nil, 0)
        guard size > 0 else { return "unknown" }
        var buffer = [CChar](repeating: 0, count: size)
        _ = confstr(name, &buffer, size)
        return String(nulTerminated: buffer)
    }

    /// arm64 always has fused multiply-add; on x86-64 the kernel lists the CPUID `fma`
    /// flag in /proc/cpuinfo (the flag glibc's ifunc resolvers look at).
    private static func cpuHasFMA(arch: String) -> Bool? {
        if arch == "aarch64" || arch == "arm64" { return true }
        guard let text = ProcFile.text("/proc/cpuinfo") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("flags") {
            return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).contains("fma")
        }
        return nil
    }
}
