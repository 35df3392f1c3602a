/// `<clipPath id>`: the union of its shapes clips whatever names it.
public struct ClipPathDefinition: Hashable, Sendable {
    public var id: String
    public var shapes: [Node]
    /// A clip path may itself be clipped (`clip-path` on `<clipPath>`); the
    /// two intersect.
    public var clipPath: String?
    public var location: SourceLocation
    public init(id: String, shapes: [Node], clipPath: String?, location: SourceLocation) {
        self.id = id; self.shapes = shapes; self.clipPath = clipPath; self.location = location
    }
}

/// `<font src>`: a font file the scene declares, read (and hashed) by the
/// parse like any other file it names.
public struct FontDeclaration: Hashable, Sendable {
    /// The absolute path, symlinks resolved.
    public var path: String
    /// `src` as written, for messages.
    public var reference: String
    public var sha256: String
    public var location: SourceLocation
    public init(path: String, reference: String, sha256: String, location: SourceLocation) {
        self.path = path; self.reference = reference; self.sha256 = sha256; self.location = location
    }
}

public struct Definitions: Hashable, Sendable {
    /// Each palette name's value in the compile's appearance.
    public var palette: [String: Color] = [:]
    /// Every palette colour with its light and dark values, in file order.
    public var paletteColors: [PaletteColor] = []
    public var paintServers: [String: PaintServerDefinition] = [:]
    public var clipPaths: [String: ClipPathDefinition] = [:]
    public init() {}
}

/// `<scene asset>`: what a build makes of the scene.
public enum SceneAsset: String, CaseIterable, Hashable, Sendable {
    /// An image: an imageset, `drawable-*/NAME.png`.
    case image
    /// An app icon: an appiconset, `mipmap-*/ic_launcher.png` and an
    /// adaptive icon from its `background`/`foreground`/`monochrome` groups.
    case appIcon = "app-icon"
}

/// `<scene icon-shadow>`: the shadow of an Icon Composer icon's group.
public enum IconShadow: String, CaseIterable, Hashable, Sendable {
    case neutral
    case layerColor = "layer-color"
    case none
}

/// What an app icon says for Icon Composer (`-o NAME.icon`): the one
/// group's shadow and translucency, and each layer's glass, by group id.
public struct IconComposerSettings: Hashable, Sendable {
    public var shadow: IconShadow?
    /// 0…1; nil: Icon Composer's default.
    public var translucency: Double?
    /// `icon-glass` of top-level groups, by id.
    public var glass: [String: Bool] = [:]
    public init() {}
}

/// A parsed scene: the typed AST that layout resolves.
public struct Scene: Hashable, Sendable {
    public var file: String
    public var width: Double
    public var height: Double
    public var scale: Double = 1
    public var background: Color = .transparent
    /// Gradients in raster output are dithered (`dither`, on by default).
    public var dither = true
    /// `<scene color-space>` (or `--color-space`): the space the picture is
    /// painted and written in.
    public var colorSpace = SceneColorSpace.srgb
    public var version: Int = 1
    public var duration: Double?
    public var definitions = Definitions()
    public var nodes: [Node] = []
    public var location: SourceLocation
    /// The `<param>`s, each with the value this compile used.
    public var parameters: [ParameterDeclaration] = []
    /// The `<variant>`s a build renders besides the scene itself.
    public var variants: [SceneVariant] = []
    /// The appearance this compile used, and the variant it rendered (if any).
    public var appearance: Appearance = .light
    public var variant: String?
    /// `<font src>`: the font files the scene declares, in file order.
    public var fonts: [FontDeclaration] = []
    /// `<scene system-fonts>`: false keeps the machine's fonts out of this
    /// scene's compile; nil leaves it to the command line.
    public var systemFonts: Bool?
    /// `<scene lang>` (BCP 47), inherited by its texts and graph labels.
    public var lang: String?
    /// The number and date conventions of graph labels: `--locale`, else
    /// `lang`, matched to d3's locale definitions.
    public var labelLocale = GraphLocale.enUS
    /// `<scene dir>`, inherited by its texts and stacks.
    public var direction: TextDirection = .ltr
    /// `<scene asset>`.
    public var asset: SceneAsset = .image
    /// `icon-shadow`, `icon-translucency` and the groups' `icon-glass`.
    public var iconComposer = IconComposerSettings()
    /// The ids of the scene's top-level elements that can be rendered alone
    /// (`ParseOptions.layer`), in file order, with where they are.
    public var layers: [(id: String, location: SourceLocation)] {
        nodes.compactMap { n in n.common.id.map { ($0, n.location) } }
    }

    public init(file: String, width: Double, height: Double, location: SourceLocation) {
        self.file = file; self.width = width; self.height = height; self.location = location
    }
}

/// Bounds on what an untrusted scene may ask for; every one can be raised
/// from the command line.
public struct Limits: Hashable, Sendable {
    public var maxPixels = 64_000_000
    public var maxNodes = 1_000_000
    public var maxDepth = 256
    public var maxFileSize = 64 * 1024 * 1024
    /// The highest `maxDepth` can go: libxml2 refuses documents nested
    /// deeper (without `XML_PARSE_HUGE`, which Easel never sets), and the
    /// recursive passes over the tree are sized for it.
    public static let maxDepthCeiling = 256
    /// The highest `maxFileSize` can go: libxml2 takes a document's size as
    /// a C `int`.
    public static let maxFileSizeCeiling = Int(Int32.max)
    public var maxScale = 16.0
    /// Painting work in all, in paint units (about a nanosecond each;
    /// EaselRender's `PaintCost` gives each operation's cost by kind and
    /// area, charged before the operation): bounds the work of a scene
    /// within the other limits to about two seconds of painting.
    public var maxPaintCost = 2e9
    /// Errors reported per file before stopping; 0 reports all. 20, as
    /// clang: a screenful, and past the first few most are consequences.
    public var maxErrors = 20
    /// Longest parameter value, in UTF-8 bytes. The scene after substitution
    /// is held to `maxFileSize` as well.
    public var maxParameterLength = 4096
    /// Characters (Unicode scalars) of text shaped per scene, all texts and
    /// graph labels together. Shaping costs 0.2–6 µs a character, linearly
    /// (bench/shaping.py), but Pango 1.50 wraps one long paragraph in more
    /// than linear time (200,000 characters: 0.4 s): 200,000 keeps the
    /// worst case near a second — more text than a poster holds.
    public var maxTextCharacters = 200_000
    /// Layout work in all, in layout units (about a microsecond each;
    /// EaselLayout's `LayoutWork` says what each measurement and each call
    /// into the text engine costs): about a second of layout. Every
    /// example and docs scene uses less than a hundredth of it.
    public var maxLayoutWork = 1e6
    /// Longest row of a CSV file, and longest field, in bytes: a reader
    /// buffers a row's fields, so one 60 MB line of commas would otherwise
    /// cost gigabytes before anything could refuse it.
    public var maxCSVRowLength = 1 << 20
    public var maxCSVFieldLength = 1 << 16
    public init() {}
}
