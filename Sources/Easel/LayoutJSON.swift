import EaselLayout
import FoundationEssentials

/// The JSON shape of `easel layout`, with keys sorted so output is stable.
enum LayoutJSON {
    struct Frame: Encodable { var x, y, width, height: Double }
    struct Entry: Encodable {
        var element: String
        var id: String?
        var line: Int
        var column: Int
        var frame: Frame
        var count: Int?
        /// A text's characters as drawn, and its shaped runs.
        var text: String?
        var runs: [Run]?
        /// The union of a text's lines' extents, in scene points, and the
        /// size it was set at (after `fit`).
        var textBounds: Frame?
        var fontSize: Double?
        /// The text does not fit its frame (the warning says how).
        var overflows: Bool?
        /// A graph's plot box, in scene points.
        var plot: Frame?
        var children: [Entry]
    }

    /// One shaped run of a text: the font actually used (docs/format.md,
    /// "Choosing fonts"); `family`, `weight`, `style` and `file` are null where no
    /// font covered the run's characters.
    struct Run: Encodable {
        var text: String
        var family: String?
        var weight: Int?
        var style: String?
        var file: String?
        var missing: [String]

        enum CodingKeys: String, CodingKey { case text, family, weight, style, file, missing }
        func encode(to encoder: Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(text, forKey: .text)
            try c.encode(family, forKey: .family)
            try c.encode(weight, forKey: .weight)
            try c.encode(style, forKey: .style)
            try c.encode(file, forKey: .file)
            try c.encode(missing, forKey: .missing)
        }

        init(_ run: GlyphRun) {
            text = run.text
            family = run.font?.family
            weight = run.font?.weight
            style = run.font?.style.rawValue
            file = run.font?.file
            missing = run.missing.map { MissingGlyphText.codePoint($0.scalar) }
        }
    }

    static func entry(_ n: LayoutNode, in scene: LaidOutScene) -> Entry {
        let f = n.absoluteFrame
        let text = scene.text(of: n)
        return Entry(element: n.element, id: n.id, line: n.location.line, column: n.location.column,
                     frame: Frame(x: f.x, y: f.y, width: f.width, height: f.height),
                     count: n.copyCount, text: text?.shaped.text, runs: text?.shaped.runs.map(Run.init),
                     textBounds: text.map { t in
                         let b = t.shaped.lineBounds
                         return Frame(x: f.x + b.x, y: f.y + b.y, width: b.width, height: b.height)
                     },
                     fontSize: text?.fitting.fontSize, overflows: text.map { $0.fitting.overflow != nil },
                     plot: n.plot.map { Frame(x: $0.x, y: $0.y, width: $0.width, height: $0.height) },
                     children: n.children.map { entry($0, in: scene) })
    }

    static func encode(_ scene: LaidOutScene) -> String {
        struct Root: Encodable {
            var element = "scene"
            var frame: Frame
            var children: [Entry]
        }
        let root = Root(frame: Frame(x: 0, y: 0, width: scene.size.width, height: scene.size.height),
                        children: scene.nodes.map { entry($0, in: scene) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let data = (try? encoder.encode(root)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
