import Foundation
import ZIPFoundation

/// A zip export (phyphox or Sensor Logger) opened for reading its CSV files.
///
/// Reading is capped: the zip and each entry used must be at most
/// `TiltFile.maximumFileSize` bytes, checked before any data is inflated.
struct TiltArchive {
    private let archive: Archive
    /// The zip's path as the caller named it.
    let path: String
    /// `/`-separated paths of the regular files inside.
    let filePaths: [String]

    init(path: String) throws(InputError) {
        self.path = path
        do {
            archive = try Archive(url: URL(fileURLWithPath: path), accessMode: .read, pathEncoding: nil)
        } catch {
            throw InputError(file: path, reason: "not a readable zip archive (\(error))")
        }
        filePaths = archive.filter { $0.type == .file }.map(\.path).sorted()
    }

    /// How errors name a file inside the zip: `archive.zip(inner/path.csv)`.
    func displayName(of entryPath: String) -> String { "\(path)(\(entryPath))" }

    /// The bytes of the file at `entryPath`, or `nil` when there is no such file.
    func contents(of entryPath: String) throws(InputError) -> Data? {
        guard let entry = archive[entryPath], entry.type == .file else { return nil }
        let name = displayName(of: entryPath)
        guard entry.uncompressedSize <= UInt64(TiltFile.maximumFileSize) else {
            throw InputError(file: name, reason: TiltFile.tooLargeReason(entry.uncompressedSize))
        }
        var data = Data()
        data.reserveCapacity(Int(entry.uncompressedSize))
        let checksum: CRC32
        do {
            checksum = try archive.extract(entry, skipCRC32: false) { chunk in
                // The size in the header is the zip's claim; hold inflation to the cap too.
                guard data.count + chunk.count <= TiltFile.maximumFileSize else { throw Oversized() }
                data.append(chunk)
            }
        } catch is Oversized {
            throw InputError(file: name, reason: TiltFile.tooLargeReason(UInt64(TiltFile.maximumFileSize) + 1))
        } catch {
            throw InputError(file: name, reason: "cannot read from the zip archive (\(error))")
        }
        // ZIPFoundation computes the CRC-32 of what it inflated and returns it without
        // comparing it with the one the zip records: compare here, so a corrupt entry is
        // refused rather than read as data.
        guard checksum == entry.checksum else {
            throw InputError(
                file: name,
                reason:
                    "the entry is corrupt: its CRC-32 is \(hex(checksum)) but the zip records \(hex(entry.checksum))")
        }
        return data
    }

    private struct Oversized: Error {}

    private func hex(_ value: CRC32) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 8 - digits.count)) + digits
    }
}
