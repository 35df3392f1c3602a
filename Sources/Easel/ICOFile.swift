/// A Windows icon (`.ico`) as Microsoft documents it ("Icons",
/// Win32 `ICONDIR`/`ICONDIRENTRY`): a six-byte header (reserved 0, type 1,
/// the image count), a sixteen-byte entry per image (width and height,
/// 0 meaning 256; colour count 0; reserved 0; one plane; 32 bits a
/// pixel; the image's length and offset), all little-endian, then the
/// images. Since Windows Vista an image may be a whole PNG file, which
/// every entry here is.
enum ICOFile {
    static let sizes = [16, 24, 32, 48, 64, 128, 256]

    /// `pngs`: a PNG for every one of `sizes`, by side in pixels.
    static func assemble(_ pngs: [Int: [UInt8]]) -> [UInt8] {
        let images = sizes.compactMap { side in pngs[side].map { (side, $0) } }
        var header = littleEndian16(0) + littleEndian16(1) + littleEndian16(UInt16(images.count))
        var offset = 6 + 16 * images.count
        var data: [UInt8] = []
        for (side, png) in images {
            let byte = UInt8(side >= 256 ? 0 : side)
            header += [byte, byte, 0, 0] + littleEndian16(1) + littleEndian16(32)
                + littleEndian32(UInt32(png.count)) + littleEndian32(UInt32(offset))
            offset += png.count
            data += png
        }
        return header + data
    }

    static func littleEndian16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
    static func littleEndian32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24)] }
}
