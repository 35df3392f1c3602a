import CCairo
import CDeflate
import EaselModel

/// How hard PNG output is compressed (`--png-compression`). Chosen by
/// `bench/run --only encoders`: each candidate's size and instructions on
/// the benchmark's frames beside resvg's files (docs/benchmarks.md, "PNG
/// encoding").
public enum PNGCompression: String, Sendable, CaseIterable {
    /// libdeflate level 1, every row filtered with Up, whatever the alpha:
    /// the default's encoding for opaque images, and for images with
    /// transparency about half the encoder instructions of the default's,
    /// files 10–30% larger.
    case fast
    /// Opaque images: libdeflate level 1, every row filtered with Up. Images
    /// written with an alpha channel (translucent ones; an animation's
    /// frames when any has transparency, as its frames share one header):
    /// level 3, every row filtered with Paeth (the benchmark's translucent
    /// animation frame: Up's file 21% larger, level 1's 12%). Level 1 for opaque images since issue 58: about half
    /// the deflate instructions of level 3, files about 10% larger — still
    /// smaller than resvg's file (the `png` crate at its default level) on
    /// every benchmark frame (card 2%, Flo graph 1%, gradient gallery 43%,
    /// text card 67%), but for dithered slow gradients (whose resvg picture
    /// has the bands dithering removes). Choosing each row's filter cost
    /// half as much again for 2%; level 2 costs about what level 3 does
    /// (`bench/run --only encoders`, docs/benchmarks.md "PNG encoding").
    case `default`
    /// libdeflate's strongest level (12), each row's filter chosen by
    /// libpng's heuristic: many times slower, 20–50% smaller.
    case small

    /// The libdeflate level for an image with or without an alpha channel.
    func level(alpha: Bool) -> Int32 {
        switch self {
        case .fast: return 1
        case .default: return alpha ? 3 : 1
        case .small: return 12
        }
    }

    /// What decides this setting's bytes — level and row filter without and
    /// with alpha, and libdeflate's version — for a build's record: outputs
    /// a build wrote with another encoding are written again.
    public var encoding: String {
        func part(_ alpha: Bool) -> String { "\(level(alpha: alpha))/\(rowFilter(alpha: alpha).map(String.init) ?? "chosen")" }
        return "\(rawValue) \(part(false)) \(part(true)) libdeflate \(LIBDEFLATE_VERSION_STRING)"
    }

    /// The one filter type for every row (PNG filter 2 Up, 4 Paeth), or
    /// nil: choose per row.
    func rowFilter(alpha: Bool) -> UInt8? {
        switch self {
        case .fast: return 2
        case .default: return alpha ? 4 : 2
        case .small: return nil
        }
    }
}

/// How a render encodes PNG output.
public struct PNGSettings: Sendable, Hashable {
    public var compression: PNGCompression
    /// RGBA even when every pixel is opaque: the frames of an animated PNG
    /// share one header.
    public var keepAlpha: Bool
    public init(compression: PNGCompression = .default, keepAlpha: Bool = false) {
        self.compression = compression
        self.keepAlpha = keepAlpha
    }
}

/// PNG bytes from a painted `RasterCanvas`: Cairo's premultiplied ARGB32
/// unpremultiplied once, row filters applied in place in the canvas's own
/// buffer, the zlib stream from libdeflate, the chunks written here. The
/// canvas's pixels are used up. Opaque images are written as RGB (colour
/// type 2), others as RGBA (6), 8 bits per channel, with the chunks that
/// tag the colour space (`PNGChunks.colorChunks`) and no others; the pixel
/// values are those Cairo's writer gave.
enum PNGEncoder {
    static func encode(_ canvas: RasterCanvas, compression: PNGCompression, keepAlpha: Bool = false,
                       colorSpace: SceneColorSpace = .srgb) -> [UInt8]? {
        cairo_surface_flush(canvas.surface)
        let width = canvas.width, height = canvas.height
        // Rows are rewritten in place below, which needs tightly packed ARGB32.
        precondition(canvas.stride == width * 4 && canvas.capacity >= canvas.stride * height + height)
        let base = canvas.pixels.assumingMemoryBound(to: UInt8.self)
        let channels = keepAlpha || !isOpaque(canvas) ? 4 : 3
        let rowBytes = width * channels

        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: rowBytes * 7)
        defer { scratch.deallocate() }
        scratch.initialize(repeating: 0, count: rowBytes * 7)
        var current = scratch, previous = scratch + rowBytes
        let zeroRow = scratch + 2 * rowBytes, candidates = scratch + 3 * rowBytes
        func straighten(_ y: Int, into row: UnsafeMutablePointer<UInt8>) {
            let pixels = UnsafeRawPointer(base + y * canvas.stride).assumingMemoryBound(to: UInt32.self)
            if channels == 3 {
                opaqueRGB(pixels, count: width, into: row)
            } else {
                unpremultiply(pixels, count: width, channels: channels, into: row)
            }
        }
        func emit(_ y: Int) {
            let out = base + y * (rowBytes + 1)
            let above = y == 0 ? UnsafePointer(zeroRow) : UnsafePointer(previous)
            if let type = compression.rowFilter(alpha: channels == 4) {
                out[0] = type
                filter(type, UnsafePointer(current), above, rowBytes, channels, out + 1)
            } else {
                out[0] = choose(UnsafePointer(current), above, rowBytes, channels, candidates, out + 1)
            }
        }
        // Row y's filtered bytes land at y·(rowBytes + 1). Three channels
        // pack tighter than the four they came from, so rows go top-down
        // (each lands at or before its source); four channels spread out by
        // one byte a row, so rows go bottom-up (each lands after the rows
        // still to be read). The row above is kept straightened in scratch.
        if channels == 3 {
            for y in 0..<height {
                swap(&current, &previous)
                straighten(y, into: current)
                emit(y)
            }
        } else if height > 0 {
            straighten(height - 1, into: current)
            for y in stride(from: height - 1, through: 0, by: -1) {
                if y > 0 { straighten(y - 1, into: previous) }
                emit(y)
                swap(&current, &previous)
            }
        }

