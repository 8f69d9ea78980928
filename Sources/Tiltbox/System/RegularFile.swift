internal import CFileSystem
import Foundation

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
            throw InputError(
                file: path, reason: "cannot read the file's attributes: \(String(cString: strerror(code)))")
        }
        let type = info.st_mode & S_IFMT
        guard type == S_IFREG else {
            throw InputError(file: path, reason: "is not a regular file (\(kind(type)))")
        }
        var system = statfs()
        if statfs(path, &system) == 0 { try refuseKernelFileSystem(system, path: path) }
        return UInt64(info.st_size)
    }

    /// The kernel's own file systems, by `statfs`'s `f_type` (linux/magic.h): their "files"
    /// are views of the running system (`/proc/self/environ` holds the environment, CI
    /// secrets included), never a scenario, tilt file or trace, and their sizes are not
    /// their contents'.
    static let kernelFileSystems: [Int: String] = [
        0x9FA0: "proc", 0x6265_6572: "sysfs", 0x6462_6720: "debugfs", 0x7363_6673: "securityfs",
        0x0027_E0EB: "cgroup", 0x6367_7270: "cgroup2", 0x7472_6163: "tracefs", 0x6265_6570: "configfs",
        0xCAFE_4A11: "bpf", 0x6165_676C: "pstore", 0xDE5E_81E4: "efivarfs", 0x1CD1: "devpts",
        0xF97C_FF8C: "selinuxfs", 0x6573_5543: "fusectl", 0x4249_4E4D: "binfmt_misc", 0x5346_414F: "openpromfs",
    ]

    /// Refuses a file on one of `kernelFileSystems`, as `statfs` or `fstatfs` described it.
    static func refuseKernelFileSystem(_ system: statfs, path: String) throws(InputError) {
        if let name = kernelFileSystems[Int(system.f_type)] {
            throw InputError(file: path, reason: "is a file of the kernel's \(name) file system, not an input file")
        }
    }

    /// The whole regular file at `path`, at most `maxBytes` long: the one way input
    /// readers (scenarios, tilt files, keyframes, frame files) read a file.
    ///
    /// The file is checked from its attributes before it is opened (so a FIFO, a device
    /// or a 10 GB file fail at once), and read to one byte past the cap so that a file
    /// that grew since the check is refused too.
    ///
    /// - Parameter tooLarge: the reason given for a file of the size it is given.
    /// - Throws: `InputError` naming `path`.
    static func read(_ path: String, maxBytes: Int, tooLarge: (UInt64) -> String) throws(InputError) -> Data {
        let size = try self.size(of: path)
        guard size <= UInt64(maxBytes) else { throw InputError(file: path, reason: tooLarge(size)) }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw InputError(file: path, reason: "cannot open the file")
        }
        defer { try? handle.close() }
        let data: Data
        do {
            data = try handle.read(upToCount: maxBytes + 1) ?? Data()
        } catch {
            throw InputError(file: path, reason: "cannot read the file: \(error.localizedDescription)")
        }
        guard data.count <= maxBytes else { throw InputError(file: path, reason: tooLarge(UInt64(data.count))) }
        return data
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
