import EaselLayout
import EaselModel
import FoundationEssentials

/// An Icon Composer bundle (`-o NAME.icon`, `easel build --icon-composer`;
/// contract 1.3, "Vector outputs for platforms"): `icon.json` and
/// `Assets/`. Apple publishes no schema; the keys are those of the bundles
/// Icon Composer writes, as documented by people reading them
/// (docs/platform-assets.md cites them): a root `fill`, one entry of
/// `groups` holding `layers` front to back (`image-name`, `name`, `glass`),
/// the group's `shadow` and `translucency`, `-specializations` arrays
/// of `{"appearance": …, "value": …}`, and `supported-platforms`.
///
/// The `background` group is the icon's fill when, in every appearance,
/// it is one rectangle over the whole canvas filled with one colour or a
/// two-stop linear gradient; else it is the bottom layer. Each other
/// visible top-level group with an id is one layer: an SVG of the group
/// alone (vectors, text as outlines), 1024 units on a side as Icon
/// Composer's canvas is, with nothing baked in.
public enum IconComposerBundle {
    /// Icon Composer's canvas, in points.
    public static let canvas = 1024.0
    /// The most layers a bundle is made with (Icon Composer's own documents
    /// hold a handful; each is compiled alone in each appearance).
    public static let maxLayers = 16

    /// The bundle's files, relative to the bundle, `icon.json` last.
    /// `compile(variant, layer)` compiles the scene as its variant of that
    /// name (nil: itself) with only its top-level group `layer` (nil: all).
    public static func files(for scene: CompiledScene,
                             compile: (_ variant: String?, _ layer: String?) throws -> CompiledScene) throws -> [(path: String, bytes: [UInt8])] {
        guard scene.scene.asset == .appIcon else {
            throw DiagnosticsError([Diagnostic(.error, .iconComposerNeedsAppIcon, at: scene.scene.location)])
        }
        try scene.requireSquare("an Icon Composer icon")
        let appearances = Self.appearances(scene.scene)
        let ids = layerIDs(scene.scene)
        // What would be in no layer is an error, not left out.
        if let stray = scene.scene.nodes.first(where: { node in
            guard !node.common.hidden else { return false }
            if case .group = node.kind, node.common.id != nil { return false }
            return true
        }) {
            throw DiagnosticsError([Diagnostic(.error, .outsideIconLayers, at: stray.location)])
        }
        // Two ids must not name one file (ignoring case, as a Mac's disk does).
        var named: [String: String] = [:]
        for id in ids {
            for suffix in ["", "-dark", "-tinted"] {
                let file = (fileName(id) + suffix).lowercased()
                if let other = named[file], other != id {
                    throw DiagnosticsError([Diagnostic(.error, .iconLayerFilesClash(other, id, fileName(id) + suffix + ".svg"), at: scene.scene.location)])
                }
                named[file] = id
            }
        }
        // Each layer is compiled alone in each appearance: a bounded number.
        guard ids.count <= maxLayers else {
            throw DiagnosticsError([Diagnostic(.error, .tooManyIconLayers(ids.count), at: scene.scene.location)])
        }
        let p3 = scene.scene.colorSpace == .displayP3
        var files: [(String, [UInt8])] = []
        var json = [String: JSONValue]()

        // The fill: the background group's, when every appearance's is one.
        var layerIDs = ids
        var fills: [(Appearance?, JSONValue)] = []
        if ids.contains("background") {
            for (appearance, variant) in appearances {
                guard let fill = fill(of: try compile(variant, "background").renderTree, p3: p3) else { fills = []; break }
                fills.append((appearance, fill))
            }
            if !fills.isEmpty { layerIDs.removeAll { $0 == "background" } }
        } else if scene.renderTree.background.alpha > 0 {
            // The scene's background colour, as each appearance paints it.
            for (appearance, variant) in appearances {
                let tree = variant == nil ? scene.renderTree : try compile(variant, nil).renderTree
                fills.append((appearance, .object(["solid": .string(colorString(tree.background, p3: p3))])))
            }
        }
        if let first = fills.first {
            if fills.allSatisfy({ $0.1 == first.1 }) {
                json["fill"] = first.1
            } else {
                json["fill-specializations"] = specializations(fills)
            }
        }

        // The layers, front to back: each group alone, in each appearance.
        var layers: [JSONValue] = []
        for id in layerIDs.reversed() {
            var names: [(Appearance?, JSONValue)] = []
            var written: [[UInt8]: String] = [:]
            for (appearance, variant) in appearances {
                let svg = try compile(variant, id).renderIconLayerSVG(side: canvas)
                let name = written[svg] ?? {
                    let made = fileName(id) + (appearance.map { "-" + $0.rawValue } ?? "") + ".svg"
                    files.append(("Assets/" + made, svg))
                    written[svg] = made
                    return made
                }()
                names.append((appearance, .string(name)))
            }
            var layer = [String: JSONValue]()
            layer["name"] = .string(id)
            layer["image-name"] = names[0].1
            if names.contains(where: { $0.1 != names[0].1 }) {
                layer["image-name-specializations"] = specializations(names)
            }
            if let glass = scene.scene.iconComposer.glass[id] { layer["glass"] = .bool(glass) }
            layers.append(.object(layer))
        }
        var group = [String: JSONValue]()
        group["layers"] = .array(layers)
        if let shadow = scene.scene.iconComposer.shadow {
            group["shadow"] = .object(["kind": .string(shadow.rawValue), "opacity": .number(0.5)])
        }
        if let t = scene.scene.iconComposer.translucency {
            group["translucency"] = .object(["enabled": .bool(t > 0), "value": .number(t)])
        }
        json["groups"] = .array([.object(group)])
        json["supported-platforms"] = .object(["squares": .string("shared")])
        files.append(("icon.json", try AssetCatalog.json(.object(json))))
        return files
    }

