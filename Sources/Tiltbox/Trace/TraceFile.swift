#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where a trace's bytes go, and how the file appears at its path.
///
/// A regular file (or a path that does not exist yet) is written under a temporary name
/// beside it, `.NAME.tiltbox-XXXXXX`, and renamed into place when the trace is closed, so
/// an existing trace is replaced whole or not at all: a run killed outright leaves the
/// old trace and the temporary file. Standard output (`-`) and anything that is not a
/// regular file (`/dev/full`, a FIFO, a terminal) are written directly — renaming over a
/// device would be wrong.
struct TraceFile {
    /// The path the user named (`-` for standard output).
    let path: String
    /// The temporary file being written, renamed to `path` by `publish()`.
    let temporaryPath: String?
    private(set) var fd: Int32
    /// False for standard output, which the writer never closes.
    let ownsDescriptor: Bool

    /// Opens the destination of `path` for writing.
    static func open(_ path: String) throws(TraceWriteError) -> TraceFile {
        if path == "-" {
            return TraceFile(path: path, temporaryPath: nil, fd: STDOUT_FILENO, ownsDescriptor: false)
        }
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            let fd = retrying { Glibc.open(path, O_WRONLY | O_TRUNC | O_CLOEXEC) }
            guard fd >= 0 else { throw TraceWriteError(path: path, operation: "create", code: errno) }
            return TraceFile(path: path, temporaryPath: nil, fd: fd, ownsDescriptor: true)
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        var template = Array("\(folder).\(name).tiltbox-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else { throw TraceWriteError(path: path, operation: "create", code: errno) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        fchmod(fd, 0o644) // mkstemp makes 0600; a trace is as readable as any file the user writes
        let temporary = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return TraceFile(path: path, temporaryPath: temporary, fd: fd, ownsDescriptor: true)
    }

    private static func retrying(_ call: () -> Int32) -> Int32 {
        var result: Int32
        repeat { result = call() } while result < 0 && errno == EINTR
        return result
    }

    /// Closes the descriptor (never standard output); returns the error close reported.
    mutating func close() -> TraceWriteError? {
        guard ownsDescriptor, fd >= 0 else { return nil }
        // Linux: the descriptor is released even when close reports EINTR; do not retry.
        let result = Glibc.close(fd)
        let code = errno
        fd = -1
        guard result < 0, code != EINTR else { return nil }
        return TraceWriteError(path: path, operation: "close", code: code)
    }

    /// Closes the file and moves the temporary file to `path`.
    mutating func publish() -> TraceWriteError? {
        if let error = close() { discard(); return error }
        guard let temporaryPath else { return nil }
        guard rename(temporaryPath, path) == 0 else {
            let error = TraceWriteError(path: path, operation: "rename", code: errno)
            discard()
            return error
        }
        return nil
    }

    /// Closes the file and removes the temporary file, leaving `path` as it was.
    mutating func discard() {
        _ = close()
        if let temporaryPath { unlink(temporaryPath) }
    }
}
