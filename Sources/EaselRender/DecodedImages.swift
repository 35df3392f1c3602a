import CCairo
import CPangoCairo
import Glibc
import EaselModel

/// The pixels of a scene's PNG images, decoded once per compile and shared
/// by every render of it (every scale, format and animation frame) and by
/// every thread: each render wraps the same immutable pixels in a surface
/// of its own, so nothing Cairo keeps is shared between threads.
///
/// Images are known by their bytes, not by the reference that named them:
/// two `<image>`s of one file share one decode, and no name can stand for
/// two files. Painting only looks images up: the compile decoded (and so
/// validated) every one of them, located, before any render.
public final class DecodedImages: Sendable {
    /// By `ImageSource.digest`, then bytes (the same array as the scene's,
    /// so comparing them is a pointer check).
    private let decoded = Locked<[Int: [(bytes: [UInt8], image: DecodedImage)]]>([:])
    private let decodeCount = Locked(0)
    /// The scene's colour space: PNGs (sRGB) are converted to it once, as
    /// they are decoded, so a Display P3 scene paints them as they look.
    let colorSpace: SceneColorSpace

    public init(colorSpace: SceneColorSpace = .srgb) { self.colorSpace = colorSpace }

    /// The scene's fonts, which SVG images with text draw it in (set by the
    /// compile once its font set is made, before any render).
    private let svgFonts = Locked<FontSet?>(nil)
    public var fontsForSVGText: FontSet? {
        get { svgFonts.withLock { $0 } }
        set { svgFonts.withLock { $0 = newValue } }
    }

    /// SVG images librsvg has read, by digest then bytes.
    private let checkedSVGs = Locked<[Int: [[UInt8]]]>([:])

    /// Checks that librsvg reads an SVG image (the compile does this for
    /// every file once, so a render never meets one it cannot): nil if it
    /// was checked before, else whether librsvg read it (its message if not).
    public func checkSVG(_ source: ImageSource) -> Result<Void, SVGImageProblem>? {
        let known = checkedSVGs.withLock { table -> Bool in
            if table[source.digest]?.contains(source.data) == true { return true }
            table[source.digest, default: []].append(source.data)
            return false
        }
        if known { return nil }
        switch SVGImageDocuments.load(source.data) {
        case .failure(let problem): return .failure(problem)
        case .success(let handle):
            g_object_unref(UnsafeMutableRawPointer(handle))
            return .success(())
        }
    }

    /// How many distinct PNGs this compile decoded or took from the
    /// process's cache (`DecodedImageCache`): once each, however often
    /// and under however many names they are painted.
    public var decodes: Int { decodeCount.withLock { $0 } }

    /// Decodes the image if it is not decoded yet (a compile does this for
    /// every image of its scene); false if the PNG cannot be decoded.
    public func decode(_ source: ImageSource) -> Bool {
        decoded.withLock { cache -> Bool in
            if Self.find(source, in: cache) != nil { return true }
            let made = DecodedImageCache.image(source, colorSpace: colorSpace) {
                let image = DecodedImage(png: source.data)
                if colorSpace == .displayP3 { image?.convertToDisplayP3() }
                return image
            }
            guard let made else { return false }
            decodeCount.withLock { $0 += 1 }
            cache[source.digest, default: []].append((source.data, made))
            return true
        }
    }

    private static func find(_ source: ImageSource, in cache: [Int: [(bytes: [UInt8], image: DecodedImage)]]) -> DecodedImage? {
        cache[source.digest]?.first { $0.bytes == source.data }?.image
    }

    /// A new surface over the image's pixels (the caller destroys it), or
    /// nil if the compile did not decode it.
    func surface(for source: ImageSource) -> OpaquePointer? {
        decoded.withLock { Self.find(source, in: $0) }?.surface()
    }
}