    /// A layer's file name from its id: letters, digits, `-` and `_` kept,
    /// anything else (a `/`, a `.`) an underscore, so no id names a file
    /// outside `Assets/`.
    static func fileName(_ id: String) -> String {
        let kept = String(id.unicodeScalars.map { s -> Character in
            ("a"..."z").contains(s) || ("A"..."Z").contains(s) || ("0"..."9").contains(s) || s == "-" || s == "_" ? Character(s) : "_"
        })
        return kept.isEmpty ? "_" : kept
    }

    /// Every file a bundle of these top-level ids and variant appearances
    /// may have (a build's plan, made before anything is compiled): each
    /// id's SVG in each appearance, and `icon.json`.
    public static func candidates(layerIDs: [String], appearances: [Appearance]) -> [String] {
        let suffixes = [""] + [Appearance.dark, .tinted].filter(appearances.contains).map { "-" + $0.rawValue }
        // Unique: ids that would clash are an error of the compile, not of the plan.
        var seen = Set<String>()
        return layerIDs.flatMap { id in suffixes.map { "Assets/" + fileName(id) + $0 + ".svg" } }.filter { seen.insert($0.lowercased()).inserted }
            + ["icon.json"]
    }

    /// The ids of the layers a bundle has: the top-level groups with an id
    /// that are not hidden, in file order (back to front).
    static func layerIDs(_ scene: Scene) -> [String] {
        scene.nodes.compactMap { node in
            guard case .group = node.kind, !node.common.hidden else { return nil }
            return node.common.id
        }
    }

    /// The appearances a bundle has and the variant that paints each: the
    /// scene itself, then its first `dark` and first `tinted` variant.
    static func appearances(_ scene: Scene) -> [(Appearance?, String?)] {
        var out: [(Appearance?, String?)] = [(nil, nil)]
        for kind in [Appearance.dark, .tinted] {
            if let v = scene.variants.first(where: { $0.appearance == kind }) { out.append((kind, v.name)) }
        }
        return out
    }

    private static func specializations(_ values: [(Appearance?, JSONValue)]) -> JSONValue {
        .array(values.map { appearance, value in
            var entry = [String: JSONValue]()
            if let appearance { entry["appearance"] = .string(appearance.rawValue) }
            entry["value"] = value
            return .object(entry)
        })
    }

    // MARK: Fills

