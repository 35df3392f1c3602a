import EaselParse
import FoundationEssentials

extension Diagnostic.Message {
    /// A failure that is not a located diagnostic (a system error while
    /// writing): reported as Easel failing to write or render.
    static func failed(_ error: any Error) -> Self {
        .init(.renderFailed, "\(error)")
    }
    static func staleManifest(_ path: String) -> Self {
        .init(.staleManifest, "'\(path)' is not a build manifest this Easel reads: building everything again")
    }
    static let noFontsMade = Self(.renderFailed, "no fonts were made for this scene")
    public static let noSuchScene = Self(.noSuchScene, "no such file")
    public static let sceneIsAFolder = Self(.noSuchScene, "a folder, not a scene file: give its .scene.xml file, or build the whole folder with `easel build FOLDER -o OUT`")
    public static func stillSVGAnimation(_ count: Int) -> Self {
        .init(.stillSVGAnimation, "\(count) animated paint\(count == 1 ? "" : "s") cannot be animated in SVG (a conic keyframe, or keyframes of different kinds, transforms or spreads): the SVG shows \(count == 1 ? "its" : "their") first frame")
    }
    public static func unusedSetting(_ name: String) -> Self {
        .init(.unusedSetting, "--set \(name)=…: no scene built declares a parameter '\(name)'")
    }
    public static func outputIsAnInput(_ path: String) -> Self {
        .init(.outputCollision, "the output '\(path)' is a scene this render reads: writing it would replace the scene; name the output otherwise")
    }
    public static func outputCollision(_ path: String, _ first: String, _ second: String) -> Self {
        .init(.outputCollision, "'\(first)' and '\(second)' would both write '\(path)'; render them into different folders, or give one a variant")
    }
    static func scaledTooLarge(_ scale: Double, _ w: Double, _ h: Double, _ limit: Int) -> Self {
        .init(.outputTooLarge, "scale \(scale) would make \(w.wholeNumberText)×\(h.wholeNumberText) pixels, more than the limit of \(limit) (raise it with --max-pixels)")
    }
    static func animationTooLarge(_ frames: Int, _ w: Int, _ h: Int, _ limit: Double) -> Self {
        .init(.workTooLarge, "\(frames) frames of \(w)×\(h) pixels would cost more than \(limit.wholeNumberText) paint units to clear and encode (raise the limit with --max-paint, or lower --fps)")
    }
    static func scaleNotCompiled(_ scale: Double, _ compiled: Double) -> Self {
        .init(.renderFailed, "scale \(scale) is above the scales this scene was compiled for (at most \(compiled)), and a graph line was reduced for them: compile with that scale among Options.scales, or with Options.paintsAboveScales on")
    }
    static func noFormatForPath(_ path: String) -> Self {
        .init(.unknownOutputFormat, "cannot tell the output format of '\(path)'; use --format png|pdf|svg|vector-drawable|webp|avif")
    }
}

/// One compile, as clang's `CompilerInstance` is one: it carries the
/// options and limits, collects every diagnostic (parse, layout, render,
/// write), and records every file the compile read with its content hash —
/// what `easel build` and `--depfile` are made from. A session holds no
/// state outside itself, so any number run at once on any threads.
///
/// ```swift
/// var session = CompileSession(options: .init())
/// if let scene = session.compile(fileAt: URL(fileURLWithPath: "card.scene.xml")) {
///     for scale in [1.0, 2, 3] { try scene.write(to: URL(fileURLWithPath: "card@\(Int(scale))x.png"), scale: scale) }
/// }
/// print(session.filesRead.map(\.path))
/// ```
public struct CompileSession: Sendable {
    public let options: Easel.Options
    public private(set) var diagnostics: [Diagnostic] = []
    private var reads: [FileRead] = []

    /// The scene file first, then every file it read, in reading order,
    /// with content hashes (a font's is taken when first asked for, once a
    /// process), unless `Options.hashesFilesRead` is off: then every
    /// record but a font's has an empty `sha256` (`easel render` needs only
    /// paths).
    public var filesRead: [FileRecord] { reads.compactMap(\.record) }

    /// The paths of `filesRead`, without hashing anything.
    public var pathsRead: [String] { reads.map(\.path) }

