import CWebP
import EaselModel

extension Diagnostic.Message {
    static func webPTooLarge(_ w: Int, _ h: Int) -> Self {
        .init(.renderFailed, "a WebP is at most \(WebPEncoder.maxSide) pixels a side and this render is \(w)×\(h); lower --scale or write PNG or AVIF")
    }
    static func webPFrameTooLong(_ seconds: Double) -> Self {
        .init(.renderFailed, "a WebP frame shows at most 16777 s (24 bits of milliseconds) and one here shows \(Int(seconds.rounded())) s; write an animated PNG")
    }
    static func webPTooManyPlays(_ plays: Int) -> Self {
        .init(.renderFailed, "an animated WebP plays at most 65535 times (or forever: repeat=\"true\"), not \(plays); write an animated PNG")
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

    /// A located error for a render WebP cannot hold, before anything is painted.
    static func checkSize(width: Int, height: Int) throws {
        guard width <= maxSide, height <= maxSide else {
            throw DiagnosticsError([Diagnostic(.error, .webPTooLarge(width, height), at: nil)])
        }
    }

    /// A picture holding a copy of the pixels as ARGB (what lossless and
    /// the animation encoder need; lossy converts it to YUV itself). The
    /// caller frees it with `release(_:)`; `rgba` may go at once.
    static func picture(of rgba: StraightRGBA) throws -> UnsafeMutablePointer<WebPPicture> {
        let picture = UnsafeMutablePointer<WebPPicture>.allocate(capacity: 1)
        picture.initialize(to: WebPPicture())
        guard WebPPictureInit(picture) != 0 else {
            picture.deallocate()
            throw failure("the library is not the version Easel was built with")
        }
        picture.pointee.width = Int32(rgba.width)
        picture.pointee.height = Int32(rgba.height)
        picture.pointee.use_argb = 1
        guard WebPPictureImportRGBA(picture, rgba.bytes.baseAddress, Int32(rgba.rowBytes)) != 0 else {
            release(picture)
            throw failure("out of memory")
        }
        return picture
    }

    static func release(_ picture: UnsafeMutablePointer<WebPPicture>) {
        WebPPictureFree(picture)
        picture.deallocate()
    }

    /// One image's WebP file (no colour chunk).
    static func encode(_ picture: UnsafeMutablePointer<WebPPicture>, _ config: WebPConfig) throws -> [UInt8] {
        var config = config
        let writer = UnsafeMutablePointer<WebPMemoryWriter>.allocate(capacity: 1)
        defer { writer.deallocate() }
        WebPMemoryWriterInit(writer)
        defer { WebPMemoryWriterClear(writer) }
        picture.pointee.writer = WebPMemoryWrite
        picture.pointee.custom_ptr = UnsafeMutableRawPointer(writer)
        guard WebPEncode(&config, picture) != 0 else { throw failure(describe(picture.pointee.error_code)) }
        return Array(UnsafeBufferPointer(start: writer.pointee.mem, count: writer.pointee.size))
    }

    static func still(_ canvas: RasterCanvas, quality: Int?, colorSpace: SceneColorSpace) throws -> [UInt8] {
        try checkSize(width: canvas.width, height: canvas.height)
        let config = try config(quality: quality)
        // The straight copy goes once the picture has its own.
        let picture = try picture(of: StraightRGBA(canvas))
        defer { release(picture) }
        return try tagged(try encode(picture, config), colorSpace)
    }

    /// The file with Easel's Display P3 profile in an `ICCP` chunk (a
    /// `VP8X` header says so) for a P3 render; sRGB files as they are.
    static func tagged(_ webp: [UInt8], _ colorSpace: SceneColorSpace) throws -> [UInt8] {
        guard colorSpace == .displayP3 else { return webp }
        return try webp.withUnsafeBufferPointer { file in
            var data = WebPData(bytes: file.baseAddress, size: file.count)
            guard let mux = WebPMuxCreate(&data, 0) else { throw failure("cannot read back its own file") }
            defer { WebPMuxDelete(mux) }
            return try assemble(mux, colorSpace)
        }
    }

    /// The mux's file, with the Display P3 profile for a P3 render.
    static func assemble(_ mux: OpaquePointer, _ colorSpace: SceneColorSpace) throws -> [UInt8] {
        try DisplayP3Profile.bytes.withUnsafeBufferPointer { icc in
            if colorSpace == .displayP3 {
                var profile = WebPData(bytes: icc.baseAddress, size: icc.count)
                guard WebPMuxSetChunk(mux, "ICCP", &profile, 0) == WEBP_MUX_OK else { throw failure("cannot add the ICC profile") }
            }
            var out = WebPData()
            guard WebPMuxAssemble(mux, &out) == WEBP_MUX_OK else { throw failure("cannot assemble the file") }
            defer { WebPDataClear(&out) }
            return Array(UnsafeBufferPointer(start: out.bytes, count: out.size))
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

/// An animated WebP, frame by frame: the animated PNG's frames, timing and
/// plays (0: forever). A frame identical to the one before is not added, so
/// the one before shows for both, as the animated PNG merges such runs.
/// Frame times are milliseconds: each frame starts at its exact time,
/// rounded, so no error adds up.
///
/// Lossless frames go through libwebp's animation encoder, which stores
/// each as the rectangle that changed. Lossy frames are put together by
/// libwebp's mux, each the rectangle of pixels that differ from the frame
/// before (any difference: a frame replaces that rectangle, no blending):
/// the animation encoder, lossy, drops frames that differ only a little
/// from the one before and lengthens that one, which would change the
/// animation's timing. One frame (a scene that does not animate) is a
/// still WebP.
package final class WebPAnimation: FrameEncoder {
    private let config: WebPConfig
    private let lossless: Bool
    private let plays: Int
    private let colorSpace: SceneColorSpace
    private var encoder: OpaquePointer?
    /// Lossy: each distinct frame's file (of its changed rectangle), start (ms) and offset.
    private var frames: [(webp: [UInt8], start: Int32, x: Int, y: Int)] = []
    /// The start (ms) of the last distinct frame.
    private var lastStart: Int32 = 0
    private var previous: StraightRGBA?
    /// Seconds from the start to the end of the frames added so far.
    private var elapsed = 0.0
    private var size: (width: Int, height: Int)?

    /// `width` × `height`: the frames' pixels, checked before any is painted.
    package init(quality: Int?, plays: Int, colorSpace: SceneColorSpace, width: Int, height: Int) throws {
        try WebPEncoder.checkSize(width: width, height: height)
        guard plays <= 65535 else { throw DiagnosticsError([Diagnostic(.error, .webPTooManyPlays(plays), at: nil)]) }
        config = try WebPEncoder.config(quality: quality)
        lossless = quality == nil
        self.plays = max(0, plays)
        self.colorSpace = colorSpace
    }

    deinit {
        if let encoder { WebPAnimEncoderDelete(encoder) }
    }

    private static func milliseconds(_ seconds: Double) -> Int32 { Int32(min((seconds * 1000).rounded(), Double(Int32.max))) }

    /// WebP stores a frame's duration in 24 bits of milliseconds.
    private static func checkDuration(from start: Int32, to end: Int32) throws {
        guard end - start <= 0xFF_FFFF else {
            throw DiagnosticsError([Diagnostic(.error, .webPFrameTooLong(Double(end - start) / 1000), at: nil)])
        }
    }

    package func add(_ canvas: RasterCanvas, delay: FrameDelay) throws {
        try WebPEncoder.checkSize(width: canvas.width, height: canvas.height)
        if let size {
            guard size == (canvas.width, canvas.height) else { throw WebPEncoder.failure("the frames differ in size") }
        } else {
            size = (canvas.width, canvas.height)
        }
        let rgba = StraightRGBA(canvas)
        let start = Self.milliseconds(elapsed)
        elapsed += delay.seconds
        let before = previous
        if let before, before.samePixels(as: rgba) { return }
        if before != nil { try Self.checkDuration(from: lastStart, to: start) }
        previous = rgba
        lastStart = start
        let picture = try WebPEncoder.picture(of: rgba)
        defer { WebPEncoder.release(picture) }
        if !lossless {
            let rect = before.map { Self.changedRectangle(from: $0, to: rgba) } ?? (x: 0, y: 0, width: rgba.width, height: rgba.height)
            frames.append((try Self.encode(picture, rect, config), start, rect.x, rect.y))
            return
        }
        let encoder = try animationEncoder(width: canvas.width, height: canvas.height)
        var config = self.config
        guard WebPAnimEncoderAdd(encoder, picture, start, &config) != 0 else {
            throw WebPEncoder.failure(String(cString: WebPAnimEncoderGetError(encoder)))
        }
    }

    private func animationEncoder(width: Int, height: Int) throws -> OpaquePointer {
        if let encoder { return encoder }
        var options = WebPAnimEncoderOptions()
        guard WebPAnimEncoderOptionsInit(&options) != 0 else { throw WebPEncoder.failure("the library is not the version Easel was built with") }
        options.anim_params.loop_count = Int32(plays)
        // Transparent: what a viewer composes the first frame over.
        options.anim_params.bgcolor = 0
        options.allow_mixed = 0
        guard let made = WebPAnimEncoderNew(Int32(width), Int32(height), &options) else { throw WebPEncoder.failure("out of memory") }
        encoder = made
        return made
    }

    /// The smallest rectangle holding every pixel that differs (the frames
    /// differ somewhere), its left and top even: a frame's offset is stored
    /// halved.
    static func changedRectangle(from a: StraightRGBA, to b: StraightRGBA) -> (x: Int, y: Int, width: Int, height: Int) {
        let w = a.width, h = a.height
        var left = w, right = -1, top = h, bottom = -1
        let pa = UnsafeRawPointer(a.bytes.baseAddress!).assumingMemoryBound(to: UInt32.self)
        let pb = UnsafeRawPointer(b.bytes.baseAddress!).assumingMemoryBound(to: UInt32.self)
        for y in 0..<h {
            let ra = pa + y * w, rb = pb + y * w
            var first = -1, last = -1
            for x in 0..<w where ra[x] != rb[x] {
                if first < 0 { first = x }
                last = x
            }
            guard first >= 0 else { continue }
            left = min(left, first); right = max(right, last)
            top = min(top, y); bottom = y
        }
        guard right >= 0 else { return (0, 0, w, h) }
        left &= ~1
        top &= ~1
        return (left, top, right + 1 - left, bottom + 1 - top)
    }

    /// One frame's file: the picture, or the rectangle of it.
    private static func encode(_ picture: UnsafeMutablePointer<WebPPicture>, _ rect: (x: Int, y: Int, width: Int, height: Int),
                               _ config: WebPConfig) throws -> [UInt8] {
        if rect.x == 0, rect.y == 0, rect.width == Int(picture.pointee.width), rect.height == Int(picture.pointee.height) {
            return try WebPEncoder.encode(picture, config)
        }
        let view = UnsafeMutablePointer<WebPPicture>.allocate(capacity: 1)
        view.initialize(to: WebPPicture())
        // A view shares the picture's pixels; freeing it frees nothing of them.
        defer { WebPEncoder.release(view) }
        guard WebPPictureView(picture, Int32(rect.x), Int32(rect.y), Int32(rect.width), Int32(rect.height), view) != 0 else {
            throw WebPEncoder.failure("cannot take a frame's changed rectangle")
        }
        return try WebPEncoder.encode(view, config)
    }

    /// The file.
    package func finish() throws -> [UInt8] {
        let end = Self.milliseconds(elapsed)
        if size != nil { try Self.checkDuration(from: lastStart, to: end) }
        if lossless {
            guard let encoder else { return [] }
            guard WebPAnimEncoderAdd(encoder, nil, end, nil) != 0 else {
                throw WebPEncoder.failure(String(cString: WebPAnimEncoderGetError(encoder)))
            }
            var out = WebPData()
            guard WebPAnimEncoderAssemble(encoder, &out) != 0 else {
                throw WebPEncoder.failure(String(cString: WebPAnimEncoderGetError(encoder)))
            }
            defer { WebPDataClear(&out) }
            return try WebPEncoder.tagged(Array(UnsafeBufferPointer(start: out.bytes, count: out.size)), colorSpace)
        }
        guard frames.count > 1 else { return try frames.first.map { try WebPEncoder.tagged($0.webp, colorSpace) } ?? [] }
        guard let mux = WebPMuxNew() else { throw WebPEncoder.failure("out of memory") }
        defer { WebPMuxDelete(mux) }
        for (k, frame) in frames.enumerated() {
            let next = k + 1 < frames.count ? frames[k + 1].start : end
            let status = frame.webp.withUnsafeBufferPointer { bytes -> WebPMuxError in
                var info = WebPMuxFrameInfo()
                info.bitstream = WebPData(bytes: bytes.baseAddress, size: bytes.count)
                info.x_offset = Int32(frame.x)
                info.y_offset = Int32(frame.y)
                info.duration = next - frame.start
                info.id = WEBP_CHUNK_ANMF
                info.dispose_method = WEBP_MUX_DISPOSE_NONE
                // A frame replaces its rectangle, alpha included; the rest stays as the frame before left it.
                info.blend_method = WEBP_MUX_NO_BLEND
                return WebPMuxPushFrame(mux, &info, 1)
            }
            guard status == WEBP_MUX_OK else { throw WebPEncoder.failure("cannot add frame \(k + 1)") }
        }
        var params = WebPMuxAnimParams(bgcolor: 0, loop_count: Int32(plays))
        guard WebPMuxSetAnimationParams(mux, &params) == WEBP_MUX_OK,
              let size, WebPMuxSetCanvasSize(mux, Int32(size.width), Int32(size.height)) == WEBP_MUX_OK else {
            throw WebPEncoder.failure("cannot set the animation's parameters")
        }
        return try WebPEncoder.assemble(mux, colorSpace)
    }
}
