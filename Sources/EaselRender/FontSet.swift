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
/// shapes takes a shaping context of its own from the set's pool; shaping
/// holds no lock (`ShapingContext` says when PangoCairo's lock is taken),
/// and raster and SVG painting take it only for a colour glyph's run
/// (`CairoFontAccess`).
public final class FontSet: @unchecked Sendable {
    /// The private configuration: read by many threads, never changed.
    let config: OpaquePointer
    /// Every family name the set defines, sorted (for suggestions).
    public let families: [String]
    /// The families' names as fontconfig compares them (case and spaces
    /// ignored), each with the names the set has for it.
    private let namesByKey: [String: [String]]
    /// The machine's fonts are in the set.
    public let includesSystemFonts: Bool
    /// Why the machine's fonts could not be found (its fontconfig
    /// configuration could not be read); set once, before the set is shared.
    public internal(set) var systemFontsProblem: String?
    /// Anonymous-file path → the declared file's path as read.
    private let declaredPaths: [String: String]
    /// Every font file of the set by path, numbered (`FontFiles`).
    private let fileIDs: [String: FontFileID]
    private let idle = Locked<[ShapingContext]>([])
    /// Contexts whose whole-set engine a test fixed (`TextShaper.wholeSetFreeType`).
    private let forcedIdle = Locked<[Bool: [ShapingContext]]>([:])
    private let familyLists = Locked<[FamilyListKey: [String]]>([:])
    private struct FamilyListKey: Hashable {
        var requested: [FontFamilyName]
        var lang: String?
        var script: String
    }

    /// The anonymous font files the set holds (`AnonymousFontFiles`), given
    /// back when the set goes.
    private let heldFonts: [String]
    /// The configuration document the set was made from, when smaller sets
    /// may be made from it for texts that need few families
    /// (`NarrowedFonts`): a set of the machine's fonts and no declared ones.
    private let document: String?
    /// Each family's characters (by key), for `narrowing`.
    private let coverages = Locked<[String: FamilyCoverage]>([:])
    /// Narrowed sets by the family names they hold, the most recently used last.
    private let narrowed = Locked<[(key: String, fonts: NarrowedFonts)]>([])
    /// How many narrowed sets a set keeps: a scene's texts use a few.
    static let narrowedCapacity = 16

    init(config: OpaquePointer, includesSystemFonts: Bool, declaredPaths: [String: String], heldFonts: [String] = [],
         document: String? = nil) {
        self.config = config
        self.document = document
        self.heldFonts = heldFonts
        self.includesSystemFonts = includesSystemFonts
        self.declaredPaths = declaredPaths
        var names = Set<String>(), files = Set<String>()
        if let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() {
            FcObjectSetAdd(objects, "family")
            FcObjectSetAdd(objects, "file")
            if let list = FcFontList(config, pattern, objects) {
                for i in 0..<Int(list.pointee.nfont) {
                    guard let font = list.pointee.fonts[i] else { continue }
                    let pattern = FontPattern(font)
                    var n: Int32 = 0
                    while let name = pattern.string("family", n) { names.insert(name); n += 1 }
                    n = 0
                    while let file = pattern.string("file", n) { files.insert(file); n += 1 }
                }
                FcFontSetDestroy(list)
            }
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
        }
        families = names.sorted()
        namesByKey = Dictionary(grouping: families, by: FontSet.key)
        fileIDs = FontFiles.number(files.sorted())
    }

    deinit {
        // The shaping contexts (Pango font maps, with their faces) go first,
        // then the configuration (each font map holds a reference of its
        // own), then the files nothing else uses.
        idle.withLock { $0.removeAll() }
        forcedIdle.withLock { $0.removeAll() }
        narrowed.withLock { $0.removeAll() }
        coverages.withLock { $0.removeAll() }
        FcConfigDestroy(config)
        AnonymousFontFiles.release(heldFonts)
    }

    /// Whether a font of the set has this family name (compared as
    /// fontconfig compares them: ignoring case and spaces).
    public func defines(family: String) -> Bool { namesByKey[FontSet.key(family)] != nil }

