import EaselRender

/// An Android resource folder (`easel build --android RES`), by the rules
/// of Android's "App resources overview" and "Adaptive icons": a
/// drawable per density, named in `[a-z0-9_]`; an app icon as
/// `mipmap-*/ic_launcher.png` at 48 dp and, from its layer groups, an
/// adaptive icon (`mipmap-anydpi-v26/ic_launcher.xml`) whose layers are
/// 108 dp squares, of which launchers show at least the central circle
/// 66 dp across.
enum AndroidResources {
    /// The generalised densities and their pixels per dp.
    static let densities: [(name: String, scale: Double)] = [
        ("mdpi", 1), ("hdpi", 1.5), ("xhdpi", 2), ("xxhdpi", 3), ("xxxhdpi", 4),
    ]
    /// A legacy launcher icon's side.
    static let launcherSize = 48
    /// An adaptive icon layer's side, and the circle every mask shows.
    static let layerSize = 108
    static let safeDiameter = 66
    /// The adaptive icon's layers, in the order its XML lists them.
    static let layerIDs = ["background", "foreground", "monochrome"]
    static let launcherName = "ic_launcher"

    /// The adaptive icon's layers an app icon with these top-level ids
    /// has: none unless it has both a background and a foreground.
    /// `derivedMonochrome`: a monochrome layer is made from the foreground
    /// when the scene has none (`--android-monochrome auto`).
    static func adaptiveLayers(ids: [String], derivedMonochrome: Bool = false) -> [String] {
        guard ids.contains("background") && ids.contains("foreground") else { return [] }
        return layerIDs.filter { ids.contains($0) || $0 == "monochrome" && derivedMonochrome }
    }

    /// Java's reserved words and literals: `R.drawable.class` would not compile.
    static let javaKeywords: Set<String> = [
        "abstract", "assert", "boolean", "break", "byte", "case", "catch", "char", "class", "const", "continue",
        "default", "do", "double", "else", "enum", "extends", "final", "finally", "float", "for", "goto", "if",
        "implements", "import", "instanceof", "int", "interface", "long", "native", "new", "package", "private",
        "protected", "public", "return", "short", "static", "strictfp", "super", "switch", "synchronized", "this",
        "throw", "throws", "transient", "try", "void", "volatile", "while", "true", "false", "null", "_",
    ]

    /// `My Icon` → `my_icon`: lowercased, every character outside
    /// `[a-z0-9_]` an underscore. Nil if that is empty, starts with a
    /// digit or is a Java keyword.
    static func resourceName(_ name: String) -> String? {
        let mapped = mappedName(name)
        guard let first = mapped.unicodeScalars.first, !("0"..."9").contains(first), !javaKeywords.contains(mapped) else { return nil }
        return mapped
    }

    /// The name lowercased, other characters than `[a-z0-9_]` underscores.
    static func mappedName(_ name: String) -> String {
        String(name.lowercased().unicodeScalars.map { s -> Character in
            ("a"..."z").contains(s) || ("0"..."9").contains(s) || s == "_" ? Character(s) : "_"
        })
    }

    /// A locale as a resource qualifier: `de`, `pt-rBR`, or the BCP 47
    /// form `b+zh+Hant+TW` for anything else.
    static func localeQualifier(_ locale: String) -> String {
        let parts = locale.split(separator: "-").map(String.init)
        if parts.count == 1 { return parts[0].lowercased() }
        if parts.count == 2, parts[1].count == 2 { return parts[0].lowercased() + "-r" + parts[1].uppercased() }
        return "b+" + parts.joined(separator: "+")
    }

    /// `drawable-de-night-xhdpi`: qualifiers in the order Android requires
    /// (locale, night mode, density).
    static func folder(_ type: String, locale: String?, night: Bool, density: String?) -> String {
        ([type] + [locale.map(localeQualifier), night ? "night" : nil, density].compactMap { $0 }).joined(separator: "-")
    }

    /// The adaptive icon's XML: each layer a `@mipmap/` drawable (PNGs
    /// per density), or `@drawable/` for the layers in `vectors`.
    static func adaptiveIconXML(layers: [String], vectors: Set<String> = []) -> [UInt8] {
        var xml = """
            <?xml version="1.0" encoding="utf-8"?>
            <adaptive-icon xmlns:android="http://schemas.android.com/apk/res/android">

            """
        for layer in layerIDs where layers.contains(layer) {
            let type = vectors.contains(layer) ? "drawable" : "mipmap"
            xml += "    <\(layer) android:drawable=\"@\(type)/\(launcherName)_\(layer)\" />\n"
        }
        xml += "</adaptive-icon>\n"
        return Array(xml.utf8)
    }

    /// How far past the safe circle a foreground layer draws, in dp (nil if
    /// it stays inside): pixels with alpha of at least 1/16 whose centre is
    /// more than a pixel outside the circle (a pixel at the edge is partly
    /// covered by the circle's own antialiasing).
    static func inkOutsideSafeZone(_ image: RasterImage) -> Double? {
        let side = Double(image.width)
        let pixelsPerDp = side / Double(layerSize)
        let radius = Double(safeDiameter) / 2 * pixelsPerDp
        let centre = side / 2
        var farthest = 0.0
        for y in 0..<image.height {
            for x in 0..<image.width where image.rgba[(y * image.width + x) * 4 + 3] >= 16 {
                let dx = Double(x) + 0.5 - centre, dy = Double(y) + 0.5 - centre
                let d = (dx * dx + dy * dy).squareRoot()
                if d > radius + 1 { farthest = max(farthest, d) }
            }
        }
        return farthest > 0 ? (farthest - radius) / pixelsPerDp : nil
    }
}

extension Diagnostic.Message {
    static func invalidResourceName(_ scene: String, _ mapped: String) -> Self {
        .init(.invalidResourceName, "'\(scene)' cannot be an Android resource name: it becomes '\(mapped)', which \(mapped.isEmpty ? "is empty" : mapped.first!.isNumber ? "starts with a digit" : "is a Java keyword"); rename the file")
    }
    static func resourceNameCollision(_ path: String, first: String, second: String) -> Self {
        .init(.resourceNameCollision, "'\(first)' and '\(second)' would both write '\(path)' (Android resource names are lowercase, [a-z0-9_], and have no folders); rename one")
    }
    static func twoLauncherIcons(first: String, second: String) -> Self {
        .init(.resourceNameCollision, "'\(first)' and '\(second)' are both app icons, and an Android resource folder has one launcher icon (mipmap-*/ic_launcher); build them into different folders")
    }
    static func outsideSafeZone(_ dp: Double) -> Self {
        .init(.outsideSafeZone, "the adaptive icon's foreground draws up to \(CFormat.string("%.1f", dp)) dp outside the safe circle (66 dp across, in the middle of 108): launchers' masks may cut it off")
    }
    static func drawnAsPNGs(_ why: String) -> Self {
        let prefix = "cannot write this as a VectorDrawable: "
        let reason = why.hasPrefix(prefix) ? String(why.dropFirst(prefix.count)) : why
        return .init(.notAVectorDrawable, "written as PNG densities instead of a VectorDrawable: \(reason)")
    }
    static func incompleteAdaptiveIcon(has: [String]) -> Self {
        .init(.incompleteAdaptiveIcon, "the app icon has a '\(has.joined(separator: "' and '"))' group but an adaptive icon needs both 'background' and 'foreground' (top-level elements with those ids): only the 48 dp launcher icon is made")
    }
}
