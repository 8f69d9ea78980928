#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Refuses, before anything is written, an output path that is the same file as one of a
/// command's inputs or as another of its outputs (`run s.json --trace s.json`,
/// `--trace X --html X`, `render v.jsonl --svg v.jsonl`).
///
/// Files are compared as the system knows them, by device and inode (`stat`, following
/// symbolic links), so a hard link, a symbolic link or `./s.json` for `s.json` all count as
/// the same file. An output that does not exist yet is compared with the other outputs by
/// its folder's device and inode and its name. Outputs that exist and are not regular
/// files (`/dev/null`, `/dev/full`, a FIFO) hold nothing to lose and are not compared;
/// neither is `-`, standard output.
///
/// Use: `input(_:as:)` for every file the command reads, then `output(_:as:)` for every
/// file it writes, before writing any of them.
@_spi(Tools) public struct OverwriteCheck: Sendable {
    /// The first file noted for each identity, by identity: `tiltbox test` notes thousands of
    /// scenarios and pictures, so a lookup must not walk the others.
    private var inputs: [FileIdentity: (path: String, role: String)] = [:]
    private var outputs: [FileIdentity: (path: String, role: String)] = [:]

    /// A check that has noted no file yet.
    public init() {}

    /// Notes a file the command reads (`nil`, `-` or a path that does not exist are ignored).
    /// - Parameters:
    ///   - path: the input's path as given.
    ///   - role: how messages name it: `the scenario`, `the tilt file`.
    public mutating func input(_ path: String?, as role: String) {
        guard let path, path != "-", let identity = FileIdentity(existing: path) else { return }
        if inputs[identity] == nil { inputs[identity] = (path, role) }
    }

    /// Checks a file the command will write, then notes it.
    /// - Parameters:
    ///   - path: the output's path as given.
    ///   - role: how messages name it: `--trace`, `--html`.
    /// - Throws: `InputError` naming the output when it is the same file as a noted input
    ///   or output; the command line exits 2 and nothing has been written.
    public mutating func output(_ path: String?, as role: String) throws(InputError) {
        guard let path, path != "-", let identity = FileIdentity(output: path) else { return }
        if let input = inputs[identity] {
            throw InputError(
                file: path,
                reason: "\(role) is the same file as \(input.role) (\(input.path)); "
                    + "an output never overwrites an input: write it elsewhere")
        }
        if let other = outputs[identity] {
            throw InputError(
                file: path,
                reason: "\(role) is the same file as \(other.role) (\(other.path)); "
                    + "give each output its own file")
        }
        outputs[identity] = (path, role)
    }
}

/// A file as the system knows it: device and inode, or for a file not created yet, its
/// folder's device and inode and its name.
struct FileIdentity: Hashable, Sendable {
    var device: UInt64
    var inode: UInt64
    /// The name inside the folder `device`/`inode`, for a file that does not exist yet.
    var name: String?

    /// The identity of an existing file (symbolic links followed), else `nil`.
    init?(existing path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        self.init(info, name: nil)
    }

    /// The identity of an output path: the file it names when that is a regular file,
    /// its folder and name when it does not exist yet, `nil` for anything else (a device,
    /// a FIFO) or when the folder cannot be read either (the write will report that).
    init?(output path: String) {
        var info = stat()
        if stat(path, &info) == 0 {
            guard info.st_mode & S_IFMT == S_IFREG else { return nil }
            self.init(info, name: nil)
            return
        }
        let slash = path.lastIndex(of: "/")
        let folder = slash.map { $0 == path.startIndex ? "/" : String(path[..<$0]) } ?? "."
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        guard stat(folder, &info) == 0 else { return nil }
        self.init(info, name: name)
    }

    private init(_ info: stat, name: String?) {
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
        self.name = name
    }
}
