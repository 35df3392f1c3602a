@_exported import EaselLayout
@_exported import EaselModel
@_exported import EaselRender
import EaselParse
import FoundationEssentials

/// Compile scenes in-process: parse a file or a string, lay it out once,
/// then render it at any scale, format and time, or write files atomically.
///
/// ```swift
/// let scene = try Easel.compile(fileAt: URL(fileURLWithPath: "card.scene.xml")).get()
/// try scene.write(to: URL(fileURLWithPath: "card.png"))
/// try scene.write(to: URL(fileURLWithPath: "card@2x.png"), scale: 2)
/// ```
public enum Easel {
    public static let version = "0.2.0"

    public struct Options: Sendable {
        /// What parsing reads (limits, allowed folders, parameters,
        /// appearance, variant, strings, locale), held once: the
        /// properties below of the same names are this value's.
        public var parse = ParseOptions()
        public var limits: Limits { get { parse.limits } set { parse.limits = newValue } }
        /// `ParseOptions.hashesFilesRead`: off, `filesRead` records carry no
        /// hash (what `render` and `check` choose: they report paths only).
        public var hashesFilesRead: Bool { get { parse.hashesFilesRead } set { parse.hashesFilesRead = newValue } }
        /// Folders outside the scene's own that `href`/`src` may read.
        public var allowedDirectories: [URL] { get { parse.allowedDirectories } set { parse.allowedDirectories = newValue } }
        /// Overrides the scene's `scale` (the default scale of PNG renders).
        public var scale: Double?
        /// Every scale this compile will be painted at (`--scales`): each is
        /// held to the pixel limit, and long graph lines are reduced for the
        /// largest. Empty: the scene's own scale (or `scale`).
        public var scales: [Double] = []
        /// Whether the compiled scene may also be painted above `scales`
        /// (the library's default). If a graph line was reduced for them,
        /// the compile then also makes a render tree that draws every point,
        /// which renders above them paint: none is coarser than asked, and
        /// none lays out. Off, painting above `scales` is an error for such
        /// a scene. Off in `easel render` (but for icon files), `check`,
        /// `layout`, the preview and builds, but for Android resources and
        /// a catalog's app icons, which paint at their sizes' scales.
        public var paintsAboveScales = true
        /// Draw long straight graph lines from their M4 reduction (identical
        /// pixels); off only to compare or measure.
        public var reduceSeries = true
        /// How PNG output is compressed (`--png-compression`).
        public var pngCompression = PNGCompression.default
        /// Overrides the scene's `dither` (`--dither yes|no`).
        public var dither: Bool?
        /// Values for the scene's `<param>`s, by name (`--set`, `--set-file`).
        public var parameters: [String: ParameterSetting] { get { parse.parameters } set { parse.parameters = newValue } }
        /// Which value of each palette colour every use gets (`--appearance`).
        public var appearance: Appearance { get { parse.appearance } set { parse.appearance = newValue } }
        /// The space to paint and write in, over the scene's `color-space` (`--color-space`).
        public var colorSpace: SceneColorSpace? { get { parse.colorSpace } set { parse.colorSpace = newValue } }
        /// Compile the scene as one of its `<variant>`s.
        public var variant: String? { get { parse.variant } set { parse.variant = newValue } }
        /// A value for a parameter the scene does not declare is passed over
        /// instead of being an error (a build sets values for many scenes).
        public var ignoresUndeclaredParameters: Bool {
            get { parse.ignoresUndeclaredParameters }
            set { parse.ignoresUndeclaredParameters = newValue }
        }
        /// Compile only the scene's top-level element with this id (an
        /// adaptive icon's layer, `--layer`).
        public var layer: String? { get { parse.layer } set { parse.layer = newValue } }
        /// Folders whose font files every scene of the run declares (`--font-dir`).
        public var fontDirectories: [URL] = []
        /// The machine's fonts are in every compile's font set (`--system-fonts`);
        /// a scene's `system-fonts="false"` still leaves them out of its own.
        public var systemFonts = true
        /// Characters no font of the compile covers: warnings, or errors (`--missing-glyphs`).
        public var missingGlyphs = MissingGlyphs.warning
        /// String tables (`--strings`) and the locale to compile in (`--locale`:
        /// `de`, `pt-BR`, or `pseudo`/`pseudo-rtl`).
        public var strings: LocalizedStrings? { get { parse.strings } set { parse.strings = newValue } }
        public var locale: String? { get { parse.locale } set { parse.locale = newValue } }
        /// Text that does not fit its frame: warnings, or errors (`--text-overflow`).
        public var textOverflow = TextOverflowPolicy.warning
        public init(limits: Limits = Limits(), allowedDirectories: [URL] = [], scale: Double? = nil, scales: [Double] = []) {
            parse = ParseOptions(limits: limits, allowedDirectories: allowedDirectories)
            self.scale = scale
            self.scales = scales
        }
    }

