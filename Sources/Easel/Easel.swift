@_exported import EaselLayout
@_exported import EaselModel
@_exported import EaselRender
import EaselParse
import Foundation

/// Compile scenes in-process: parse a file or a string, lay it out, then
/// render to bytes or write a file atomically.
///
/// ```swift
/// let scene = try Easel.compile(fileAt: URL(fileURLWithPath: "card.scene.xml")).get()
/// try scene.write(to: URL(fileURLWithPath: "card.png"))
/// ```
public enum Easel {
    public static let version = "0.1.0"

    public struct Options: Sendable {
        public var limits = Limits()
        /// Folders outside the scene's own that `href`/`src` may read.
        public var allowedDirectories: [URL] = []
        /// Overrides the scene's `scale` for PNG output.
        public var scale: Double?
        /// Draw long straight graph lines from their per-pixel-column
        /// reduction (identical pixels); off only to compare or measure.
        public var reduceSeries = true
        public init(limits: Limits = Limits(), allowedDirectories: [URL] = [], scale: Double? = nil) {
            self.limits = limits
            self.allowedDirectories = allowedDirectories
            self.scale = scale
        }
    }

    public static func compile(fileAt url: URL, options: Options = Options()) -> Result<CompiledScene, DiagnosticsError> {
        let (scene, diagnostics) = SceneParser.parse(fileAt: url, options: parseOptions(options))
        return finish(scene, diagnostics, options)
    }

    public static func compile(source: String, file: String = "<string>", baseDirectory: URL,
                               options: Options = Options()) -> Result<CompiledScene, DiagnosticsError> {
        let (scene, diagnostics) = SceneParser.parse(source: source, file: file, baseDirectory: baseDirectory,
                                                     options: parseOptions(options))
        return finish(scene, diagnostics, options)
    }

    private static func parseOptions(_ o: Options) -> ParseOptions {
        ParseOptions(limits: o.limits, allowedDirectories: o.allowedDirectories)
    }

    private static func finish(_ scene: Scene?, _ diagnostics: [Diagnostic], _ options: Options)
        -> Result<CompiledScene, DiagnosticsError> {
        guard var scene, !diagnostics.contains(where: { $0.severity == .error }) else {
            return .failure(DiagnosticsError(diagnostics))
        }
        if let s = options.scale {
            let pixels = scene.width * s * scene.height * s
            if pixels > Double(options.limits.maxPixels) {
                return .failure(DiagnosticsError(diagnostics + [Diagnostic(.error, .init(
                    "--scale \(s) would make \((scene.width * s).wholeNumberText)×\((scene.height * s).wholeNumberText) pixels, more than the limit of \(options.limits.maxPixels) (raise it with --max-pixels)"),
                    at: scene.location)]))
            }
            scene.scale = s
        }
        let layout = LayoutEngine.resolveFrames(scene, text: PangoTextMeasurer(), reduceSeries: options.reduceSeries)
        return .success(CompiledScene(scene: scene, layout: layout, warnings: diagnostics, limits: options.limits))
    }
}

/// A scene that parsed and laid out without errors.
public struct CompiledScene: Sendable {
    public var scene: Scene
    public var layout: LaidOutScene
    public var warnings: [Diagnostic]
    public var limits: Limits

    public func render(format: OutputFormat) throws -> [UInt8] {
        try SceneRenderer.render(layout, format: format, scale: scene.scale, maxPaintedPixels: limits.maxPaintedPixels)
    }

    public func renderImage() throws -> RasterImage {
        try SceneRenderer.renderImage(layout, scale: scene.scale, maxPaintedPixels: limits.maxPaintedPixels)
    }

    /// Renders, then replaces `url` atomically: on any failure the previous
    /// file is left as it was. The format defaults to the file's extension.
    public func write(to url: URL, format: OutputFormat? = nil) throws {
        guard let format = format ?? OutputFormat(fileExtension: url.pathExtension) else {
            throw RenderError("cannot tell the output format of '\(url.path)'; use --format png|pdf|svg")
        }
        try AtomicFile.write(try render(format: format), to: url)
    }

    /// `easel layout`'s JSON: every node with its element, id, line and
    /// frame in absolute scene points, before transforms.
    public func layoutJSON() -> String {
        LayoutJSON.encode(layout)
    }
}
