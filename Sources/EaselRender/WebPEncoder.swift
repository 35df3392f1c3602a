import CWebP
import EaselModel

extension Diagnostic.Message {
    static func webPTooLarge(_ w: Int, _ h: Int) -> Self {
        .init(.renderFailed, "a WebP is at most \(WebPEncoder.maxSide) pixels a side and this render is \(w)×\(h); lower --scale or write PNG or AVIF")
    }
    static func webPEncodingFailed(_ why: String) -> Self { .init(.renderFailed, "could not encode the WebP (libwebp: \(why))") }
}

/// WebP files from painted canvases, by libwebp: lossless unless a quality
/// (1–100) asks for lossy. Lossless keeps every pixel exactly as the PNG
/// has it, the colour under transparent pixels too (`exact`, which libwebp
/// otherwise may change to compress better). A Display P3 render carries
/// Easel's profile in an `ICCP` chunk, added by libwebp's mux.
enum WebPEncoder {
    /// libwebp's `WEBP_MAX_DIMENSION`.
    static let maxSide = 16383

    /// Lossless at libwebp's default effort (quality 75, method 4: what
    /// `cwebp -lossless` does); lossy at `quality` with method 4, alpha
    /// lossless. One thread: the same bytes on any machine.
    static func config(quality: Int?) throws -> WebPConfig {
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else { throw failure("the library is not the version Easel was built with") }
        if let quality {
            config.quality = Float(quality)
        } else {
            config.lossless = 1
            config.exact = 1
        }
        config.thread_level = 0
        guard WebPValidateConfig(&config) != 0 else { throw failure("invalid settings") }
        return config
    }

    static func checkSize(_ canvas: RasterCanvas) throws {
        guard canvas.width <= maxSide, canvas.height <= maxSide else {
            throw DiagnosticsError([Diagnostic(.error, .webPTooLarge(canvas.width, canvas.height), at: nil)])
        }
    }

    /// A picture of the canvas's straight RGBA, ARGB inside (what lossless
    /// and the animation encoder need; lossy converts it to YUV itself).
    static func withPicture<T>(_ rgba: StraightRGBA, _ body: (UnsafeMutablePointer<WebPPicture>) throws -> T) throws -> T {
        let picture = UnsafeMutablePointer<WebPPicture>.allocate(capacity: 1)
        defer { picture.deallocate() }
        picture.initialize(to: WebPPicture())
        guard WebPPictureInit(picture) != 0 else { throw failure("the library is not the version Easel was built with") }
        defer { WebPPictureFree(picture) }
        picture.pointee.width = Int32(rgba.width)
        picture.pointee.height = Int32(rgba.height)
        picture.pointee.use_argb = 1
        guard WebPPictureImportRGBA(picture, rgba.bytes.baseAddress, Int32(rgba.rowBytes)) != 0 else { throw failure("out of memory") }
        return try body(picture)
    }

    static func still(_ canvas: RasterCanvas, quality: Int?, colorSpace: SceneColorSpace) throws -> [UInt8] {
        try checkSize(canvas)
        var config = try config(quality: quality)
        let rgba = StraightRGBA(canvas)
        defer { rgba.release() }
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        defer { writer.deallocate() }
        WebPMemoryWriterInit(writer)
        defer { WebPMemoryWriterClear(writer) }
        let bitstream: [UInt8] = try withPicture(rgba) { picture in
            picture.pointee.writer = WebPMemoryWrite
            picture.pointee.custom_ptr = UnsafeMutableRawPointer(writer)
            guard WebPEncode(&config, picture) != 0 else { throw failure(describe(picture.pointee.error_code)) }
            return Array(UnsafeBufferPointer(start: writer.pointee.mem, count: writer.pointee.size))
        }
        return try tagged(bitstream, colorSpace)
    }

    /// The file with Easel's Display P3 profile in an `ICCP` chunk (a
    /// `VP8X` header says so) for a P3 render; sRGB files as they are.
    static func tagged(_ webp: [UInt8], _ colorSpace: SceneColorSpace) throws -> [UInt8] {
        guard colorSpace == .displayP3 else { return webp }
        return try webp.withUnsafeBufferPointer { file in
            try DisplayP3Profile.bytes.withUnsafeBufferPointer { icc in
                var data = WebPData(bytes: file.baseAddress, size: file.count)
                guard let mux = WebPMuxCreate(&data, 0) else { throw failure("cannot read back its own file") }
                defer { WebPMuxDelete(mux) }
                var profile = WebPData(bytes: icc.baseAddress, size: icc.count)
                guard WebPMuxSetChunk(mux, "ICCP", &profile, 0) == WEBP_MUX_OK else { throw failure("cannot add the ICC profile") }
                var out = WebPData()
                guard WebPMuxAssemble(mux, &out) == WEBP_MUX_OK else { throw failure("cannot assemble the file") }
                defer { WebPDataClear(&out) }
                return Array(UnsafeBufferPointer(start: out.bytes, count: out.size))
            }
        }
    }

