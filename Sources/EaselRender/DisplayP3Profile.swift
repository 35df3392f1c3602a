import CDeflate
import EaselModel

/// A Display P3 ICC profile written by Easel (ICC.1:2022, version 4.3):
/// the CSS Color 4 primaries and D65 white (`DisplayP3.linearP3ToXYZ`)
/// adapted to the profile connection space's D50 with the Bradford
/// transform (recorded in `chad`, so readers recover D65), and sRGB's
/// transfer curve as one parametric curve shared by the three channels.
/// 532 bytes (307 compressed in a PNG's `iCCP`), where Apple's
/// `Display P3.icc` is 536 and a table-based curve would be several KB.
/// LittleCMS reads it (Tests: `WideColorOutputTests`).
public enum DisplayP3Profile {
    public static let bytes: [UInt8] = build()

    /// ICC's D50 (the profile connection space's white), as the header writes it.
    static let d50 = [0.9642, 1.0, 0.8249]
    /// D65 as CSS Color 4 gives it: x 0.3127, y 0.3290.
    static let d65 = [0.3127 / 0.3290, 1.0, (1 - 0.3127 - 0.3290) / 0.3290]

    static let bradford: [[Double]] = [[0.8951, 0.2664, -0.1614], [-0.7502, 1.7135, 0.0367], [0.0389, -0.0685, 1.0296]]

    /// Bradford chromatic adaptation from D65 to D50.
    static var chad: [[Double]] {
        let inverse = invert(bradford)
        let src = DisplayP3.multiply(bradford, d65), dst = DisplayP3.multiply(bradford, d50)
        let scale = [[dst[0] / src[0], 0, 0], [0, dst[1] / src[1], 0], [0, 0, dst[2] / src[2]]]
        return DisplayP3.product(inverse, DisplayP3.product(scale, bradford))
    }

    static func build() -> [UInt8] {
        let adapted = DisplayP3.product(chad, DisplayP3.linearP3ToXYZ)
        let column = { (i: Int) in [adapted[0][i], adapted[1][i], adapted[2][i]] }
        // sRGB: Y = ((X + 0.055) / 1.055)^2.4 above 0.04045, X / 12.92 below (ICC function type 3).
        let curve = tag("para", [0, 3, 0, 0] + [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045].flatMap(s15))
        var tags: [(String, [UInt8])] = [
            ("desc", text("Display P3")),
            ("cprt", text("No copyright, use freely")),
            ("wtpt", xyz(d50)),
            ("rXYZ", xyz(column(0))), ("gXYZ", xyz(column(1))), ("bXYZ", xyz(column(2))),
            ("rTRC", curve),
            ("chad", tag("sf32", chad.flatMap { $0.flatMap(s15) })),
        ]
        tags.sort { $0.0 < $1.0 }
        // The tag table, then each tag's data at a four-byte boundary;
        // gTRC and bTRC share rTRC's data.
        let entries = tags.count + 2
        var data: [UInt8] = []
        var table: [(String, Int, Int)] = []
        let dataStart = 128 + 4 + 12 * entries
        for (signature, body) in tags {
            table.append((signature, dataStart + data.count, body.count))
            data += body
            while data.count % 4 != 0 { data.append(0) }
        }
        let trc = table.first { $0.0 == "rTRC" }!
        table += [("gTRC", trc.1, trc.2), ("bTRC", trc.1, trc.2)]
        var tableBytes = be32(UInt32(entries))
        for (signature, offset, size) in table { tableBytes += Array(signature.utf8) + be32(UInt32(offset)) + be32(UInt32(size)) }

        let size = dataStart + data.count
        var header = be32(UInt32(size))
        header += [0, 0, 0, 0]                            // preferred CMM: none
        header += [0x04, 0x30, 0, 0]                      // version 4.3
        header += Array("mntr".utf8) + Array("RGB ".utf8) + Array("XYZ ".utf8)
        header += [2024, 1, 1, 0, 0, 0].flatMap { be16(UInt16($0)) }   // a fixed date: the same bytes every build
        header += Array("acsp".utf8)
        header += [UInt8](repeating: 0, count: 4 + 4 + 4 + 4 + 8)   // platform, flags, manufacturer, model, attributes
        header += be32(0)                                  // rendering intent: perceptual
        header += d50.flatMap(s15)
        header += [UInt8](repeating: 0, count: 4 + 16 + 28)   // creator, profile ID (not computed), reserved
        precondition(header.count == 128)
        return header + tableBytes + data
    }

    /// A tag's data: its type signature, four reserved bytes, the body.
    static func tag(_ type: String, _ body: [UInt8]) -> [UInt8] { Array(type.utf8) + [0, 0, 0, 0] + body }

    static func xyz(_ v: [Double]) -> [UInt8] { tag("XYZ ", v.flatMap(s15)) }

    /// `multiLocalizedUnicodeType` with one en-US record.
    static func text(_ s: String) -> [UInt8] {
        let utf16 = s.utf16.flatMap { be16($0) }
        return tag("mluc", be32(1) + be32(12) + Array("enUS".utf8) + be32(UInt32(utf16.count)) + be32(28) + utf16)
    }

    /// s15Fixed16Number, rounded to the nearest 1/65536.
    static func s15(_ v: Double) -> [UInt8] { be32(UInt32(bitPattern: Int32((v * 65536).rounded()))) }

    static func be32(_ v: UInt32) -> [UInt8] { PNGChunks.be32(v) }
    static func be16(_ v: UInt16) -> [UInt8] { PNGChunks.be16(v) }

    static func invert(_ m: [[Double]]) -> [[Double]] {
        let (a, b, c) = (m[0][0], m[0][1], m[0][2]), (d, e, f) = (m[1][0], m[1][1], m[1][2]), (g, h, i) = (m[2][0], m[2][1], m[2][2])
        let det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)
        return [[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
                [(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
                [(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det]]
    }

    /// The profile zlib-compressed, for PNG's `iCCP` and PDF's stream.
    public static let compressed: [UInt8] = {
        guard let compressor = libdeflate_alloc_compressor(12) else { return [] }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, bytes.count)
        var out = [UInt8](repeating: 0, count: bound)
        let n = bytes.withUnsafeBytes { src in
            out.withUnsafeMutableBytes { libdeflate_zlib_compress(compressor, src.baseAddress, bytes.count, $0.baseAddress, bound) }
        }
        return Array(out.prefix(n))
    }()
}

extension PNGChunks {
    /// The chunks that say what a PNG's colours mean, after `IHDR`:
    /// `sRGB` (13 bytes, rendering intent perceptual) for sRGB, and for
    /// Display P3 a `cICP` (colour primaries 12, SMPTE EG 432-1 / P3-D65;
    /// transfer 13, sRGB's; RGB; full range) with the profile in `iCCP`
    /// for readers that do not know `cICP` yet. No `gAMA`/`cHRM`: PNG
    /// Third Edition readers take `sRGB`/`cICP` over them, and older ones
    /// treat an untagged PNG as sRGB anyway.
    static func colorChunks(_ space: SceneColorSpace, to out: inout [UInt8]) {
        switch space {
        case .srgb:
            append("sRGB", [0], to: &out)
        case .displayP3:
            append("cICP", [12, 13, 0, 1], to: &out)
            append("iCCP", Array("Display P3".utf8) + [0, 0] + DisplayP3Profile.compressed, to: &out)
        }
    }

    /// Chunk types `colorChunks` writes (an APNG keeps its first frame's).
    static let colorChunkTypes: Set<String> = ["sRGB", "cICP", "iCCP"]
}
