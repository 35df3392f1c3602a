import CCairo
import EaselModel

/// The pixels of a scene's PNG images, decoded once per compile and shared
/// by every render of it (every scale, format and animation frame) and by
/// every thread: each render wraps the same immutable pixels in a surface
/// of its own, so nothing Cairo keeps is shared between threads.
public final class DecodedImages: Sendable {
    private let decoded = Locked<[String: DecodedImage?]>([:])
    private let decodeCount = Locked(0)

    public init() {}

    /// How many PNGs were decoded: once each, however often they are painted.
    public var decodes: Int { decodeCount.withLock { $0 } }

    /// Decodes the image if it is not decoded yet (a compile does this for
    /// every image of its scene); false if the PNG cannot be decoded.
    public func decode(_ source: ImageSource) -> Bool {
        image(source) != nil
    }

    /// A new surface over the image's pixels (the caller destroys it), or
    /// nil if the PNG cannot be decoded. Decodes on first use.
    func surface(for source: ImageSource) -> OpaquePointer? {
        image(source)?.surface()
    }

    /// By the reference the scene gave: one compile's, so one file's bytes.
    private func image(_ source: ImageSource) -> DecodedImage? {
        decoded.withLock { cache -> DecodedImage? in
            if let known = cache[source.path] { return known }
            let made = DecodedImage(png: source.data)
            decodeCount.withLock { $0 += 1 }
            cache[source.path] = .some(made)
            return made
        }
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

    deinit {
        pixels.deallocate()
        png.deallocate()
    }

    /// Painting only reads a source surface's pixels.
    func surface() -> OpaquePointer? {
        guard let s = cairo_image_surface_create_for_data(pixels.assumingMemoryBound(to: UInt8.self), format, width, height, stride),
              cairo_surface_status(s) == CAIRO_STATUS_SUCCESS else { return nil }
        cairo_surface_set_mime_data(s, "image/png", png.baseAddress, UInt(png.count), nil, nil)
        return s
    }
}
