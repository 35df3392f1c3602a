import CCairo
import EaselModel

/// Straight-alpha RGBA8 pixels, row by row: a decoded PNG or a raster
/// render. Tests read pixels from it; library users can too.
public struct RasterImage: Sendable {
    public var width: Int
    public var height: Int
    /// `width * height * 4` bytes: r, g, b, a (not premultiplied).
    public var rgba: [UInt8]

    public struct Pixel: Hashable, Sendable, CustomStringConvertible {
        public var r, g, b, a: UInt8
        public init(r: UInt8, g: UInt8, b: UInt8, a: UInt8) { self.r = r; self.g = g; self.b = b; self.a = a }
        public var description: String { "rgba(\(r), \(g), \(b), \(a))" }
    }

    public func pixel(_ x: Int, _ y: Int) -> Pixel {
        let i = (y * width + x) * 4
        return Pixel(r: rgba[i], g: rgba[i + 1], b: rgba[i + 2], a: rgba[i + 3])
    }

    public init(width: Int, height: Int, rgba: [UInt8]) {
        precondition(rgba.count == width * height * 4, "width × height × 4 bytes")
        self.width = width; self.height = height; self.rgba = rgba
    }

    /// Decodes PNG bytes with Cairo.
    public init(png bytes: [UInt8]) throws {
        guard let surface = ByteSource.decodePNG(bytes) else {
            throw DiagnosticsError([Diagnostic(.error, .cannotDecodePNG("<bytes>"), at: nil)])
        }
        defer { cairo_surface_destroy(surface) }
        self.init(surface: surface)
    }

    /// Copies an image surface (ARGB32 or RGB24), unpremultiplying.
    init(surface: OpaquePointer) {
        cairo_surface_flush(surface)
        width = Int(cairo_image_surface_get_width(surface))
        height = Int(cairo_image_surface_get_height(surface))
        let stride = Int(cairo_image_surface_get_stride(surface))
        let hasAlpha = cairo_image_surface_get_format(surface) == CAIRO_FORMAT_ARGB32
        var out = [UInt8](repeating: 0, count: width * height * 4)
        if let data = cairo_image_surface_get_data(surface) {
            for y in 0..<height {
                // Cairo's rows are 4-byte aligned native-endian 32-bit pixels.
                let row = UnsafeRawPointer(data + y * stride)
                for x in 0..<width {
                    let v = row.load(fromByteOffset: 4 * x, as: UInt32.self)
                    let a = hasAlpha ? UInt32(v >> 24) : 255
                    var r = (v >> 16) & 0xff, g = (v >> 8) & 0xff, b = v & 0xff
                    if a > 0 && a < 255 {
                        r = min(255, (r * 255 + a / 2) / a)
                        g = min(255, (g * 255 + a / 2) / a)
                        b = min(255, (b * 255 + a / 2) / a)
                    }
                    let i = (y * width + x) * 4
                    out[i] = UInt8(r); out[i + 1] = UInt8(g); out[i + 2] = UInt8(b); out[i + 3] = UInt8(a)
                }
            }
        }
        rgba = out
    }
}

extension RasterImage {
    /// Encodes as PNG (through Cairo), e.g. to save a failed comparison.
    public func pngData() throws -> [UInt8] {
        guard let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height)) else {
            throw DiagnosticsError([Diagnostic(.error, .cannotAllocateImage(width, height), at: nil)])
        }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        let stride = Int(cairo_image_surface_get_stride(surface))
        if let data = cairo_image_surface_get_data(surface) {
            for y in 0..<height {
                let row = UnsafeMutableRawPointer(data + y * stride)
                for x in 0..<width {
                    let i = (y * width + x) * 4
                    let a = UInt32(rgba[i + 3])
                    func pre(_ v: UInt8) -> UInt32 { (UInt32(v) * a + 127) / 255 }
                    row.storeBytes(of: a << 24 | pre(rgba[i]) << 16 | pre(rgba[i + 1]) << 8 | pre(rgba[i + 2]),
                                   toByteOffset: 4 * x, as: UInt32.self)
                }
            }
        }
        cairo_surface_mark_dirty(surface)
        let (status, bytes) = ByteSink.collect { cairo_surface_write_to_png_stream(surface, ByteSink.write, $0) }
        guard status == CAIRO_STATUS_SUCCESS else {
            throw DiagnosticsError([Diagnostic(.error, .cairoFailed(String(cString: cairo_status_to_string(status))), at: nil)])
        }
        return bytes
    }
}
