import FoundationEssentials

/// The colour sets of an asset-catalog build. Xcode names a colour by its
/// set's name alone, whatever group holds it, so a name is one colour for
/// the whole catalog: the scenes that export it must agree on its values.
/// Each scene's exported colours are recorded in the build manifest, so
/// that a scene left unbuilt still takes part.
struct ExportedColor: Codable, Sendable, Equatable {
    var name: String
    /// red, green, blue, alpha from 0 to 1.
    var light: [Double]
    var dark: [Double]?
    /// Given in Display P3 (`PaletteColor.isWide`); nil in older manifests.
    var displayP3: Bool?
    /// The `<color>` element's place in its scene.
    var line: Int
    var column: Int

    init(_ p: PaletteColor) {
        name = p.name
        light = Self.components(p.light)
        dark = p.dark.map(Self.components)
        displayP3 = p.isWide ? true : nil
        line = p.location?.line ?? 1
        column = p.location?.column ?? 1
    }

    static func components(_ c: Color) -> [Double] { [c.red, c.green, c.blue, c.alpha] }
    static func color(_ v: [Double]) -> Color {
        v.count == 4 ? Color(red: v[0], green: v[1], blue: v[2], alpha: v[3]) : .black
    }

    var paletteColor: PaletteColor {
        var p = PaletteColor(name: name, light: Self.color(light), dark: dark.map(Self.color))
        p.isWide = displayP3 == true
        return p
    }

    /// `#1b1f3b (dark #f2f2f7)`, for messages.
    var valuesText: String { Self.color(light).description + (dark.map { " (dark \(Self.color($0)))" } ?? "") }
}

enum ColorSets {
    /// One colour set per exported name, in the folder of the first scene
    /// (in path order) that exports it; a scene exporting the name with
    /// other values gets an error at its `<color>` naming the first.
    /// `shown`: a scene's path as messages name it.
    static func resolve(_ scenes: [(scene: String, colors: [ExportedColor])], shown: (String) -> String)
        -> (files: [(path: String, bytes: [UInt8], scene: String)], clashes: [(scene: String, diagnostic: Diagnostic)]) {
        var first: [String: (scene: String, color: ExportedColor)] = [:]
        var files: [(path: String, bytes: [UInt8], scene: String)] = []
        var clashes: [(scene: String, diagnostic: Diagnostic)] = []
        for (scene, colors) in scenes.sorted(by: { $0.scene < $1.scene }) {
            for color in colors {
                guard let earlier = first[color.name] else {
                    first[color.name] = (scene, color)
                    let folder = scene.deletingLastPathComponent
                    let set = (folder.isEmpty ? "" : folder + "/") + color.name + ".colorset/Contents.json"
                    do {
                        files.append((set, try AssetCatalog.colorSet(color.paletteColor), scene))
                    } catch {
                        clashes += error.diagnostics.map { (scene, $0) }
                    }
                    continue
                }
                guard earlier.color.light != color.light || earlier.color.dark != color.dark else { continue }
                let there = SourceLocation(file: shown(earlier.scene), line: earlier.color.line, column: earlier.color.column)
                let here = SourceLocation(file: shown(scene), line: color.line, column: color.column)
                clashes.append((scene, Diagnostic(.error, .colorSetClash(color.name, here: color.valuesText, there: there, thereValues: earlier.color.valuesText), at: here)))
            }
        }
        return (files, clashes)
    }
}

extension Diagnostic.Message {
    static func colorSetClash(_ name: String, here: String, there: SourceLocation, thereValues: String) -> Self {
        .init(.colorSetClash, "palette colour '\(name)' is \(here) here but \(thereValues) in \(there), and an asset catalog has one '\(name)' colour set; rename one, or mark it export=\"false\" to keep it private to its scene")
    }
}
