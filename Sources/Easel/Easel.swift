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
        /// WebP and AVIF quality, 1–100 (`--quality`): nil is lossless
        /// WebP and AVIF at 80 (100 is lossless AVIF too).
        public var quality: Int?
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
