import FoundationEssentials

/// `Contents.json` files of an Xcode asset catalog, with the keys Apple's
/// "Asset Catalog Format Reference" gives: `info` (`author`, `version` 1)
/// everywhere; an imageset's `images` (`filename`, `idiom` `universal`,
/// `scale` `1x`/`2x`/`3x`, a localized image's `locale`) and, for a
/// single PDF, `properties` `preserves-vector-representation`, for a
/// localized set `localizable`; a colorset's `colors` (`idiom`,
/// `color` with `color-space` `srgb` and `components` red, green, blue,
/// alpha as decimal strings from 0 to 1).
enum AssetCatalog {
    struct Image {
        var filename: String
        /// nil: one image for every scale (a vector PDF).
        var scale: Double?
        /// `.dark`: the image for the dark appearance.
        var appearance: Appearance? = nil
        /// The locale whose image this is (a localized imageset).
        var locale: String? = nil
        /// `sRGB` or `display-P3`: the gamut slot (`--display-gamut both`).
        var displayGamut: String? = nil
    }

    /// An `appearances` entry: Xcode's luminosity trait.
    static func appearances(_ a: Appearance) -> JSONValue {
        [["appearance": "luminosity", "value": .string(a.rawValue)]]
    }

    static var info: JSONValue { ["author": "easel", "version": 1] }

    static func folder() throws(DiagnosticsError) -> [UInt8] { try json(["info": info]) }

    static func imageSet(_ images: [Image], vector: Bool) throws(DiagnosticsError) -> [UInt8] {
        var list: [JSONValue] = []
        for image in images {
            var entry: [String: JSONValue] = ["filename": .string(image.filename), "idiom": "universal"]
            if let s = image.scale { entry["scale"] = .string(s == s.rounded() ? "\(Int(s))x" : "\(s)x") }
            if let a = image.appearance { entry["appearances"] = appearances(a) }
            if let l = image.locale { entry["locale"] = .string(l) }
            if let g = image.displayGamut { entry["display-gamut"] = .string(g) }
            list.append(.object(entry))
        }
        var root: [String: JSONValue] = ["images": .array(list), "info": info]
        var properties: [String: JSONValue] = [:]
        if vector { properties["preserves-vector-representation"] = true }
        // As Xcode marks a set localized in its Attributes inspector.
        if images.contains(where: { $0.locale != nil }) { properties["localizable"] = true }
        if !properties.isEmpty { root["properties"] = .object(properties) }
        return try json(.object(root))
    }

    /// The light value for any appearance, and the dark value (if the
    /// palette gives one) for the dark appearance.
    static func colorSet(_ palette: PaletteColor) throws(DiagnosticsError) -> [UInt8] {
        func component(_ v: Double) -> String { CFormat.string("%.3f", max(0, min(1, v))) }
        // A colour written in Display P3 or OKLCh (or outside sRGB) is
        // given in Display P3, as Xcode writes a colour picked in P3.
        let space: SceneColorSpace = palette.isWide ? .displayP3 : .srgb
        func color(_ written: Color) -> JSONValue {
            let c = space.painted(written)
            return ["color-space": .string(space.rawValue),
             "components": ["red": .string(component(c.red)), "green": .string(component(c.green)),
                            "blue": .string(component(c.blue)), "alpha": .string(component(c.alpha))]]
        }
        var colors: [JSONValue] = [["idiom": "universal", "color": color(palette.light)]]
        if let dark = palette.dark { colors.append(["idiom": "universal", "color": color(dark), "appearances": appearances(.dark)]) }
        return try json(["colors": .array(colors), "info": info])
    }

    /// Pretty-printed with sorted keys, as Xcode's files are compared in
    /// review. Only a non-finite number fails to encode (every value here
    /// is a string); a failure is the file's error, never an empty file.
    static func json(_ object: JSONValue) throws(DiagnosticsError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        do {
            return Array(try encoder.encode(object)) + [0x0A]
        } catch {
            throw DiagnosticsError([Diagnostic(.error, .failed(error), at: nil)])
        }
    }
}

/// Make-format dependencies (`--depfile`): one rule per scene, its outputs
/// depending on every file it read; spaces escaped as Make and Ninja expect.
/// Paths inside `directory` (the working directory) are written relative to
/// it, as a compiler's `-MD` writes them: Ninja requires a depfile's target
/// to be the output as the build file names it, and Make matches targets by
/// their spelling.
public enum Depfile {
    public static func text(_ rules: [(outputs: [String], inputs: [String])], relativeTo directory: String? = nil) -> String {
        let base = directory.map { ($0.hasSuffix("/") ? $0 : $0 + "/") }
        func relative(_ path: String) -> String {
            guard let base, path.hasPrefix(base), path.count > base.count else { return path }
            return String(path.dropFirst(base.count))
        }
        func escape(_ path: String) -> String {
            path.replacing("\\", with: "\\\\").replacing(" ", with: "\\ ")
                .replacing("#", with: "\\#").replacing("$", with: "$$")
        }
        return rules.filter { !$0.outputs.isEmpty }.map { rule in
            rule.outputs.map { escape(relative($0)) }.joined(separator: " ") + ": "
                + rule.inputs.map { escape(relative($0)) }.joined(separator: " ")
        }.joined(separator: "\n") + "\n"
    }
}
