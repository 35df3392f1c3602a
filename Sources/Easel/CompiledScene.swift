import EaselLayout
import EaselModel
import EaselParse
import EaselRender
import FoundationEssentials
/// A scene that parsed and laid out without errors. Immutable and
/// `Sendable`: render it from several threads at once.
public struct CompiledScene: Sendable {
    public var scene: Scene
    /// Every node's geometry and the shaped texts (`easel layout`, the checks).
    public var layout: LaidOutScene
    /// What the backends paint, made by the same layout pass.
    public internal(set) var renderTree: RenderTree
    public var warnings: [Diagnostic]
    public var limits: Limits
    public var pngCompression: PNGCompression
    /// WebP and AVIF quality (`Options.quality`).
    public var quality: Int? = nil
    /// The scene file and every file it read (the font files its text used
    /// among them), with content hashes unless `Options.hashesFilesRead`
    /// was off (then empty, but for fonts).
    public var filesRead: [FileRecord] { reads.compactMap(\.record) }
    /// The paths of `filesRead`, without hashing anything.
    public var pathsRead: [String] { reads.map(\.path) }
    var reads: [FileRead]
    /// The fonts the compile saw; nil for a scene without text.
    public let fonts: FontSet?
    /// The scene's PNG images, decoded (and so validated) by the compile
    /// and kept for every render of it (each scale, format and frame).
    public let images: DecodedImages
    /// The render tree with every point of its graph lines, for renders
    /// above `layout.maxScale`; nil when no line was reduced or the compile
    /// was told it paints at no larger scale.
    var unreducedRenderTree: RenderTree?
    let outlines: CompiledGlyphOutlines
    /// The outlines of every glyph the texts use, taken from the process's
    /// table once, at the first raster or SVG render (or here): renders
    /// paint from them without a lock.
    public var glyphs: GlyphOutlineSet { outlines.set }

    /// W0805 if an SVG of the scene that animates (`render(format: .svg)`
    /// without a time) cannot animate some of its paints, which then show
    /// their first frame; nil if it can animate them all.
    public var stillSVGAnimationWarning: Diagnostic? {
        let still = SceneRenderer.animatedPaintsSVGCannotAnimate(in: renderTree)
        return still > 0 ? Diagnostic(.warning, .stillSVGAnimation(still), at: nil) : nil
    }

    /// The warning a VectorDrawable of a Display P3 scene needs: it is
    /// sRGB, so the colours outside sRGB are gamut-mapped.
    public var vectorDrawableGamutWarning: Diagnostic? {
        let outside = SceneRenderer.colorsOutsideSRGB(in: renderTree)
        return outside > 0 ? Diagnostic(.warning, .vectorDrawableGamutMapped(outside), at: scene.location) : nil
    }

    /// How long the scene animates: its `duration`, or the longest pass
    /// among its animations; nil when nothing animates.
    public var duration: Double? { scene.duration ?? renderTree.paints.longestPass }

    /// `scale` defaults to the scene's (PNG only); `time` is seconds into
    /// its animations — without one, SVG output animates (SMIL) and PNG and
    /// PDF show the frame at 0. Throws `DiagnosticsError`.
    public func render(format: OutputFormat, scale: Double? = nil, time: Double? = nil) throws -> [UInt8] {
        let s = scale ?? scene.scale
        return try SceneRenderer.render(try tree(for: format.isRaster ? s : 1), format: format, scale: s, time: time ?? 0,
                                        maxPaintCost: limits.maxPaintCost, animateSVG: time == nil,
                                        png: PNGSettings(compression: pngCompression), quality: quality, images: images,
                                        glyphs: format == .pdf ? GlyphOutlineSet() : glyphs)
    }

    /// An Android VectorDrawable of the scene at time 0, `side` dp wide
    /// and high if given (else its size in points). Throws a located
    /// `DiagnosticsError` for what a VectorDrawable cannot express.
    public func renderVectorDrawable(side: Double? = nil) throws -> [UInt8] {
        try SceneRenderer.vectorDrawable(try tree(for: 1), maxPaintCost: limits.maxPaintCost, images: images, glyphs: glyphs, side: side)
    }

    /// A still SVG of the scene at time 0, `side` wide and high (its
    /// viewBox the scene's size), text only as outlines: an Icon Composer layer.
    public func renderIconLayerSVG(side: Double) throws -> [UInt8] {
        try SceneRenderer.svg(try tree(for: 1), maxPaintCost: limits.maxPaintCost, images: images, glyphs: glyphs, side: side,
                              selectableText: false)
    }

    /// A PNG (or WebP) `pixels` on a side of the scene's coverage in black
    /// (colours dropped, alpha kept): a themed layer derived from a foreground.
    public func renderCoverage(pixels: Int, format: OutputFormat = .png) throws -> [UInt8] {
        let s = scale(forPixels: pixels)
        return try SceneRenderer.coverage(try tree(for: s), scale: s, format: format, maxPaintCost: limits.maxPaintCost,
                                          png: PNGSettings(compression: pngCompression), quality: quality, images: images, glyphs: glyphs)
    }

    /// The scene in one colour (`RenderTree.monochrome`): an adaptive
    /// icon's themed layer made from its foreground.
    public func monochrome() -> CompiledScene {
        var copy = self
        copy.renderTree = renderTree.monochrome()
        copy.unreducedRenderTree = unreducedRenderTree?.monochrome()
        return copy
    }

    public func renderImage(scale: Double? = nil, time: Double = 0) throws -> RasterImage {
        let s = scale ?? scene.scale
        return try SceneRenderer.renderImage(try tree(for: s), scale: s, time: time, maxPaintCost: limits.maxPaintCost, images: images,
                                             glyphs: glyphs)
    }

