import EaselModel

/// How long one frame of an animation shows: `numerator / denominator`
/// seconds (an animated PNG's `fcTL` form; WebP rounds it to milliseconds).
package struct FrameDelay: Sendable, Hashable {
    package var numerator: UInt16
    package var denominator: UInt16

    /// A whole frame rate is exact as 1/fps; others in milliseconds.
    package init(fps: Double) {
        if fps == fps.rounded() && fps >= 1 && fps <= 65535 {
            (numerator, denominator) = (1, UInt16(fps))
        } else {
            (numerator, denominator) = (UInt16(max(1, min(65535, (1000 / fps).rounded()))), 1000)
        }
    }

    package var seconds: Double { Double(numerator) / Double(denominator) }
}

/// Painted frames in, one animation out: an animated PNG's frames
/// (`PNGFrames`) and an animated WebP (`WebPAnimation`) take them through
/// this, one at a time, as the frame loop (`SceneRenderer.paintFrames`)
/// paints them: no encoder holds more than the frame before in pixels
/// (a lossy WebP keeps each frame's encoded rectangle until the end).
package protocol FrameEncoder {
    /// The canvas may be reused or freed after the call.
    mutating func add(_ canvas: RasterCanvas, delay: FrameDelay) throws
}

/// Each frame as PNG bytes: numbered frames, or an animated PNG's input.
package struct PNGFrames: FrameEncoder {
    package var settings: PNGSettings
    package var colorSpace: SceneColorSpace
    package private(set) var pngs: [[UInt8]] = []

    package init(settings: PNGSettings, colorSpace: SceneColorSpace) {
        self.settings = settings
        self.colorSpace = colorSpace
    }

    package mutating func add(_ canvas: RasterCanvas, delay: FrameDelay) throws {
        guard let png = PNGEncoder.encode(canvas, compression: settings.compression, keepAlpha: settings.keepAlpha,
                                          colorSpace: colorSpace) else {
            throw DiagnosticsError([Diagnostic(.error, .pngEncodingFailed, at: nil)])
        }
        pngs.append(png)
    }
}