    static func key(_ family: String) -> String {
        // ASCII names (nearly all) byte by byte: the set's few hundred
        // families are keyed at every start, and lowercasing and filtering
        // Characters cost ten times as much.
        var ascii: [UInt8] = []
        ascii.reserveCapacity(family.utf8.count)
        for byte in family.utf8 {
            guard byte < 0x80 else { return String(family.lowercased().filter { $0 != " " }) }
            if byte == UInt8(ascii: " ") { continue }
            ascii.append(byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte)
        }
        return String(decoding: ascii, as: UTF8.self)
    }

    /// The path a run's font file is reported by: a declared font's as the
    /// compile read it, a system font's own.
    func reportedPath(_ path: String) -> String { declaredPaths[path] ?? path }

    /// The number of a font file of the set (read from the set's own table).
    func fileID(_ path: String) -> FontFileID {
        if let known = fileIDs[path] { return known }
        FontSet.filesNumberedLate.withLock { $0 += 1 }
        return FontFiles.number([path])[path]!
    }
    /// Runs whose file was not in their set's table (numbered under the
    /// process-wide lock instead); none, for fontconfig's own paths.
    package static let filesNumberedLate = Locked(0)

    /// The families Pango tries for text of `script`, in order: the text's
    /// own list with generic names expanded (`GenericFontFamily`), then the
    /// fallback for its script and language, keeping only families the set
    /// defines, each once.
    public func familyList(_ requested: [FontFamilyName], lang: String?, script: FontScript = .latin) -> [String] {
        // Texts ask again and again (stacks measure, then shape): once each.
        let key = FamilyListKey(requested: requested, lang: lang, script: script.rawValue)
        if let known = familyLists.withLock({ $0[key] }) { return known }
        var out: [String] = []
        var seen = Set<String>()
        func add(_ name: String) {
            let k = FontSet.key(name)
            if namesByKey[k] != nil, seen.insert(k).inserted { out.append(name) }
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

    /// Runs `body` with a shaping context no other thread is using: one
    /// over just a few families' fonts when they are all the text can use
    /// (see `narrowing(_:for:)`), else one over the whole set.
    func withShapingContext<T>(for text: String, families lists: [[String]]?, wholeSetFreeType: Bool? = nil,
                               _ body: (ShapingContext) -> T) -> T {
        if document != nil, let lists, let names = narrowing(lists, for: text), let fonts = narrowedFonts(names) {
            let context = fonts.idle.withLock { $0.popLast() } ?? ShapingContext(config: fonts.config, wholeSet: false)
            defer {
                context.clearCachesIfFull()
                fonts.idle.withLock { $0.append(context) }
            }
            return body(context)
        }
        if let forced = wholeSetFreeType {
            // Pooled like the others: a font map is not finalised while
            // Pango's fontconfig thread may still sort for it.
            let context = forcedIdle.withLock { $0[forced]?.popLast() }
                ?? ShapingContext(config: config, wholeSet: true, freeTypeFirst: forced)
            defer {
                context.clearCachesIfFull()
                forcedIdle.withLock { $0[forced, default: []].append(context) }
            }
            return body(context)
        }
        let context = idle.withLock { $0.popLast() } ?? ShapingContext(config: config, wholeSet: true)
        defer {
            context.clearCachesIfFull()
            idle.withLock { $0.append(context) }
        }
        return body(context)
    }

    /// The families a text needs, when its descriptions list `lists`:
    /// of each list, the shortest start whose fonts together have a glyph
    /// for every character (line breaks and tabs aside, which no font is
    /// chosen for); nil if a whole list does not cover the text.
    ///
    /// Why that is all: fontconfig sorts a description's fonts family by
    /// family in the list's order (the family outranks every other property
    /// Pango asks for), so the fonts of a list's first k families are the
    /// first fonts of the sort over the whole set, in the same order; if
    /// some font among them covers a character, the first font that covers
    /// it — Pango's choice — is among them. A set of just those families
    /// gives the same choices (and the same first font, for metrics).
    func narrowing(_ lists: [[String]], for text: String) -> [String]? {
        let scalars = text.unicodeScalars.filter { $0 != "\n" && $0 != "\r" && $0 != "\t" }.map(\.value)
        var keys = Set<String>()
        for list in lists {
            var covered = [Bool](repeating: false, count: scalars.count)
            var remaining = scalars.count
            for family in list where remaining > 0 {
                let key = FontSet.key(family)
                keys.insert(key)
                guard let coverage = coverage(of: key) else { continue }
                for (i, c) in scalars.enumerated() where !covered[i] && coverage.has(c) {
                    covered[i] = true
                    remaining -= 1
                }
            }
            guard remaining == 0 else { return nil }
        }
        return keys.sorted().flatMap { namesByKey[$0] ?? [] }
    }

    /// The characters the fonts of one family (by key) have, together.
    func coverage(of key: String) -> FamilyCoverage? {
        if let known = coverages.withLock({ $0[key] }) { return known }
        guard let names = namesByKey[key] else { return nil }
        let made = FamilyCoverage(config: config, names: Set(names))
        return coverages.withLock { known in
            if let other = known[key] { return other }
            known[key] = made
            return made
        }
    }

    /// The narrowed set of these family names, made on first use: the
    /// set's own configuration with every font refused but theirs, read
    /// from the same caches in the same order.
    private func narrowedFonts(_ names: [String]) -> NarrowedFonts? {
        guard let document, !names.isEmpty else { return nil }
        let key = names.joined(separator: "\u{1}")
        if let hit = narrowed.withLock({ list -> NarrowedFonts? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = list.remove(at: i)
            list.append(entry)
            return entry.fonts
        }) {
            return hit
        }
        guard let made = NarrowedFonts(document: document, families: names) else { return nil }
        // Another thread may have made the same set meanwhile: one is kept.
        return narrowed.withLock { list in
            if let other = list.first(where: { $0.key == key }) { return other.fonts }
            list.append((key, made))
            if list.count > FontSet.narrowedCapacity { list.removeFirst(list.count - FontSet.narrowedCapacity) }
            return made
        }
    }
}

/// The characters the fonts of one family of a set have, together — of
/// the fonts Pango can use: it drops every font whose format is not
/// TrueType or CFF (Type 1, say) after sorting, so a family covers a text
/// only through those. Held as Easel's own bitmaps, one per 256-character
/// page, read from the fonts' charsets page by page: a mutable FcCharSet
/// keeps its leaves as offsets, which LeakSanitizer cannot follow (a set
/// the process keeps looked leaked). Immutable once made.
final class FamilyCoverage: Sendable {
    /// Page (character >> 8) → its 256 bits, as fontconfig's maps hold them.
    private let pages: [UInt32: [UInt32]]

    init(config: OpaquePointer, names: Set<String>) {
        var pages: [UInt32: [UInt32]] = [:]
        if let set = FcConfigGetFonts(config, FcSetSystem) {
            for i in 0..<Int(set.pointee.nfont) {
                guard let font = set.pointee.fonts[i], FontPattern(font).strings("family").contains(where: names.contains),
                      let format = FontPattern(font).strings("fontformat").first?.lowercased(),
                      format == "truetype" || format == "cff" else { continue }
                var charset: OpaquePointer?
                guard FcPatternGetCharSet(font, "charset", 0, &charset) == FcResultMatch, let charset else { continue }
                var map = [FcChar32](repeating: 0, count: 8)   // FC_CHARSET_MAP_SIZE
                var next: FcChar32 = 0
                var base = FcCharSetFirstPage(charset, &map, &next)
                while base != FcChar32.max {   // FC_CHARSET_DONE
                    var words = pages[base >> 8] ?? [UInt32](repeating: 0, count: 8)
                    for w in 0..<8 { words[w] |= map[w] }
                    pages[base >> 8] = words
                    base = FcCharSetNextPage(charset, &map, &next)
                }
            }
        }
        self.pages = pages
    }

    func has(_ c: UInt32) -> Bool {
        guard let words = pages[c >> 8] else { return false }
        return words[Int((c & 0xFF) >> 5)] & (1 << (c & 31)) != 0
    }
}

/// A font set cut down to a few families for the texts that need no others:
/// its own configuration (refusing every font — an empty pattern; a glob
/// would refuse by file name before any pattern could accept — but theirs,
/// scalable ones only, as the whole set does) and its shaping contexts.
/// Each is built from the fontconfig caches of the machine's folders (a
/// folder without a current cache is scanned again for each set: `fc-cache`
/// keeps that from happening). Pango 1.50's font map sorts every font of its
/// configuration for each new font description (`FcFontSetSort`, in the
/// background, whether or not the text needs a fallback), so a set of
/// the text's own families is what keeps that sort small.
final class NarrowedFonts: @unchecked Sendable {
    let config: OpaquePointer
    let idle = Locked<[ShapingContext]>([])

    init?(document: String, families: [String]) {
        let closing = "</fontconfig>\n"
        guard !families.isEmpty, document.hasSuffix(closing) else { return nil }
        var xml = String(document.dropLast(closing.count))
        xml += "<selectfont>\n<acceptfont>\n"
        // A family the document cannot hold would be missing from the set.
        guard families.allSatisfy(XMLText.canHold) else { return nil }
        for family in families {
            xml += "<pattern><patelt name=\"family\"><string>\(XMLText.escape(family))</string></patelt>"
            xml += "<patelt name=\"scalable\"><bool>true</bool></patelt></pattern>\n"
        }
        xml += "</acceptfont>\n<rejectfont><pattern></pattern></rejectfont>\n</selectfont>\n</fontconfig>\n"
        guard let config = FcConfigCreate() else { return nil }
        FcConfigSetSysRoot(config, nil)
        guard xml.withCString({ FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 1) }) != 0,
              FcConfigBuildFonts(config) != 0 else {
            FcConfigDestroy(config)
            return nil
        }
        self.config = config
    }

    deinit {
        idle.withLock { $0.removeAll() }
        FcConfigDestroy(config)
    }
}

/// Pango font maps and contexts over one font set's configuration, used by
/// one thread at a time. Set up as Easel always shapes: 72 dpi, unrounded
/// glyph positions, no hinting, unhinted metrics, and no language of the
/// machine's locale.
///
/// Two engines. Text is shaped with PangoFT2 (over a whole set, when
/// `freeTypeFirst` says so): its fonts are FreeType faces of this
/// context's own FreeType library and HarfBuzz fonts, so nothing is shared
/// with another thread but the immutable fontconfig configuration, and no
/// lock is held. A text in which Pango set an unknown glyph (a character
/// no font has, or a space given to a font without one) is shaped again
/// with PangoCairo under `CairoFontAccess`: the two measure an unknown
/// glyph differently (PangoCairo as the hex box Easel draws), and every
/// text measures as it always has. So is a text with an empty glyph for
/// anything but whitespace its font has, a tab or a default-ignorable
/// character (those measure alike in both engines) — an unknown space at a
/// wrapped line's end (`noteLayout`).
/// (PangoCairo's glyph extents come from Cairo's FreeType fonts, which
/// Cairo opens and closes itself — the reason for the lock.)
final class ShapingContext: @unchecked Sendable {
    private final class Engine {
        let fontMap: UnsafeMutablePointer<PangoFontMap>
        let context: OpaquePointer

