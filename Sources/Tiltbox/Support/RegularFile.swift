#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The check input readers make before opening a path: that it names a regular file.
///
/// Opening a FIFO for reading blocks until some process opens it for writing, `/dev/zero`
/// never ends and a terminal waits for typing; a scenario, a tilt file or a recording
/// inside an export folder is none of these, so they are refused at once. `stat`
/// follows symbolic links, so a link to a regular file is accepted.
enum RegularFile {
    /// The size in bytes of the regular file at `path`.
    ///
    /// - Throws: `InputError` naming `path`: "no such file", or "is not a regular file
    ///   (a FIFO)" and the like. Directories are for the caller to tell apart first.
    static func size(of path: String) throws(InputError) -> UInt64 {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT { throw InputError(file: path, reason: "no such file") }
            throw InputError(file: path, reason: "cannot read the file's attributes: \(String(cString: strerror(code)))")
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw InputError(file: path, reason: "is not a regular file (\(kind(type)))")
        }
        return UInt64(info.st_size)
    }

    private static func kind(_ type: mode_t) -> String {
        switch type {
        case S_IFIFO: return "a FIFO"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFSOCK: return "a socket"
        case S_IFDIR: return "a directory"
        default: return "an unknown file type"
        }
    }
}
