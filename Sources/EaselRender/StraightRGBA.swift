import CCairo

/// A painted canvas as straight (unpremultiplied) 8-bit RGBA rows, tightly
/// packed: what the WebP and AVIF encoders take. Unpremultiplied exactly as
/// the PNG encoder does (`PNGEncoder.unpremultiply`), so a lossless WebP or
/// AVIF holds the PNG's very pixels, dithering included. A class: the
/// buffer is freed once, when the last reference goes (an encoder drops
/// it as soon as its own copy is made).
final class StraightRGBA {
    let width: Int
    let height: Int
    let bytes: UnsafeMutableBufferPointer<UInt8>
    /// Every alpha 255.
    let isOpaque: Bool

    init(_ canvas: RasterCanvas) {
        cairo_surface_flush(canvas.surface)
        width = canvas.width
        height = canvas.height
        bytes = .allocate(capacity: width * height * 4)
        isOpaque = PNGEncoder.isOpaque(canvas)
        for y in 0..<height {
            let row = UnsafeRawPointer(canvas.pixels + y * canvas.stride).assumingMemoryBound(to: UInt32.self)
            PNGEncoder.unpremultiply(row, count: width, channels: 4, into: bytes.baseAddress! + y * width * 4)
        }
    }

    deinit { bytes.deallocate() }

    var rowBytes: Int { width * 4 }

    func samePixels(as other: StraightRGBA) -> Bool {
        width == other.width && height == other.height && bytes.elementsEqual(other.bytes)
    }
}
