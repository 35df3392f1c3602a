import CCairo
import CPangoCairo
import EaselLayout
import EaselModel

/// The fonts one compile sees (docs/format.md, "Text and fonts"): its declared
/// fonts, then — unless turned off — the fonts in the folders the
/// machine's fontconfig configuration names, under Easel's own rules
/// (`FontRules`), in a private fontconfig configuration. Declared
/// families win: any other font claiming one of their names is left out.
///
/// Immutable once made and shared by every compile with the same fonts
/// (`FontSets`). Pango's font maps are not thread-safe, so each thread that
/// shapes takes a shaping context of its own from the set's pool: no lock
/// is held while shaping, and none at all while painting.
public final class FontSet: @unchecked Sendable {
    /// The private configuration: read by many threads, never changed.
    let config: OpaquePointer
    /// Every family name the set defines, sorted (for suggestions).
    public let families: [String]
    /// The families' names as fontconfig compares them (case and spaces ignored).
    private let familyKeys: Set<String>
    /// The machine's fonts are in the set.
    public let includesSystemFonts: Bool
    /// Why the machine's fonts could not be found (its fontconfig
    /// configuration could not be read); set once, before the set is shared.
    public internal(set) var systemFontsProblem: String?
    /// Anonymous-file path → the declared file's path as read.
    private let declaredPaths: [String: String]
    private let idle = Locked<[ShapingContext]>([])
    private let familyLists = Locked<[String: [String]]>([:])

    /// The anonymous font files the set holds (`AnonymousFontFiles`), given
    /// back when the set goes.
    private let heldFonts: [String]

    init(config: OpaquePointer, includesSystemFonts: Bool, declaredPaths: [String: String], heldFonts: [String] = []) {
        self.config = config
        self.heldFonts = heldFonts
        self.includesSystemFonts = includesSystemFonts
        self.declaredPaths = declaredPaths
        var names = Set<String>()
        if let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() {
            FcObjectSetAdd(objects, "family")
            if let list = FcFontList(config, pattern, objects) {
                for i in 0..<Int(list.pointee.nfont) {
                    if let font = list.pointee.fonts[i] { names.formUnion(FontPattern(font).strings("family")) }
                }
                FcFontSetDestroy(list)
            }
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
        }
        families = names.sorted()
        familyKeys = Set(names.map(FontSet.key))
    }

    deinit {
        // The shaping contexts (Pango font maps, with their faces) go first,
        // then the configuration (each font map holds a reference of its
        // own), then the files nothing else uses.
        idle.withLock { $0.removeAll() }
        FcConfigDestroy(config)
        AnonymousFontFiles.release(heldFonts)
    }

    /// Whether a font of the set has this family name (compared as
    /// fontconfig compares them: ignoring case and spaces).
    public func defines(family: String) -> Bool { familyKeys.contains(FontSet.key(family)) }

    static func key(_ family: String) -> String { String(family.lowercased().filter { $0 != " " }) }

    /// The path a run's font file is reported by: a declared font's as the
    /// compile read it, a system font's own.
    func reportedPath(_ path: String) -> String { declaredPaths[path] ?? path }

    /// The families Pango tries for text of `script`, in order: the text's
    /// own list with generic names expanded (`GenericFontFamily`), then the
    /// fallback for its script and language, keeping only families the set
    /// defines, each once.
    public func familyList(_ requested: [FontFamilyName], lang: String?, script: FontScript = .latin) -> [String] {
        // Texts ask again and again (stacks measure, then shape): once each.
        let key = "\(requested)|\(lang ?? "")|\(script.rawValue)"
        if let known = familyLists.withLock({ $0[key] }) { return known }
        var out: [String] = []
        var seen = Set<String>()
        func add(_ name: String) {
            let k = FontSet.key(name)
            if familyKeys.contains(k), seen.insert(k).inserted { out.append(name) }
        }
        for name in requested {
            switch name {
            case .generic(let generic): generic.families(lang: lang, script: script).forEach(add)
            case .named(let family): add(family)
            }
        }
        GenericFontFamily.fallback(lang: lang, script: script).forEach(add)
        familyLists.withLock { $0[key] = out }
        return out
    }

    /// Runs `body` with a shaping context no other thread is using.
    func withShapingContext<T>(_ body: (ShapingContext) -> T) -> T {
        let context = idle.withLock { $0.popLast() } ?? ShapingContext(config: config)
        defer { idle.withLock { $0.append(context) } }
        return body(context)
    }
}

/// A Pango font map and context over one font set's configuration, used by
/// one thread at a time. Set up as Easel always shapes: 72 dpi, unrounded
/// glyph positions, grey anti-aliasing, no hinting, unhinted metrics, and
/// no language of the machine's locale.
final class ShapingContext: @unchecked Sendable {
    let fontMap: UnsafeMutablePointer<PangoFontMap>
    let context: OpaquePointer

    init(config: OpaquePointer) {
        fontMap = pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT)
        pango_fc_font_map_set_config(OpaquePointer(fontMap), config)
        context = pango_font_map_create_context(fontMap)
        pango_cairo_context_set_resolution(context, 72)
        // Unrounded glyph positions: sizes scale exactly with the font size,
        // and glyphs land where they belong at every output scale.
        pango_context_set_round_glyph_positions(context, 0)
        // "und" includes every script, so Pango never derives a language
        // from PANGO_LANGUAGE or LANGUAGE (pango-language.c) for text without one.
        pango_context_set_language(context, pango_language_from_string("und"))
        // The options every run is drawn with, so measuring and drawing agree.
        pango_cairo_context_set_font_options(context, CairoFontFaces.options)
    }

    deinit {
        g_object_unref(UnsafeMutableRawPointer(context))
        // Pango 1.50's font map keeps the reference set_config took when it
        // is finalised: handing the configuration back releases it.
        pango_fc_font_map_set_config(OpaquePointer(fontMap), nil)
        g_object_unref(UnsafeMutableRawPointer(fontMap))
    }
}