    public init(options: Easel.Options = Easel.Options()) { self.options = options }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// `displayPath`: how diagnostics name the file (default: its full path),
    /// e.g. the path as the user typed it.
    public mutating func compile(fileAt url: URL, displayPath: String? = nil) -> CompiledScene? {
        finish(SceneParser.parse(fileAt: url, displayPath: displayPath, options: parseOptions))
    }

    /// A scene file read and parsed once (`SceneParser.read`), compiled
    /// under this session's options: one read for every locale and variant.
    public mutating func compile(_ source: SceneSource) -> CompiledScene? {
        finish(SceneParser.build(source, options: parseOptions))
    }

    public mutating func compile(source: String, file: String = "<string>", baseDirectory: URL) -> CompiledScene? {
        finish(SceneParser.parse(source: source, file: file, baseDirectory: baseDirectory, options: parseOptions))
    }

    /// Adds diagnostics from a later stage (rendering, writing).
    public mutating func report(_ more: [Diagnostic]) { diagnostics += more }

    /// Runs `body`, recording the diagnostics it throws; false if it threw.
    @discardableResult
    public mutating func run(_ body: () throws -> Void) -> Bool {
        do {
            try body()
            return true
        } catch let error as DiagnosticsError {
            diagnostics += error.diagnostics
        } catch {
            diagnostics.append(Diagnostic(.error, .failed(error), at: nil))
        }
        return false
    }

    private var parseOptions: ParseOptions { options.parse }