        init(fontMap: UnsafeMutablePointer<PangoFontMap>, config: OpaquePointer, setUp: (OpaquePointer) -> Void) {
            self.fontMap = fontMap
            pango_fc_font_map_set_config(OpaquePointer(fontMap), config)
            context = pango_font_map_create_context(fontMap)
            setUp(context)
            // Unrounded glyph positions: sizes scale exactly with the font size,
            // and glyphs land where they belong at every output scale.
            pango_context_set_round_glyph_positions(context, 0)
            // "und" includes every script, so Pango never derives a language
            // from PANGO_LANGUAGE or LANGUAGE (pango-language.c) for text without one.
            pango_context_set_language(context, pango_language_from_string("und"))
        }

        deinit {
            g_object_unref(UnsafeMutableRawPointer(context))
            // Pango 1.50's font map keeps the reference set_config took when it
            // is finalised: handing the configuration back releases it.
            pango_fc_font_map_set_config(OpaquePointer(fontMap), nil)
            g_object_unref(UnsafeMutableRawPointer(fontMap))
        }
    }

    private let config: OpaquePointer
    /// Made the first time a text is shaped with it.
    private var freeTypeEngine: Engine?
    private var freeType: Engine {
        if let freeTypeEngine { return freeTypeEngine }
        let engine = Engine(fontMap: pango_ft2_font_map_new(), config: config) { _ in }
        // Pango 1.50's PangoFT2 substitutes a description's pattern with
        // fontconfig's default configuration, not the map's (PangoCairo uses
        // the map's): this callback applies the set's own rules and aliases
        // and the font options PangoCairo adds, so both engines ask
        // fontconfig the same question. With the program's empty default
        // (`FontSystem.prepareProgram`) the default's substitution is a no-op.
        // The callback holds a reference of its own to the configuration.
        pango_fc_font_map_set_default_substitute(OpaquePointer(engine.fontMap), { pattern, config in
            FcConfigSubstitute(OpaquePointer(config), pattern, FcMatchPattern)
            cairo_ft_font_options_substitute(CairoFontFaces.options, pattern)
        }, UnsafeMutableRawPointer(FcConfigReference(config)), { FcConfigDestroy(OpaquePointer($0)) })
        pango_ft2_font_map_set_resolution(OpaquePointer(engine.fontMap), 72, 72)
        freeTypeEngine = engine
        return engine
    }
    /// A `shaping` call is under way (one per context at a time: the
    /// engine switch below is the context's state).
    private var inShaping = false
    /// Made the first time a text needs it.
    private var cairo: Engine?
    /// The engine in use: FreeType's, or Cairo's while a text is shaped again.
    private var shapingWithCairo = false
    /// Whether a layout made since `shaping` began set an unknown or empty glyph.
    private var setUnknownGlyph = false