    static func failure(_ why: String) -> DiagnosticsError {
        DiagnosticsError([Diagnostic(.error, .webPEncodingFailed(why), at: nil)])
    }

    static func describe(_ code: WebPEncodingError) -> String {
        switch code {
        case VP8_ENC_ERROR_OUT_OF_MEMORY, VP8_ENC_ERROR_BITSTREAM_OUT_OF_MEMORY: return "out of memory"
        case VP8_ENC_ERROR_BAD_DIMENSION: return "a side is 0 or more than \(maxSide) pixels"
        case VP8_ENC_ERROR_PARTITION0_OVERFLOW, VP8_ENC_ERROR_PARTITION_OVERFLOW: return "a partition is larger than the format allows"
        case VP8_ENC_ERROR_FILE_TOO_BIG: return "the file is larger than 4 GB"
        default: return "error \(code.rawValue)"
        }
    }
}

/// An animated WebP, frame by frame, by libwebp's animation encoder (which
/// stores each frame as the rectangle that changed): lossless unless a
/// quality is given, `plays` times (0: forever). A frame identical to the
/// one before is not added, so the one before shows for both: the frames
/// and their timing are the animated PNG's, which merges such runs too.
/// Frame times are milliseconds: each frame starts at its exact time,
/// rounded, so no error adds up.
package struct WebPAnimation: FrameEncoder {
    private var encoder: OpaquePointer?
    private var config: WebPConfig
    private let plays: Int
    private let colorSpace: SceneColorSpace
    private var previous: StraightRGBA?
    /// Seconds from the start to the end of the frames added so far.
    private var elapsed = 0.0
    private var size: (width: Int, height: Int)?

    package init(quality: Int?, plays: Int, colorSpace: SceneColorSpace) throws {
        config = try WebPEncoder.config(quality: quality)
        self.plays = plays
        self.colorSpace = colorSpace
    }

    private static func milliseconds(_ seconds: Double) -> Int32 { Int32(min((seconds * 1000).rounded(), Double(Int32.max))) }

    package mutating func add(_ canvas: RasterCanvas, delay: FrameDelay) throws {
        try WebPEncoder.checkSize(canvas)
        if encoder == nil {
            var options = WebPAnimEncoderOptions()
            guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw WebPEncoder.failure("the library is not the version Easel was built with") }
            options.anim_params.loop_count = Int32(clamping: max(0, plays))
            // Transparent: what a viewer composes the first frame over.
            options.anim_params.bgcolor = 0
            options.allow_mixed = 0
            guard let made = WebPAnimEncoderNew(Int32(canvas.width), Int32(canvas.height), &options) else {
                throw WebPEncoder.failure("out of memory")
            }
            encoder = made
            size = (canvas.width, canvas.height)
        }
        guard let size, size == (canvas.width, canvas.height) else { throw WebPEncoder.failure("the frames differ in size") }
        let rgba = StraightRGBA(canvas)
        defer { elapsed += delay.seconds }
        if let previous, previous == rgba {
            rgba.release()
            return
        }
        previous?.release()
        previous = rgba
        let start = Self.milliseconds(elapsed)
        let encoder = self.encoder
        try WebPEncoder.withPicture(rgba) { picture in
            guard WebPAnimEncoderAdd(encoder, picture, Int32(start), &config) != 0 else {
                throw WebPEncoder.failure(String(cString: WebPAnimEncoderGetError(encoder)))
            }
        }
    }

    /// Frees what the encoder holds (after a failure: `finish` does it too).
    package mutating func discard() {
        previous?.release()
        previous = nil
        if let encoder { WebPAnimEncoderDelete(encoder) }
        encoder = nil
    }

    /// The file; the encoder is spent.
    package mutating func finish() throws -> [UInt8] {
        defer { discard() }
        guard let encoder else { return [] }
        guard WebPAnimEncoderAdd(encoder, nil, Self.milliseconds(elapsed), nil) != 0 else {
            throw WebPEncoder.failure(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        var out = WebPData()
        guard WebPAnimEncoderAssemble(encoder, &out) != 0 else {
            throw WebPEncoder.failure(String(cString: WebPAnimEncoderGetError(encoder)))
        }
        defer { WebPDataClear(&out) }
        return try WebPEncoder.tagged(Array(UnsafeBufferPointer(start: out.bytes, count: out.size)), colorSpace)
    }
}
