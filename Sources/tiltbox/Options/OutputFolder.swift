import Foundation
@_spi(Tools) import Tiltbox

/// Checks, before a command runs, that each output file it was given can be created:
/// its folder exists and is a folder. A missing folder is bad input (exit 2, the path
/// named), found before a long run rather than after it.
enum OutputFolder {
    /// Throws an `InputError` naming `path` and `option` when the folder `path` would be
    /// created in does not exist or is not a folder. Standard output (`-`) passes.
    static func require(_ path: String?, option: String) throws(InputError) {
        guard let path, path != "-" else { return }
        let folder: String
        if let slash = path.lastIndex(of: "/") {
            folder = slash == path.startIndex ? "/" : String(path[..<slash])
        } else {
            folder = "."
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else {
            throw InputError(file: path, reason: "cannot write \(option) here: the folder \(folder) does not exist")
        }
        guard isDirectory.boolValue else {
            throw InputError(file: path, reason: "cannot write \(option) here: \(folder) is not a folder")
        }
    }
}