    /// The Pango context of the engine in use.
    var context: OpaquePointer { shapingWithCairo ? cairo!.context : freeType.context }

    /// The font descriptions shaped with since the font maps' caches were
    /// last cleared (by `pango_font_description_hash`). Pango keeps a font
    /// for each (its fontset cache holds 256): a worker or preview shaping
    /// a new `font-variation` or size with each request would hold ever
    /// more of them, with their FreeType and HarfBuzz fonts. Past
    /// `maxDescriptions` the caches are cleared, between two uses.
    private var descriptions = Set<UInt32>()
    static let maxDescriptions = 64

    func noteDescription(_ description: OpaquePointer) {
        descriptions.insert(pango_font_description_hash(description))
    }

    /// Called when no text is being shaped with the context.
    func clearCachesIfFull() {
        guard descriptions.count > Self.maxDescriptions else { return }
        if let freeTypeEngine { pango_fc_font_map_cache_clear(OpaquePointer(freeTypeEngine.fontMap)) }
        if let cairo { pango_fc_font_map_cache_clear(OpaquePointer(cairo.fontMap)) }
        descriptions.removeAll()
    }

    /// The context is over a whole set, not a narrowed one.
    private let wholeSet: Bool
    /// Fixes the engine a whole set shapes with first (the tests' comparison).
    private let forcedFreeType: Bool?