/// One decoded PNG: Cairo's pixels, copied out of the surface that decoded
/// them into memory this object owns for as long as the compile lives.
final class DecodedImage: @unchecked Sendable {
    let width: Int32, height: Int32, stride: Int32
    let format: cairo_format_t
    private let pixels: UnsafeMutableRawPointer
    /// The file's bytes, attached to each surface as Cairo attaches them to
    /// a surface it decodes: SVG and PDF output embed them as they are.
    private let png: UnsafeMutableBufferPointer<UInt8>

    init?(png: [UInt8]) {
        guard let surface = ByteSource.decodePNG(png) else { return nil }
        defer { cairo_surface_destroy(surface) }
        cairo_surface_flush(surface)
        width = cairo_image_surface_get_width(surface)
        height = cairo_image_surface_get_height(surface)
        stride = cairo_image_surface_get_stride(surface)
        format = cairo_image_surface_get_format(surface)
        guard let data = cairo_image_surface_get_data(surface) else { return nil }
        let count = Int(stride) * Int(height)
        pixels = UnsafeMutableRawPointer.allocate(byteCount: max(count, 1), alignment: 16)
        pixels.copyMemory(from: data, byteCount: count)
        self.png = .allocate(capacity: max(png.count, 1))
        _ = self.png.initialize(from: png)
    }

    /// The memory this image holds: pixels and the PNG's bytes.
    var byteCount: Int { Int(stride) * Int(height) + png.count }

    /// Decoded from exactly these bytes.
    func hasBytes(_ other: [UInt8]) -> Bool {
        other.count == png.count && other.withUnsafeBytes { o in memcmp(o.baseAddress!, png.baseAddress!, png.count) == 0 }
    }

    deinit {
        pixels.deallocate()
        png.deallocate()
    }

    /// sRGB pixels to Display P3 (every sRGB colour is inside P3): each
    /// channel unpremultiplied, made linear, through CSS Color 4's matrix,
    /// encoded again to the nearest of 4,096 linear levels, premultiplied.
    func convertToDisplayP3() {
        Self.convertToDisplayP3(pixels, width: width, height: height, stride: stride, format: format)
    }

    /// sRGB pixels (Cairo's premultiplied ARGB32 or RGB24) to Display P3,
    /// in place: a decoded PNG, or librsvg's picture of an SVG image.
    static func convertToDisplayP3(_ pixels: UnsafeMutableRawPointer, width: Int32, height: Int32, stride: Int32, format: cairo_format_t) {
        guard format == CAIRO_FORMAT_ARGB32 || format == CAIRO_FORMAT_RGB24 else { return }
        let linear = (0..<256).map { DisplayP3.toLinear(Double($0) / 255) }
        let encoded = (0...4095).map { UInt8((DisplayP3.toGamma(Double($0) / 4095) * 255).rounded()) }
        let m = DisplayP3.linearSRGBToLinearP3
        for y in 0..<Int(height) {
            let row = (pixels + y * Int(stride)).assumingMemoryBound(to: UInt32.self)
            for x in 0..<Int(width) {
                let p = row[x]
                let a = format == CAIRO_FORMAT_ARGB32 ? Int(p >> 24) : 255
                guard a > 0 else { continue }
                func straight(_ v: UInt32) -> Int { a == 255 ? Int(v) : min(255, (Int(v) * 255 + a / 2) / a) }
                let r = linear[straight(p >> 16 & 0xff)], g = linear[straight(p >> 8 & 0xff)], b = linear[straight(p & 0xff)]
                func out(_ row: (Double, Double, Double)) -> UInt32 {
                    let v = max(0, min(1, row.0 * r + row.1 * g + row.2 * b))
                    let c = Int(encoded[Int((v * 4095).rounded())])
                    return UInt32(a == 255 ? c : (c * a + 127) / 255)
                }
                row[x] = UInt32(a) << 24 | out(m.0) << 16 | out(m.1) << 8 | out(m.2)
            }
        }
    }

    /// Painting only reads a source surface's pixels.
    func surface() -> OpaquePointer? {
        guard let s = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), format, width, height, stride),
              cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else { return nil }
        cairo_surface_set_mime_data(s, "image/png", png.baseAddress, UInt(png.count), nil, nil)
        return s
    }
}
