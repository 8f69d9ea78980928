/// The Chipmunk shared library this process actually loaded, for a trace's platform
/// fingerprint: two builds of Chipmunk 7.0.3 (another compiler, another architecture's
/// floating-point contraction) give different bits.
enum ChipmunkLibrary {
    /// The file the dynamic linker mapped Chipmunk from, as /proc/self/maps lists it
    /// (`dladdr` needs `_GNU_SOURCE`, which Swift's Glibc module does not define), or
    /// `nil` when it cannot tell (no /proc, a static link).
    static var loadedPath: String? {
        guard let maps = ProcFile.text("/proc/self/maps") else { return nil }
        for line in maps.split(separator: "\n") {
            // address perms offset dev inode path
            guard let slash = line.firstIndex(of: "/") else { continue }
            let path = line[slash...]
            let name = path.split(separator: "/").last ?? ""
            if name.hasPrefix("libchipmunk.so") { return String(path) }
        }
        return nil
    }
}