    /// Shapes with PangoFT2 first: over a narrowed set (`NarrowedFonts`),
    /// always; over a whole set, when fontconfig's default configuration is
    /// the program's empty one (`FontSystem.defaultConfigurationIsEmpty`),
    /// read for each text. PangoFT2 substitutes a description's pattern
    /// with the default configuration before the set's own: a default with
    /// rules of its own (a host's) would add its aliases to every pattern,
    /// and over a whole set choose other fallback fonts than PangoCairo
    /// (digits from a colour emoji font). There a whole set shapes with
    /// PangoCairo, under the lock.
    var freeTypeFirst: Bool { forcedFreeType ?? (!wholeSet || FontSystem.defaultConfigurationIsEmpty) }

    init(config: OpaquePointer, wholeSet: Bool, freeTypeFirst forced: Bool? = nil) {
        self.config = config
        self.wholeSet = wholeSet
        self.forcedFreeType = forced
    }

    /// `body`'s result with the FreeType engine, or, when a layout it made
    /// set an unknown or empty glyph, `body` run again with the Cairo engine under
    /// `CairoFontAccess`. `body` makes its layouts with `context` and
    /// passes each to `noteLayout`.
    func shaping<T>(_ body: () -> T) -> T {
        precondition(!inShaping, "a shaping context shapes one text at a time")
        inShaping = true
        defer { inShaping = false }
        if freeTypeFirst {
            setUnknownGlyph = false
            let result = body()
            guard setUnknownGlyph else { return result }
        }
        return CairoFontAccess.withLock {
            PaintingProbe.shapingWithCairo()
            if cairo == nil {
                cairo = Engine(fontMap: pango_cairo_font_map_new_for_font_type(CAIRO_FONT_TYPE_FT), config: config) { context in
                    pango_cairo_context_set_resolution(context, 72)
                    // The options every run is drawn with, so measuring and drawing agree.
                    pango_cairo_context_set_font_options(context, CairoFontFaces.options)
                }
            }
            shapingWithCairo = true
            defer { shapingWithCairo = false }
            return body()
        }
    }

