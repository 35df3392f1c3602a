import EaselParse
import FoundationEssentials

extension AssetBuild {
    /// What `easel build` is asked to do.
    public struct Options: Sendable {
        public var source: URL
        public var output: URL
        /// PNG scales. Empty: each scene once at its own `scale`, named
        /// `NAME.png` (as `easel render --out-dir` names it); in an asset
        /// catalog 1, 2 and 3, the imageset's three slots.
        public var scales: [Double] = []
        public var formats: [OutputFormat] = [.png]
        public var jobs = ParallelJobs.defaultJobs
        /// `output` is an `.xcassets` catalog: one imageset per scene (an
        /// appiconset per app icon), one colorset per exported palette colour.
        public var xcassets = false
        /// `output` is an Android resource folder (`--android`): drawables
        /// per density, launcher and adaptive icons.
        public var android = false
        /// `--icon-composer`: an app icon also as `NAME.icon` (Icon Composer).
        public var iconComposer = false
        /// `--android-vectors`: drawables and adaptive layers as VectorDrawables where they can be.
        public var androidVectors = false
        /// `--android-monochrome`.
        public var androidMonochrome = AndroidMonochrome.none
        /// `--android-format`: an Android build's pictures as PNG or lossless WebP.
        public var androidFormat = OutputFormat.png
        /// The platforms of an asset catalog's app icon sets (`--platforms`).
        public var platforms: [IconPlatform] = [.ios]
        /// An asset catalog's image slots (`--display-gamut`).
        public var displayGamut = DisplayGamut.srgb
        /// Say what would be rendered and removed; write nothing.
        public var dryRun = false
        /// Read and write `.easel-build.json` (`--no-manifest`: false). A build
        /// system that tracks changes itself (Bazel) wants outputs that are
        /// only the pictures: no manifest, every scene rendered, nothing removed.
        public var usesManifest = true
        /// Called as each scene finishes (on its worker thread, one call at
        /// a time): the scene, whether it rendered, how many are done, how
        /// many there are.
        public var progress: (@Sendable (_ scene: String, _ ok: Bool, _ done: Int, _ total: Int) -> Void)?
        /// Called once if another build holds the output folder: this one
        /// waits for it to finish.
        public var waiting: (@Sendable () -> Void)?
        public var compile = Easel.Options()
        /// How messages name the source folder (as the user typed it).
        public var sourceName: String?
        /// `--locales`: each scene that uses a key of `compile.strings` is
        /// rendered once per locale (others once).
        public var locales: [String] = []
        /// How many scenes this build renders (set by `run`): a scene's
        /// locales share the workers the other scenes leave.
        var staleScenes = 1
        public init(source: URL, output: URL) { self.source = source; self.output = output }

        /// The scales PNGs are rendered at; nil: the scene's own, no suffix.
        var pngScales: [Double?] {
            if android { return AndroidResources.densities.map(\.scale) }
            return xcassets ? catalogScales : (scales.isEmpty ? [nil] : scales)
        }
        /// An imageset's entries name their scale.
        var catalogScales: [Double] { scales.isEmpty ? [1, 2, 3] : scales }

        /// A scene's path as messages name it (under the source folder as the user typed it).
        func shownPath(_ scene: String) -> String {
            sourceName.map { $0.appendingPathComponent(scene) } ?? source.appendingPathComponent(scene).path
        }
    }
}

/// `easel build --android-monochrome`: where an adaptive icon's themed
/// layer comes from when the scene has no `monochrome` group.
public enum AndroidMonochrome: String, Sendable, CaseIterable {
    /// None is made (the system may colour-filter the icon itself).
    case none
    /// The foreground's coverage in one colour (`RenderTree.monochrome`).
    case auto
}

/// `easel build --xcassets --display-gamut`: which of Xcode's gamut slots
/// an imageset fills.
public enum DisplayGamut: String, Sendable, CaseIterable {
    /// One image per scale with no gamut of its own (Xcode's "Any"),
    /// painted in the scene's colour space (sRGB unless it says otherwise).
    case srgb
    /// One image per scale, painted in Display P3 (a tagged PNG or PDF).
    case p3
    /// Per scale an sRGB image (`display-gamut` `sRGB`) and a Display P3
    /// one (`display-P3`, named `NAME-p3@2x.png`).
    case both
}