    /// The render tree for `scale`: the compile's, or, above the scale its
    /// lines were reduced for, the one with every point. Both were made by
    /// the compile.
    private func tree(for scale: Double) throws -> RenderTree {
        guard layout.reducedSeries, scale > layout.maxScale else { return renderTree }
        if let unreducedRenderTree { return unreducedRenderTree }
        throw DiagnosticsError([Diagnostic(.error, .scaleNotCompiled(scale, layout.maxScale), at: scene.location)])
    }

    /// Renders, then replaces `url` atomically: on any failure the previous
    /// file is left as it was. The format defaults to the file's extension.
    public func write(to url: URL, format: OutputFormat? = nil, scale: Double? = nil, time: Double? = nil) throws {
        guard let format = format ?? OutputFormat(fileExtension: url.pathExtension) else {
            throw DiagnosticsError([Diagnostic(.error, .noFormatForPath(url.path), at: nil)])
        }
        try AtomicFile.write(try render(format: format, scale: scale, time: time), to: url)
    }

    /// The times of the frames at `fps` frames a second: `floor(duration·fps) + 1`
    /// frames at t = k/fps, the last at the end of the pass (docs/cli.md,
    /// "easel render"). A scene that does not animate has one frame.
    public func frameTimes(fps: Double) -> [Double] {
        let last = Int(((duration ?? 0) * fps + 1e-9).rounded(.down))
        return (0...max(0, last)).map { Double($0) / fps }
    }

    /// Paints every frame at `fps` into `encoder`, laid out once and painted
    /// at each time. All the frames' pixels together are held to the paint budget.
    func paintFrames(fps: Double, scale: Double?, into encoder: inout some FrameEncoder) throws {
        let s = scale ?? scene.scale
        let times = frameTimes(fps: fps)
        let (w, h) = SceneRenderer.pixelSize(of: renderTree, scale: s)
        // Every frame is cleared and encoded whatever it paints: that much
        // of the budget is spent before the first frame is drawn.
        let framesCost = Double(times.count) * Double(w) * Double(h) * PaintCost.perFramePixel
        guard framesCost <= limits.maxPaintCost else {
            throw DiagnosticsError([Diagnostic(.error, .animationTooLarge(times.count, w, h, limits.maxPaintCost), at: scene.location)])
        }
        try SceneRenderer.paintFrames(try tree(for: s), scale: s, times: times, delay: FrameDelay(fps: fps),
                                      maxPaintCost: (limits.maxPaintCost - framesCost) / Double(times.count),
                                      images: images, glyphs: glyphs, into: &encoder)
    }

    /// Every frame at `fps` as PNG bytes. `keepAlpha`: every frame RGBA,
    /// even opaque ones.
    public func renderFrames(fps: Double, scale: Double? = nil, keepAlpha: Bool = false) throws -> [[UInt8]] {
        var frames = PNGFrames(settings: PNGSettings(compression: pngCompression, keepAlpha: keepAlpha), colorSpace: renderTree.colorSpace)
        try paintFrames(fps: fps, scale: scale, into: &frames)
        return frames.pngs
    }

    /// An animated PNG of the frames at `fps`, looping as the scene's
    /// animations repeat (forever for `repeat="true"`).
    public func renderAnimatedPNG(fps: Double, scale: Double? = nil) throws -> [UInt8] {
        var frames = try renderFrames(fps: fps, scale: scale)
        // Opaque frames are RGB, others RGBA; an animated PNG has one header.
        if Set(frames.map(PNGChunks.colorType(of:))).count > 1 {
            frames = try renderFrames(fps: fps, scale: scale, keepAlpha: true)
        }
        let delay = FrameDelay(fps: fps)
        return try AnimatedPNG.assemble(frames.map { AnimatedPNG.Frame(png: $0, delayNumerator: delay.numerator, delayDenominator: delay.denominator) },
                                        plays: renderTree.paints.plays)
    }

    /// An animated WebP of the frames at `fps`: the animated PNG's frames,
    /// timing (to the millisecond) and plays; lossless unless `quality`
    /// (else the compile's `quality`).
    public func renderAnimatedWebP(fps: Double, scale: Double? = nil) throws -> [UInt8] {
        let (w, h) = SceneRenderer.pixelSize(of: renderTree, scale: scale ?? scene.scale)
        var animation = try SceneRenderer.located(renderTree) {
            try WebPAnimation(quality: quality, plays: renderTree.paints.plays, colorSpace: renderTree.colorSpace, width: w, height: h)
        }
        try paintFrames(fps: fps, scale: scale, into: &animation)
        return try SceneRenderer.located(renderTree) { try animation.finish() }
    }

    /// The text engine of a layout again: the compile's fonts (a scene
    /// without text has none, and never asks).
    static func textEngine(_ fonts: FontSet?) -> any TextMeasuring {
        LazyTextShaper(loader: FontSetLoader(made: fonts))
    }

    /// `easel layout`'s JSON: every node with its element, id, line and
    /// frame in absolute scene points, before transforms. Throws a located
    /// `DiagnosticsError` for a node whose geometry is not finite.
    public func layoutJSON() throws(DiagnosticsError) -> String {
        try LayoutJSON.encode(layout)
    }
}

extension Diagnostic.Message {
    static func vectorDrawableGamutMapped(_ count: Int) -> Self {
        .init(.colorOutsideGamut, "a VectorDrawable is sRGB: \(count == 1 ? "1 colour" : "\(count) colours") of this display-p3 scene outside sRGB \(count == 1 ? "is" : "are") gamut-mapped")
    }
}