    /// Notes whether `layout` (its text and attributes set) has a glyph
    /// the two engines may measure differently: an unknown glyph, or an
    /// empty one for anything but whitespace its font has, a tab or a
    /// default-ignorable character (Pango empties the space that ends every
    /// wrapped line, and an unknown space there too).
    func noteLayout(_ layout: OpaquePointer) {
        guard !shapingWithCairo, !setUnknownGlyph, let iter = pango_layout_get_iter(layout),
              let text = pango_layout_get_text(layout) else { return }
        defer { pango_layout_iter_free(iter) }
        repeat {
            guard let run = pango_layout_iter_get_run_readonly(iter), let glyphs = run.pointee.glyphs,
                  let item = run.pointee.item else { continue }
            for i in 0..<Int(glyphs.pointee.num_glyphs) {
                let glyph = glyphs.pointee.glyphs[i].glyph
                if glyph & GlyphRunReader.unknownFlag != 0 {
                    setUnknownGlyph = true
                    return
                }
                guard glyph == GlyphRunReader.emptyGlyph else { continue }
                let byte = Int(item.pointee.offset) + Int(glyphs.pointee.log_clusters[i])
                guard let scalar = Self.scalar(in: text, at: byte) else {
                    setUnknownGlyph = true
                    return
                }
                // A tab (its width is the tab stop's, from a shaped space) and a
                // default-ignorable character (a variation selector, a joiner)
                // measure the same with both engines.
                if scalar.properties.isDefaultIgnorableCodePoint || scalar == "\t" { continue }
                guard scalar.properties.isWhitespace, let font = item.pointee.analysis.font,
                      pango_font_has_char(font, scalar.value) != 0 else {
                    setUnknownGlyph = true
                    return
                }
            }
        } while pango_layout_iter_next_run(iter) != 0
    }

    /// The character whose UTF-8 starts at `byte` of `text`.
    private static func scalar(in text: UnsafePointer<CChar>, at byte: Int) -> Unicode.Scalar? {
        let bytes = UnsafeRawPointer(text + byte).assumingMemoryBound(to: UInt8.self)
        var length = 1
        if bytes[0] >= 0xF0 { length = 4 } else if bytes[0] >= 0xE0 { length = 3 } else if bytes[0] >= 0xC0 { length = 2 }
        for k in 1..<max(length, 1) where bytes[k] == 0 { return nil }
        var decoder = UTF8()
        var iterator = UnsafeBufferPointer(start: bytes, count: length).makeIterator()
        if case .scalarValue(let s) = decoder.decode(&iterator) { return s }
        return nil
    }
}
