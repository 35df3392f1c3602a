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

    /// A number JSON cannot write (a position past ±1.8e308), at the first
    /// node that has one.
    struct NotFinite: Error { var location: SourceLocation; var element: String; var what: String }

    static func entry(_ n: LayoutNode, in scene: LaidOutScene) throws(NotFinite) -> Entry {
        let f = n.absoluteFrame
        let text = scene.text(of: n)
        func checked(_ frame: Frame, _ what: String) throws(NotFinite) -> Frame {
            guard frame.x.isFinite, frame.y.isFinite, frame.width.isFinite, frame.height.isFinite else {
                throw NotFinite(location: n.location, element: n.element, what: what)
            }
            return frame
        }
        var children: [Entry] = []
        children.reserveCapacity(n.children.count)
        for child in n.children { children.append(try entry(child, in: scene)) }
        return Entry(element: n.element, id: n.id, line: n.location.line, column: n.location.column,
                     frame: try checked(Frame(x: f.x, y: f.y, width: f.width, height: f.height), "frame"),
                     count: n.copyCount, text: text?.shaped.text, runs: text?.shaped.runs.map(Run.init),
                     textBounds: try text.map { t throws(NotFinite) in
                         let b = t.shaped.lineBounds
                         return try checked(Frame(x: f.x + b.x, y: f.y + b.y, width: b.width, height: b.height), "text bounds")
                     },
                     fontSize: text?.fitting.fontSize, overflows: text.map { $0.fitting.overflow != nil },
                     plot: try n.plot.map { p throws(NotFinite) in try checked(Frame(x: p.x, y: p.y, width: p.width, height: p.height), "plot") },
                     children: children)
    }

    /// The JSON, or a located error: a node whose geometry is not finite
    /// (JSON has no infinity) — never a document that leaves it out.
    static func encode(_ scene: LaidOutScene) throws(DiagnosticsError) -> String {
        struct Root: Encodable {
            var element = "scene"
            var frame: Frame
            var children: [Entry]
        }
        var children: [Entry] = []
        do {
            for node in scene.nodes { children.append(try entry(node, in: scene)) }
        } catch {
            throw DiagnosticsError([Diagnostic(.error, .geometryNotFinite(error.element, error.what), at: error.location)])
        }
        let root = Root(frame: Frame(x: 0, y: 0, width: scene.size.width, height: scene.size.height), children: children)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(root), as: UTF8.self)
        } catch {
            throw DiagnosticsError([Diagnostic(.error, .failed(error), at: nil)])
        }
    }
}

extension Diagnostic.Message {
    static func geometryNotFinite(_ element: String, _ what: String) -> Self {
        .init(.geometryNotFinite, "the \(what) of this <\(element)> is not a finite number (its offsets add up past ±1.8e308), which easel layout's JSON cannot write; move it nearer the origin")
    }
}
