#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Lexical path arithmetic for the paths a trace header records: made absolute against
/// the working directory, `.` and `..` folded, and one path written relative to a folder.
/// Symbolic links are not followed (the paths are the user's, as typed).
enum PathArithmetic {
    /// `path` made absolute against the working directory, normalized.
    static func absolute(_ path: String) -> String {
        if path.hasPrefix("/") { return normalized(path) }
        return normalized(workingDirectory() + "/" + path)
    }

    /// The folder part of `path`: `""` when it has none, `/` for a file at the root.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// `path` with empty and `.` components dropped and `a/..` folded; leading `..` of a
    /// relative path are kept, `..` above the root is dropped.
    static func normalized(_ path: String) -> String {
        let absolute = path.hasPrefix("/")
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                if let last = parts.last, last != ".." {
                    parts.removeLast()
                    continue
                }
                if absolute { continue }
            }
            parts.append(part)
        }
        let joined = parts.joined(separator: "/")
        if absolute { return "/" + joined }
        return joined.isEmpty ? "." : joined
    }

    /// The absolute path `target` written relative to the absolute folder `base`.
    static func relative(_ target: String, from base: String) -> String {
        let to = target.split(separator: "/")
        let from = base.split(separator: "/")
        var common = 0
        while common < to.count, common < from.count, to[common] == from[common] { common += 1 }
        let ups = Array(repeating: "..", count: from.count - common)
        let rest = to[common...].map(String.init)
        let parts = ups + rest
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    private static func workingDirectory() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "." }
        return String(nulTerminated: buffer)
    }
}

extension PathArithmetic {
    /// `path` as the file system resolves it: absolute, with every symbolic link of an
    /// existing folder followed and each `..` taken from the folder it is really in. The
    /// components that do not exist yet are appended as written (`.` dropped, `..` taking
    /// the parent). Used to decide whether an output lies inside a folder.
    static func physical(_ path: String) -> String {
        let start = path.hasPrefix("/") ? "/" : workingDirectoryPath()
        var resolved = realPath(start) ?? start
        var exists = true
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == ".." {
                resolved = folder(of: resolved).isEmpty ? "/" : folder(of: resolved)
                continue
            }
            let next = resolved == "/" ? "/" + part : resolved + "/" + part
            if exists, let real = realPath(next) {
                resolved = real
            } else {
                exists = false
                resolved = next
            }
        }
        return resolved
    }

    /// Whether the absolute, physical `path` is `folder` or lies below it.
    static func isInside(_ path: String, folder: String) -> Bool {
        folder == "/" || path == folder || path.hasPrefix(folder + "/")
    }

    private static func realPath(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func workingDirectoryPath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return "/" }
        return String(nulTerminated: buffer)
    }
}