        let filteredCount = height * (rowBytes + 1)
        guard let compressor = libdeflate_alloc_compressor(compression.level(alpha: channels == 4)) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, filteredCount)
        // Pages the compressor does not write are never touched: the bound
        // costs address space, not memory.
        let compressed = UnsafeMutablePointer<UInt8>.allocate(capacity: bound)
        defer { compressed.deallocate() }
        let size = libdeflate_zlib_compress(compressor, base, filteredCount, compressed, bound)
        guard size > 0 else { return nil }

        var png: [UInt8] = []
        png.reserveCapacity(size + 64 + size / maxChunk * 12)
        png += PNGChunks.signature
        PNGChunks.append("IHDR", PNGChunks.be32(UInt32(width)) + PNGChunks.be32(UInt32(height))
                         + [8, channels == 4 ? 6 : 2, 0, 0, 0], to: &png)
        PNGChunks.colorChunks(colorSpace, to: &png)
        var offset = 0
        repeat {
            let n = min(maxChunk, size - offset)
            PNGChunks.append("IDAT", UnsafeBufferPointer(start: compressed + offset, count: n), to: &png)
            offset += n
        } while offset < size
        PNGChunks.append("IEND", [], to: &png)
        return png
    }

    /// IDAT chunks of at most 1 MiB: any size up to 2³¹−1 is valid, but
    /// some readers allocate a whole chunk at once.
    static let maxChunk = 1 << 20

    static func isOpaque(_ canvas: RasterCanvas) -> Bool {
        for y in 0..<canvas.height {
            let row = UnsafeRawPointer(canvas.pixels + y * canvas.stride).assumingMemoryBound(to: UInt32.self)
            var all: UInt32 = 0xFFFF_FFFF
            for x in 0..<canvas.width { all &= row[x] }
            if all >> 24 != 0xFF { return false }
        }
        return true
    }

    /// RGB from opaque native-endian ARGB32 (written as RGB only when every
    /// pixel is opaque): nothing to unpremultiply, one pass without a branch.
    @inline(__always)
    static func opaqueRGB(_ row: UnsafePointer<UInt32>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        for x in 0..<count {
            let p = row[x]
            let o = out + x &* 3
            o[0] = UInt8(truncatingIfNeeded: p >> 16); o[1] = UInt8(truncatingIfNeeded: p >> 8); o[2] = UInt8(truncatingIfNeeded: p)
        }
    }

    /// Straight RGB(A) from premultiplied native-endian ARGB32, rounding as
    /// Cairo's writer did: c · 255 / a, to nearest.
    @inline(__always)
    static func unpremultiply(_ row: UnsafePointer<UInt32>, count: Int, channels: Int, into out: UnsafeMutablePointer<UInt8>) {
        var o = out
        for x in 0..<count {
            let p = row[x]
            let a = p >> 24
            var r = (p >> 16) & 0xFF, g = (p >> 8) & 0xFF, b = p & 0xFF
            if a != 0xFF {
                if a == 0 {
                    r = 0; g = 0; b = 0
                } else {
                    r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a
                }
            }
            o[0] = UInt8(truncatingIfNeeded: r); o[1] = UInt8(truncatingIfNeeded: g); o[2] = UInt8(truncatingIfNeeded: b)
            if channels == 4 { o[3] = UInt8(truncatingIfNeeded: a) }
            o += channels
        }
    }

    /// The filter type (0–4) whose output has the least sum of absolute
    /// values (bytes read as signed), as libpng chooses; written to `out`.
    static func choose(_ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ n: Int, _ bpp: Int,
                       _ candidate: UnsafeMutablePointer<UInt8>, _ out: UnsafeMutablePointer<UInt8>) -> UInt8 {
        filter(0, row, above, n, bpp, out)
        var best = signedMagnitudeSum(out, n)
        var chosen: UInt8 = 0
        for type in 1...4 {
            filter(UInt8(type), row, above, n, bpp, candidate)
            let sum = signedMagnitudeSum(candidate, n)
            if sum < best {
                best = sum
                chosen = UInt8(type)
                out.update(from: candidate, count: n)
            }
        }
        return chosen
    }

    /// Applies one PNG filter (None, Sub, Up, Average, Paeth) to a row.
    /// Each filter is its own plain loop so the compiler vectorizes it.
    static func filter(_ type: UInt8, _ row: UnsafePointer<UInt8>, _ above: UnsafePointer<UInt8>, _ n: Int, _ bpp: Int,
                       _ out: UnsafeMutablePointer<UInt8>) {
        let head = min(bpp, n)
        switch type {
        case 0:
            out.update(from: row, count: n)
        case 1:
            for i in 0..<head { out[i] = row[i] }
            for i in head..<n { out[i] = row[i] &- row[i &- bpp] }
        case 2:
            for i in 0..<n { out[i] = row[i] &- above[i] }
        case 3:
            for i in 0..<head { out[i] = row[i] &- above[i] >> 1 }
            for i in head..<n { out[i] = row[i] &- UInt8(truncatingIfNeeded: (UInt16(row[i &- bpp]) &+ UInt16(above[i])) >> 1) }
        default:
            for i in 0..<head { out[i] = row[i] &- above[i] }
            for i in head..<n { out[i] = row[i] &- paeth(row[i &- bpp], above[i], above[i &- bpp]) }
        }
    }

    @inline(__always)
    static func signedMagnitudeSum(_ bytes: UnsafePointer<UInt8>, _ n: Int) -> Int {
        var sum: UInt32 = 0
        var i = 0
        // Blocks small enough that a 32-bit sum cannot overflow (128 · 2²⁴).
        var total = 0
        while i < n {
            let end = min(n, i &+ (1 << 24))
            sum = 0
            for j in i..<end {
                let v = Int32(Int8(bitPattern: bytes[j]))
                sum &+= UInt32(bitPattern: (v ^ (v >> 31)) &- (v >> 31))
            }
            total &+= Int(sum)
            i = end
        }
        return total
    }

    /// The Paeth predictor without branches: pa = |b − c|, pb = |a − c|,
    /// pc = |a + b − 2c|; ties prefer a, then b.
    @inline(__always)
    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let ia = Int16(a), ib = Int16(b), ic = Int16(c)
        let pa = abs(ib &- ic), pb = abs(ia &- ic), pc = abs(ia &+ ib &- 2 &* ic)
        let ab = pb < pa ? b : a
        return pc < min(pa, pb) ? c : ab
    }
}

/// PNG's chunk layout: length, type, data, CRC-32 of type and data.
public enum PNGChunks {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    static func append<Data: Collection<UInt8>>(_ type: String, _ data: Data, to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out += be32(UInt32(data.count))
        out += typeBytes
        out += data
        var crc = typeBytes.withUnsafeBufferPointer { libdeflate_crc32(0, $0.baseAddress, $0.count) }
        // libdeflate_crc32 given no buffer returns the initial value, not `crc`.
        if !data.isEmpty {
            crc = data.withContiguousStorageIfAvailable { libdeflate_crc32(crc, $0.baseAddress, $0.count) }
                ?? Array(data).withUnsafeBufferPointer { libdeflate_crc32(crc, $0.baseAddress, $0.count) }
        }
        out += be32(crc)
    }

    /// The colour type in a PNG's header (2 RGB, 6 RGBA), nil if too short.
    /// IHDR's colour type of an RGB image without alpha (an opaque one, as the encoder writes it).
    public static let rgbColorType: UInt8 = 2

    public static func colorType(of png: [UInt8]) -> UInt8? {
        // Signature 8, IHDR length and type 8, width and height 8, bit depth 1.
        png.count > 25 ? png[25] : nil
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }
}