    /// A well-formed BCP 47 tag (`de`, `pt-BR`, `zh-Hans`), as `lang` takes one.
    public static func isLanguageTag(_ text: String) -> Bool { LanguageTag.isWellFormed(text) }

    /// String tables (`--strings`), merged in order (a later file's values
    /// win); each unreadable or malformed file is a located error.
    public static func readStrings(_ paths: [String], limits: Limits = Limits()) -> Result<LocalizedStrings, DiagnosticsError> {
        var all = LocalizedStrings()
        var errors: [Diagnostic] = []
        for path in paths {
            switch StringTableReader.read(path: path, limit: limits.maxFileSize) {
            case .success(let s): all.merge(s)
            case .failure(let d): errors.append(d)
            }
        }
        return errors.isEmpty ? .success(all) : .failure(DiagnosticsError(errors))
    }

    /// One scene in its own session; the diagnostics of a failure, or the
    /// compiled scene (whose `warnings` and `filesRead` the session recorded).
    public static func compile(fileAt url: URL, options: Options = Options()) -> Result<CompiledScene, DiagnosticsError> {
        var session = CompileSession(options: options)
        return session.compile(fileAt: url).map { .success($0) } ?? .failure(DiagnosticsError(session.diagnostics))
    }

    public static func compile(source: String, file: String = "<string>", baseDirectory: URL,
                               options: Options = Options()) -> Result<CompiledScene, DiagnosticsError> {
        var session = CompileSession(options: options)
        return session.compile(source: source, file: file, baseDirectory: baseDirectory).map { .success($0) }
            ?? .failure(DiagnosticsError(session.diagnostics))
    }
}

/// A scene that parsed and laid out without errors. Immutable and
/// `Sendable`: render it from several threads at once.
public struct CompiledScene: Sendable {
    public var scene: Scene
    /// Every node's geometry and the shaped texts (`easel layout`, the checks).
    public var layout: LaidOutScene
    /// What the backends paint, made by the same layout pass.
    public var renderTree: RenderTree
    public var warnings: [Diagnostic]
    public var limits: Limits
    public var pngCompression: PNGCompression
    /// The scene file and every file it read (the font files its text used
    /// among them), with content hashes unless `Options.hashesFilesRead`
    /// was off (then empty, but for fonts).
    public var filesRead: [FileRecord] { reads.compactMap(\.record) }
    /// The paths of `filesRead`, without hashing anything.
    public var pathsRead: [String] { reads.map(\.path) }
    var reads: [FileRead]
    /// The fonts the compile saw; nil for a scene without text.
    public var fonts: FontSet?
    /// The scene's PNG images, decoded (and so validated) by the compile
    /// and kept for every render of it (each scale, format and frame).
    public let images: DecodedImages
    /// The render tree with every point of its graph lines, for renders
    /// above `layout.maxScale`; nil when no line was reduced or the compile
    /// was told it paints at no larger scale.
    let unreducedRenderTree: RenderTree?
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

    /// How long the scene animates: its `duration`, or the longest pass
    /// among its animations; nil when nothing animates.
    public var duration: Double? { scene.duration ?? renderTree.paints.longestPass }