    /// The fill a background layer's tree is, if it is one: a rectangle
    /// over the whole canvas (or the scene's own background colour alone)
    /// filled with one colour or a two-stop linear gradient.
    static func fill(of tree: RenderTree, p3: Bool) -> JSONValue? {
        var paths: [RenderPath] = []
        var simple = true
        func walk(_ nodes: [RenderNode]) {
            for node in nodes {
                switch node {
                case .group(let g):
                    if !g.transform.isIdentity || g.opacity < 1 || g.clip != nil { simple = false }
                    walk(g.children)
                case .path(let p): paths.append(p)
                case .image, .text: simple = false
                }
            }
        }
        walk(tree.nodes)
        guard simple else { return nil }
        let canvas = Rect(x: 0, y: 0, width: tree.size.width, height: tree.size.height)
        if paths.isEmpty {
            guard tree.background.alpha > 0 else { return nil }
            return .object(["solid": .string(colorString(tree.background, p3: p3))])
        }
        guard paths.count == 1, let path = paths.first, path.stroke == nil, let id = path.fill, covers(path, canvas) else { return nil }
        let paint = tree.paints.paint(id, at: 0)
        // A translucent fill over a background colour is two colours.
        if tree.background.alpha > 0, !(paint.opacity >= 1 && paint.kind.isOpaque) { return nil }
        switch paint.kind {
        case .solid(let c):
            return .object(["solid": .string(colorString(c, alpha: c.alpha * paint.opacity, p3: p3))])
        case .linear(let g):
            guard g.stops.count == 2, g.spread == .pad, g.stops[1].offset > g.stops[0].offset, g.matrix.inverted != nil else { return nil }
            // The line from offset 0 to 1 in the canvas, in unit coordinates.
            guard let (start, end) = g.ownSpaceLine else { return nil }
            // Stops inside 0…1 move the ends onto them.
            let (o0, o1) = (g.stops[0].offset, g.stops[1].offset)
            let s = Point(start.x + (end.x - start.x) * o0, start.y + (end.y - start.y) * o0)
            let e = Point(start.x + (end.x - start.x) * o1, start.y + (end.y - start.y) * o1)
            func unit(_ p: Point) -> JSONValue {
                .object(["x": .number(rounded(p.x / canvas.width)), "y": .number(rounded(p.y / canvas.height))])
            }
            return .object([
                "linear-gradient": .array(g.stops.map { .string(colorString($0.color, alpha: $0.color.alpha * paint.opacity, p3: p3)) }),
                "orientation": .object(["start": unit(s), "stop": unit(e)]),
            ])
        default:
            return nil
        }
    }

    /// Whether the path is an axis-aligned rectangle holding the whole canvas.
    private static func covers(_ path: RenderPath, _ canvas: Rect) -> Bool {
        if let rects = path.disjointRectangles {
            return rects.contains { $0.minX <= canvas.minX && $0.minY <= canvas.minY && $0.maxX >= canvas.maxX && $0.maxY >= canvas.maxY }
        }
        var points: [Point] = []
        for e in path.path.elements {
            switch e {
            case .move(let p), .line(let p): points.append(p)
            case .cubic: return false
            case .close: break
            }
        }
        if points.count == 5, points[4] == points[0] { points.removeLast() }
        guard points.count == 4 else { return false }
        // Each side horizontal or vertical.
        for k in 0..<4 {
            let p = points[k], q = points[(k + 1) % 4]
            guard p.x == q.x || p.y == q.y else { return false }
        }
        let xs = points.map(\.x), ys = points.map(\.y)
        return xs.min()! <= canvas.minX && ys.min()! <= canvas.minY && xs.max()! >= canvas.maxX && ys.max()! >= canvas.maxY
    }

    // MARK: Values

    /// `srgb:r,g,b,a` (or `display-p3:` in a Display P3 scene), components 0–1.
    static func colorString(_ c: Color, alpha: Double? = nil, p3: Bool) -> String {
        let parts = [c.red, c.green, c.blue, alpha ?? c.alpha].map { CFormat.string("%.5f", min(1, max(0, $0))) }
        return (p3 ? "display-p3:" : "srgb:") + parts.joined(separator: ",")
    }

    private static func rounded(_ v: Double) -> Double { (v * 100_000).rounded() / 100_000 }
}

extension Diagnostic.Message {
    static func iconLayerFilesClash(_ a: String, _ b: String, _ file: String) -> Self {
        .init(.notAnAppIcon, "the layers '\(a)' and '\(b)' would both be written as Assets/\(file) (ids become file names of letters, digits, - and _, a layer's dark and tinted pictures ID-dark.svg and ID-tinted.svg, and case does not count); rename one")
    }
    static func tooManyIconLayers(_ count: Int) -> Self {
        .init(.inputTooLarge, "an Icon Composer bundle of \(count) layers (visible top-level groups with an id); at most \(IconComposerBundle.maxLayers), each compiled alone per appearance")
    }
    static let outsideIconLayers = Self(.notAnAppIcon, "this top-level element is in no Icon Composer layer: a bundle holds the background group (its fill) and top-level groups with an id, one layer each; put it in one, or hide it")
    static func iconLayerIDWithParameter(_ id: String) -> Self {
        .init(.notAnAppIcon, "the top-level id '\(id)' has a parameter, but easel build names an Icon Composer bundle's files before it compiles the scene; write the id out (easel render -o NAME.icon takes it)")
    }
    static let iconComposerNeedsAppIcon = Self(.notAnAppIcon, "an Icon Composer icon (.icon) is made from an app icon: mark the scene asset=\"app-icon\"")
}
