/// An Apple icon family (`.icns`), as Apple's `IconFamily` resource lays it
/// out (Icon Services' `IconFamilyResource`, `IconStorage.h`): the magic
/// `icns` and the file's length, then elements of a four-character type, a
/// big-endian length that counts the element's own eight header bytes, and
/// the data. Since macOS 10.7 the data of the types below is a PNG file.
/// The `@2x` types (ic11–ic14, ic10) carry twice the pixels of the point
/// size they stand for; a 32-pixel PNG is both 32 px @1x (icp5) and 16 pt
/// @2x (ic11), and is written under both.
enum ICNSFile {
    static let entries: [(type: String, pixels: Int)] = [
        ("icp4", 16), ("icp5", 32), ("icp6", 64), ("ic07", 128), ("ic08", 256), ("ic09", 512), ("ic10", 1024),
        ("ic11", 32), ("ic12", 64), ("ic13", 256), ("ic14", 512),
    ]

    /// `pngs`: a PNG for every size `entries` names, by side in pixels.
    static func assemble(_ pngs: [Int: [UInt8]]) -> [UInt8] {
        var body: [UInt8] = []
        for (type, pixels) in entries {
            guard let png = pngs[pixels] else { continue }
            body += Array(type.utf8) + bigEndian(UInt32(8 + png.count)) + png
        }
        return Array("icns".utf8) + bigEndian(UInt32(8 + body.count)) + body
    }

    static func bigEndian(_ v: UInt32) -> [UInt8] {
        [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
    }
}