    /// `scale` defaults to the scene's (PNG only); `time` is seconds into
    /// its animations — without one, SVG output animates (SMIL) and PNG and
    /// PDF show the frame at 0. Throws `DiagnosticsError`.
    public func render(format: OutputFormat, scale: Double? = nil, time: Double? = nil) throws -> [UInt8] {
        let s = scale ?? scene.scale
        return try SceneRenderer.render(try tree(for: format == .png ? s : 1), format: format, scale: s, time: time ?? 0,
                                        maxPaintCost: limits.maxPaintCost, animateSVG: time == nil,
                                        png: PNGSettings(compression: pngCompression), images: images,
                                        glyphs: format == .pdf ? GlyphOutlineSet() : glyphs)
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

    /// Every frame at `fps` as PNG bytes, laid out once and painted at each
    /// time. All the frames' pixels together are held to the paint budget.
    /// `keepAlpha`: every frame RGBA, even opaque ones.
    public func renderFrames(fps: Double, scale: Double? = nil, keepAlpha: Bool = false) throws -> [[UInt8]] {
        let s = scale ?? scene.scale
        let times = frameTimes(fps: fps)
        let (w, h) = SceneRenderer.pixelSize(of: renderTree, scale: s)
        // Every frame is cleared and encoded whatever it paints: that much
        // of the budget is spent before the first frame is drawn.
        let framesCost = Double(times.count) * Double(w) * Double(h) * PaintCost.perFramePixel
        guard framesCost <= limits.maxPaintCost else {
            throw DiagnosticsError([Diagnostic(.error, .animationTooLarge(times.count, w, h, limits.maxPaintCost), at: scene.location)])
        }
        let tree = try self.tree(for: s)
        let budget = (limits.maxPaintCost - framesCost) / Double(times.count)
        let png = PNGSettings(compression: pngCompression, keepAlpha: keepAlpha), glyphs = self.glyphs
        return try times.map { try SceneRenderer.render(tree, format: .png, scale: s, time: $0, maxPaintCost: budget, png: png, images: images,
                                                          glyphs: glyphs) }
    }

    /// An animated PNG of the frames at `fps`, looping as the scene's
    /// animations repeat (forever for `repeat="true"`).
    public func renderAnimatedPNG(fps: Double, scale: Double? = nil) throws -> [UInt8] {
        var frames = try renderFrames(fps: fps, scale: scale)
        // Opaque frames are RGB, others RGBA; an animated PNG has one header.
        if Set(frames.map(PNGChunks.colorType(of:))).count > 1 {
            frames = try renderFrames(fps: fps, scale: scale, keepAlpha: true)
        }
        // A whole frame rate is exact as n/fps; others in milliseconds.
        let (num, den): (UInt16, UInt16) = fps == fps.rounded() && fps <= 65535 ? (1, UInt16(fps)) : (UInt16(max(1, min(65535, (1000 / fps).rounded()))), 1000)
        return try AnimatedPNG.assemble(frames.map { AnimatedPNG.Frame(png: $0, delayNumerator: num, delayDenominator: den) },
                                        plays: renderTree.paints.plays)
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

/// What a character that no font of a compile covers is (`--missing-glyphs`).
public enum MissingGlyphs: String, Sendable, CaseIterable {
    /// A located warning; the character is drawn as an empty box.
    case warning
    /// A located error: the scene writes nothing (`easel build`'s default).
    case error
}

/// A compile's font set, made the first time layout shapes text.
final class FontSetLoader: @unchecked Sendable {
    private let make: @Sendable () -> Result<FontSet, Diagnostic>
    private let made_: Locked<Result<FontSet, Diagnostic>?>

    init(_ make: @escaping @Sendable () -> Result<FontSet, Diagnostic>) {
        self.make = make
        made_ = Locked(nil)
    }

    /// A loader of fonts already made (or of none, for a scene without text).
    init(made: FontSet?) {
        make = { .failure(Diagnostic(.error, .noFontsMade, at: nil)) }
        made_ = Locked(made.map { .success($0) })
    }

    /// nil until layout asked for fonts.
    var result: Result<FontSet, Diagnostic>? { made_.withLock { $0 } }
    var made: FontSet? { try? result?.get() }

    func fonts() -> FontSet? {
        made_.withLock { made in
            if made == nil { made = make() }
            return try? made?.get()
        }
    }
}

/// Shapes with the compile's font set, made on first use; if it could not
/// be made, text measures nothing (the compile reports why and fails).
struct LazyTextShaper: TextMeasuring {
    let loader: FontSetLoader
    func measure(_ request: TextRequest) -> Size {
        measureCountingLayouts(request).size
    }
    func measureCountingLayouts(_ request: TextRequest) -> (size: Size, layouts: Int) {
        loader.fonts().map { TextShaper(fonts: $0).measureCountingLayouts(request) } ?? (.zero, 0)
    }
    func shape(_ request: TextRequest) -> ShapedText {
        loader.fonts().map { TextShaper(fonts: $0).shape(request) }
            ?? ShapedText(text: request.text, size: .zero, lineBounds: .zero, lines: [], runs: [])
    }
    func fitMeasure(_ request: TextRequest) -> TextFitMeasure {
        loader.fonts().map { TextShaper(fonts: $0).fitMeasure(request) }
            ?? TextFitMeasure(size: .zero, lineCount: 0, brokenWord: nil, fontSize: FontSpec.defaultSize)
    }
}
