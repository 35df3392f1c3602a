import CAVIF
import EaselModel

extension Diagnostic.Message {
    static func avifEncodingFailed(_ why: String) -> Self { .init(.renderFailed, "could not encode the AVIF (libavif: \(why))") }
}

/// AVIF files from painted canvases, by libavif and the AV1 encoder it
/// chooses (libaom on Debian). `quality` 1–100 as libavif 1.x and
/// `avifenc -q` read it (quantizer (100 − q)·63/100, rounded), alpha at
/// the same quality; 100 is lossless: quantizer 0, 4:4:4, and RGB stored
/// as is (the identity matrix), so it decodes to exactly the PNG's pixels.
/// Lossy files are 4:4:4 too: Easel's pictures are edges of colour (text,
/// strokes) that 4:2:0 would blur. The `colr` box says the colour space:
/// sRGB (primaries 1) or Display P3 (12), the sRGB transfer (13), and the
/// matrix the planes were encoded with (BT.601, 6, or identity, 0).
enum AVIFEncoder {
    /// libaom's speed 6, as `avifenc` uses by default: measured in
    /// docs/benchmarks.md ("WebP and AVIF") against slower and faster ones.
    static let speed: Int32 = 6

    static func encode(_ canvas: RasterCanvas, quality: Int, colorSpace: SceneColorSpace) throws -> [UInt8] {
        let lossless = quality >= 100
        guard let image = avifImageCreate(UInt32(canvas.width), UInt32(canvas.height), 8, AVIF_PIXEL_FORMAT_YUV444) else {
            throw failure("out of memory")
        }
        defer { avifImageDestroy(image) }
        image.pointee.colorPrimaries = avifColorPrimaries(colorSpace == .displayP3 ? 12 : 1)
        image.pointee.transferCharacteristics = avifTransferCharacteristics(13)
        image.pointee.matrixCoefficients = avifMatrixCoefficients(lossless ? 0 : 6)
        image.pointee.yuvRange = AVIF_RANGE_FULL
        try convert(StraightRGBA(canvas), into: image)

        guard let encoder = avifEncoderCreate() else { throw failure("out of memory") }
        defer { avifEncoderDestroy(encoder) }
        let quantizer = Int32(lossless ? 0 : ((100 - max(1, quality)) * 63 + 50) / 100)
        encoder.pointee.minQuantizer = quantizer
        encoder.pointee.maxQuantizer = quantizer
        encoder.pointee.minQuantizerAlpha = quantizer
        encoder.pointee.maxQuantizerAlpha = quantizer
        encoder.pointee.speed = speed
        // One thread: the same bytes on any machine.
        encoder.pointee.maxThreads = 1
        var output = avifRWData()
        defer { avifRWDataFree(&output) }
        let written = avifEncoderWrite(encoder, image, &output)
        guard written == AVIF_RESULT_OK else { throw failure(String(cString: avifResultToString(written))) }
        return Array(UnsafeBufferPointer(start: output.data, count: output.size))
    }

    /// The planes from the straight pixels (which may go once they are in).
    static func convert(_ rgba: StraightRGBA, into image: UnsafeMutablePointer<avifImage>) throws {
        var rgb = avifRGBImage()
        avifRGBImageSetDefaults(&rgb, image)
        rgb.format = AVIF_RGB_FORMAT_RGBA
        rgb.depth = 8
        rgb.pixels = rgba.bytes.baseAddress
        rgb.rowBytes = UInt32(rgba.rowBytes)
        // No alpha plane when every pixel is opaque.
        rgb.ignoreAlpha = rgba.isOpaque ? 1 : 0
        let converted = avifImageRGBToYUV(image, &rgb)
        guard converted == AVIF_RESULT_OK else { throw failure(String(cString: avifResultToString(converted))) }
    }

    static func failure(_ why: String) -> DiagnosticsError {
        DiagnosticsError([Diagnostic(.error, .avifEncodingFailed(why), at: nil)])
    }
}