    private mutating func finish(_ parsed: ParseResult) -> CompiledScene? {
        diagnostics += parsed.diagnostics
        reads += parsed.filesRead.map(FileRead.hashed)
        guard var scene = parsed.scene, !hasErrors else { return nil }
        if let s = options.scale { scene.scale = s }
        if let d = options.dither { scene.dither = d }
        let scales = options.scales.isEmpty ? [scene.scale] : options.scales
        for s in scales where scene.width * s * scene.height * s > Double(options.limits.maxPixels) {
            diagnostics.append(Diagnostic(.error, .scaledTooLarge(s, scene.width * s, scene.height * s, options.limits.maxPixels),
                                          at: scene.location))
        }
        // Images are decoded here, once: a PNG that is truncated or corrupt
        // is an error at its element when the scene is checked, not when a
        // render first paints it.
        // Decoding is charged to the paint budget, as painting was charged
        // for it: images together may not cost more than a render may.
        let images = DecodedImages(colorSpace: scene.colorSpace)
        var decodeCost = 0.0
        for root in scene.paintedRoots {
            root.walk { node in
                guard case .image(let source, _, _) = node.kind, !source.data.isEmpty, !hasErrors else { return }
                if let svg = source.vector {
                    // librsvg's parse, once per file: its time and memory
                    // follow the elements, so it is charged as painting is.
                    guard let checked = images.checkSVG(source) else { return }
                    decodeCost += svg.parseCost
                    if decodeCost > self.options.limits.maxPaintCost {
                        diagnostics.append(Diagnostic(.error, .paintBudgetExceeded(self.options.limits.maxPaintCost), at: node.location))
                    } else if case .failure(let problem) = checked {
                        diagnostics.append(Diagnostic(.error, .cannotDrawSVG(source.path, problem.text), at: node.location))
                    }
                    return
                }
                decodeCost += Double(source.pixelWidth) * Double(source.pixelHeight) * PaintCost.perImageSourcePixel
                if decodeCost > self.options.limits.maxPaintCost {
                    diagnostics.append(Diagnostic(.error, .paintBudgetExceeded(self.options.limits.maxPaintCost), at: node.location))
                } else if !images.decode(source) {
                    diagnostics.append(Diagnostic(.error, .cannotDecodePNG(source.path), at: node.location))
                }
            }
        }
        guard !hasErrors else { return nil }
        // The font set is made when layout first shapes text: a scene
        // without text makes none (fontconfig, the machine's fonts and the
        // font folders untouched).
        let (options, laidOut, fontData) = (self.options, scene, parsed.fontData)
        let loader = FontSetLoader { CompileSession.fontSet(for: laidOut, fontData: fontData, options: options) }
        // PDF and SVG paint at 1 point per unit: lines are never reduced for
        // fewer pixels than that.
        let layoutOptions = LayoutOptions(maxScale: max(scales.max() ?? scene.scale, 1), reduceSeries: options.reduceSeries,
                                          maxWork: options.limits.maxLayoutWork)
        let (layout, renderTree) = LayoutEngine.layOut(scene, text: LazyTextShaper(loader: loader), options: layoutOptions)
        if case .failure(let d)? = loader.result {
            diagnostics.append(d)
            return nil
        }
        if let exhausted = layout.work.exhaustedError(limit: options.limits.maxLayoutWork) {
            diagnostics.append(exhausted)
            return nil
        }
        // An SVG image's text is drawn in the scene's fonts: a scene whose
        // only text is in one makes its font set here.
        if loader.made == nil, scene.paintedRoots.contains(where: { root in
            var found = false
            root.walk { if case .image(let s, _, _) = $0.kind, s.vector?.hasText == true { found = true } }
            return found
        }) {
            _ = loader.fonts()
            if case .failure(let d)? = loader.result {
                diagnostics.append(d)
                return nil
            }
        }
        let fonts = loader.made
        images.fontsForSVGText = fonts
        var fontDiagnostics: [Diagnostic] = []
        if let fonts {
            fontDiagnostics = FontChecks.diagnose(scene, layout, fonts: fonts, missingGlyphs: options.missingGlyphs)
                + Self.svgTextGlyphChecks(scene, fonts: fonts, missingGlyphs: options.missingGlyphs)
            diagnostics += fontDiagnostics
            recordFontsUsed(layout)
        }
        let textDiagnostics = TextChecks.diagnose(scene, layout, severity: options.textOverflow == .error ? .error : .warning,
                                                  locale: options.locale)
        diagnostics += textDiagnostics
        fontDiagnostics += textDiagnostics
        // One warning per axis or legend, naming its labels outside.
        var outside: [(SourceLocation, [String], Bool)] = []
        var outsideAt: [SourceLocation: (index: Int, texts: Set<String>)] = [:]
        for label in layout.labelsOutside {
            if let seen = outsideAt[label.location] {
                if outsideAt[label.location]!.texts.insert(label.text).inserted { outside[seen.index].1.append(label.text) }
            } else {
                outsideAt[label.location] = (outside.count, [label.text])
                outside.append((label.location, [label.text], label.autoPadding))
            }
        }
        for (location, texts, auto) in outside {
            let named = texts.prefix(3).map { "'\($0)'" }.joined(separator: ", ") + (texts.count > 3 ? " and \(texts.count - 3) more" : "")
            let advice = auto ? "the graph is too small for them: make it larger or its labels smaller"
                              : "remove 'padding' so that it grows to fit its labels, or make it larger"
            let d = Diagnostic(.warning, .init(.labelOutsideFrame, "\(texts.count == 1 ? "the label" : "the labels") \(named) \(texts.count == 1 ? "falls" : "fall") outside the graph's frame: \(advice)"),
                               at: location)
            diagnostics.append(d)
            fontDiagnostics.append(d)
        }
        for squeezed in layout.squeezedPlots {
            func pt(_ v: Double) -> String { CFormat.string("%.0f", v) }
            let n = squeezed.needed
            diagnostics.append(Diagnostic(.warning, .init(.labelOutsideFrame, "the graph (\(pt(squeezed.frame.width)) × \(pt(squeezed.frame.height)) points) is too small for its axes and legend, which need a padding of \(pt(n.top)) \(pt(n.right)) \(pt(n.bottom)) \(pt(n.left)): its plot was squeezed to fit; make the graph larger"),
                                          at: squeezed.location))
            fontDiagnostics.append(diagnostics.last!)
        }
        for empty in layout.emptyPlots {
            func pt(_ v: Double) -> String { GraphStatistics.shortest(v) }
            let (w, h, p) = (empty.frame.width, empty.frame.height, empty.padding)
            let detail = w - p.left - p.right <= 0
                ? "no width: the graph is \(pt(w)) points wide and its padding takes \(pt(p.left + p.right)) (\(pt(p.left)) left, \(pt(p.right)) right)"
                : "no height: the graph is \(pt(h)) points high and its padding takes \(pt(p.top + p.bottom)) (\(pt(p.top)) top, \(pt(p.bottom)) bottom)"
            diagnostics.append(Diagnostic(.error, .init(.invalidValue, "the plot has \(detail); give a smaller padding or padding=\"auto\""), at: empty.location))
        }
        guard !hasErrors else { return nil }
        // A line reduced for these scales would be coarser above them: the
        // tree for any larger scale (an icon's may pass `limits.maxScale`)
        // draws every point, and is made now, so rendering never lays out.
        // Its layout costs what the first did (work counts points, not
        // what is kept), which passed the budget.
        var unreducedRenderTree: RenderTree?
        if layout.reducedSeries, options.paintsAboveScales {
            var unreduced = layoutOptions
            unreduced.reduceSeries = false
            unreducedRenderTree = LayoutEngine.layOut(scene, text: CompiledScene.textEngine(fonts), options: unreduced).1
        }
        return CompiledScene(scene: scene, layout: layout, renderTree: renderTree, warnings: parsed.diagnostics + fontDiagnostics, limits: options.limits,
                             pngCompression: options.pngCompression, quality: options.quality, reads: reads, fonts: fonts, images: images,
                             unreducedRenderTree: unreducedRenderTree, outlines: CompiledGlyphOutlines(layout.texts.map(\.text)))
    }