extension AssetBuild.Options {
    /// Everything besides the files that decides what a build writes.
    var fingerprint: String {
        let l = compile.limits
        return "scales=\(scales) formats=\(formats.map(\.rawValue)) xcassets=\(xcassets) android=\(android)\(androidVectors ? " android-vectors" : "")\(androidMonochrome == .auto ? " android-monochrome=auto" : "")\(iconComposer ? " icon-composer" : "")\(androidFormat == .png ? "" : " android-format=\(androidFormat.rawValue)")\(compile.quality.map { " quality=\($0)" } ?? "") platforms=\(platforms.map(\.rawValue)) "
            + "limits=\(l.maxPixels),\(l.maxNodes),\(l.maxDepth),\(l.maxFileSize),\(l.maxPaintCost),\(l.maxTextCharacters),\(l.maxLayoutWork) "
            + "allow=\(compile.allowedDirectories.map(\.path)) png=\(compile.pngCompression.encoding) dither=\(compile.dither.map(String.init) ?? "scene") "
            + "appearance=\(compile.appearance.rawValue) " + (displayGamut == .srgb ? "" : "display-gamut=\(displayGamut.rawValue) ")
            + (compile.colorSpace.map { "color-space=\($0.rawValue) " } ?? "") + "set=\(compile.parameters.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.value)" }) "
            // The font folders' files by name: a font added or removed can change
            // any scene's fallback; one whose bytes change rebuilds the scenes that used it.
            + "fonts=\(FontInputs.fileNames(in: compile.fontDirectories)) "
            // With the machine's fonts: which font files it has (a font
            // installed can change any text's fallback).
            + "system-fonts=\(compile.systemFonts ? ContentHash.sha256(Array(FontSystem.machineFontFiles().joined(separator: "\n").utf8)) : "no") "
            + "missing-glyphs=\(compile.missingGlyphs.rawValue) text-overflow=\(compile.textOverflow.rawValue) "
            // One --locale for the whole build: the locale and the tables' values
            // decide every scene's strings. (--locales records them per scene,
            // so turning it on or off rebuilds and cleans up scene by scene.)
            + "locale=\(compile.locale ?? "") strings=\(compile.locale == nil ? "per scene" : stringsDigest)"
    }

    /// The string tables' values, as a hash (for a build with one `--locale`).
    var stringsDigest: String {
        guard let strings = compile.strings else { return "none" }
        let lines = strings.tables.keys.sorted().flatMap { locale in
            strings.tables[locale]!.sorted { $0.key < $1.key }.map { "\(locale)\u{0}\($0.key)\u{0}\($0.value)" }
        }
        return ContentHash.sha256(Array(((strings.sourceLanguage ?? "") + "\n" + lines.joined(separator: "\n")).utf8))
    }

    /// What the string tables give each locale for these keys (what a
    /// localized render used, recorded so that a changed translation
    /// rebuilds only its locale).
    func stringsUsed(_ keys: [String]) -> [String: [String: String]] {
        var out: [String: [String: String]] = [:]
        for locale in locales {
            var table: [String: String] = [:]
            for key in keys {
                if let strings = compile.strings, let v = strings.value(key, locale: strings.lookupLocale(for: locale)) {
                    table[key] = v.value
                }
            }
            out[locale] = table
        }
        return out
    }

    enum LocaleChanges { case none, all, some([String]) }

    /// Which locales of a scene built before need rendering again because
    /// their translations changed: all of them where the scene becomes
    /// localized or stops being so.
    func localeChanges(_ entry: BuildManifest.Entry) -> LocaleChanges {
        // Built with --locales before and not now: its locale folders go.
        guard !locales.isEmpty else { return entry.strings == nil ? .none : .all }
        guard let candidates = entry.stringParameters, let before = entry.strings else { return .all }
        // A locale added or dropped: the scene again, its dropped locale's files removed.
        if Set(before.keys) != Set(locales) { return .all }
        let now = stringsUsed(candidates)
        let wasLocalized = before.values.contains { !$0.isEmpty }, isLocalized = now.values.contains { !$0.isEmpty }
        if wasLocalized != isLocalized { return .all }
        guard isLocalized else { return .none }
        let changed = locales.filter { before[$0] != now[$0] }
        return changed.isEmpty ? .none : .some(changed)
    }
}