    /// The compile's font set: the `--font-dir` fonts and the scene's
    /// `<font src>` files, then the machine's unless either the options or
    /// the scene turn them off.
    /// The characters of SVG images' text that no font of the compile has,
    /// at each `<image>` (as `--missing-glyphs` says for texts): the SVG's
    /// text shaped over the scene's set, whose fallback is librsvg's too.
    static func svgTextGlyphChecks(_ scene: Scene, fonts: FontSet, missingGlyphs: MissingGlyphs) -> [Diagnostic] {
        var out: [Diagnostic] = []
        let shaper = TextShaper(fonts: fonts)
        for root in scene.paintedRoots {
            root.walk { node in
                guard case .image(let source, _, _) = node.kind, let svg = source.vector, svg.hasText else { return }
                let text = String(svg.text.map { $0.isWhitespace ? " " : $0 })
                let request = TextRequest(text: text, font: FontSpec(), wrapWidth: nil, align: .leading, lineSpacing: 1, maxLines: nil)
                let missing = shaper.shape(request).missing
                guard !missing.isEmpty else { return }
                out.append(Diagnostic(missingGlyphs == .error ? .error : .warning,
                                      .missingGlyphs(missing, drawn: missingGlyphs == .warning), at: node.location))
            }
        }
        return out
    }

    static func fontSet(for scene: Scene, fontData: [String: [UInt8]], options: Easel.Options) -> Result<FontSet, Diagnostic> {
        var declared: [DeclaredFontFile]
        switch FontInputs.declaredFiles(in: options.fontDirectories, limit: options.limits.maxFileSize) {
        case .failure(let d): return .failure(d)
        case .success(let files): declared = files
        }
        declared += scene.fonts.map { DeclaredFontFile(path: $0.path, identity: $0.sha256, bytes: fontData[$0.sha256] ?? []) }
        switch FontSets.fontSet(declared: declared, systemFonts: options.systemFonts && scene.systemFonts != false) {
        case .success(let set): return .success(set)
        case .failure(let failure):
            let declaration = scene.fonts.first { $0.path == failure.path }
            let name = declaration?.reference ?? failure.path ?? "the font set"
            return .failure(Diagnostic(.error, failure.message(naming: name), at: declaration?.location ?? scene.location))
        }
    }

    /// Every font file the compile's text used is a file it read, recorded
    /// as the text used it, its hash taken only if asked for.
    private mutating func recordFontsUsed(_ layout: LaidOutScene) {
        var seen = Set(reads.map(\.path))
        for laid in layout.texts {
            let text = laid.text
            for run in text.shaped.runs {
                guard let file = run.font?.file, !file.isEmpty, seen.insert(file).inserted else { continue }
                reads.append(.font(file))
            }
        }
    }
}

/// A file a compile read: hashed as it was read, or a font, hashed when
/// its record is first asked for (`FontInputs` keeps the hash for the
/// process while the file is unchanged).
enum FileRead: Sendable {
    case hashed(FileRecord)
    case font(String)

    var path: String {
        switch self {
        case .hashed(let r): return r.path
        case .font(let path): return path
        }
    }

    /// nil for a font that cannot be read any more.
    var record: FileRecord? {
        switch self {
        case .hashed(let r): return r
        case .font(let path): return FontInputs.record(ofFontAt: path)
        }
    }
}
