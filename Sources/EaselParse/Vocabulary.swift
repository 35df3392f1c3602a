import Synchronization
/// Which elements and attributes the format has, and where elements may
/// stand. One table, so the builder, the suggestions and the schema tests
/// agree on the same names.
public enum Vocabulary {
    static let box: [String] = ["id", "x", "y", "width", "height", "opacity", "transform",
                                "transform-origin", "clip-path", "hidden", "grow"]
    static let stack: [String] = box + paint + ["spacing", "padding", "alignment", "corner-radius", "dir"]
    static let paint: [String] = ["fill", "stroke", "stroke-width", "stroke-opacity", "fill-opacity",
                                  "line-cap", "line-join", "miter-limit", "dash", "dash-offset",
                                  "fill-rule", "clip-rule"]
    static let gradient: [String] = ["id", "spread", "interpolation", "units", "transform"]
    static let fontAttributes: [String] = ["font", "font-family", "font-size", "font-weight", "font-style", "font-stretch",
                                           "font-variation"]

    public static let attributes: [String: [String]] = [
        "scene": ["width", "height", "scale", "background", "version", "duration", "lang", "system-fonts", "dir", "asset", "dither", "color-space",
                  "icon-shadow", "icon-translucency"],
        "defs": [],
        "color": ["name", "value", "dark", "tinted", "export"],
        "param": ["name", "type", "default"],
        "variant": ["name", "appearance", "set"],
        "font": ["src"],
        "linearGradient": gradient + ["angle", "direction", "start", "end"],
        "radialGradient": gradient + ["center", "radius", "focus"],
        "conicGradient": gradient + ["center", "from"],
        "pattern": ["id", "width", "height", "units", "transform"],
        "stripes": ["id", "spacing", "line-width", "angle", "color", "background"],
        "animatedGradient": ["id", "duration", "timing", "repeat"],
        "stop": ["offset", "color", "opacity"],
        "clipPath": ["id", "clip-path"],
        "view": box + paint + ["corner-radius", "padding", "clip"],
        "rect": box + paint + ["corner-radius"],
        "ellipse": box + paint,
        "circle": box + paint + ["cx", "cy", "r"],
        "line": box + paint + ["x1", "y1", "x2", "y2"],
        "polyline": box + paint + ["points"],
        "polygon": box + paint + ["points"],
        "path": box + paint + ["d"],
        "group": ["id", "opacity", "transform", "transform-origin", "clip-path", "hidden", "icon-glass"],
        "repeat": ["id", "count", "transform", "hidden"],
        "image": box + ["href", "fit", "tint"],
        "text": box + fontAttributes + ["fill", "fill-opacity", "align", "line-spacing", "max-lines", "paint-bounds", "lang",
                                        "letter-spacing", "fit", "min-font-size", "dir"],
        "span": fontAttributes.filter { $0 != "font" } + ["fill", "fill-opacity", "lang", "letter-spacing", "underline", "strikethrough", "baseline-shift"],
        "lineGraph": box + ["values", "labels", "min", "max", "padding", "src", "column", "label-column", "x-column", "missing", "y-scale", "stack"],
        "vstack": stack,
        "hstack": stack,
        "zstack": stack,
    ]

    /// Shapes given by coordinates in their own space (`CoordinateShape`).
    public static let coordinateShapes: Set<String> = ["circle", "line", "polyline", "polygon", "path"]
    public static let shapes: Set<String> = coordinateShapes.union(["rect", "ellipse"])
    public static let stacks: Set<String> = ["vstack", "hstack", "zstack"]
    public static let nodes: Set<String> = shapes.union(["view", "group", "repeat", "image", "text", "lineGraph"]).union(stacks)
    public static let containers: Set<String> = Set(["view", "group", "repeat"]).union(stacks)
    public static let gradients: Set<String> = ["linearGradient", "radialGradient", "conicGradient"]
    public static let paintServers: Set<String> = gradients.union(["pattern", "stripes", "animatedGradient"])
    public static let definitions: Set<String> = paintServers.union(["color", "clipPath", "param", "variant", "font"])

    /// Elements the contract names that later releases add; they get a clear
    /// "not supported yet" message instead of a misleading suggestion.
    public static let planned: Set<String> = []

    /// Children of `<lineGraph>`: its data points and layers (a layer's
    /// `line` is not the shape `<line>`), and `<text>` with `format`.
    public static let graphChildren: [String: [String]] = [
        "point": ["value", "label"],
        "area": ["fill", "fill-opacity", "opacity", "to"],
        "line": ["stroke", "stroke-width", "stroke-opacity", "curve", "line-cap", "line-join", "dash", "dash-offset", "opacity"],
        "points": ["diameter", "fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "opacity"],
        "grid": ["count", "ticks", "stroke", "stroke-width", "stroke-opacity", "dash", "dash-offset", "opacity"],
        "xLabels": fontAttributes + ["fill", "offset", "opacity"],
        "yLabels": fontAttributes + ["fill", "format", "opacity"],
        "text": (attributes["text"] ?? []) + ["format"],
        "bars": ["width", "corner-radius", "fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "opacity", "paint-box"],
        "rule": fontAttributes + ["x", "y", "stroke", "stroke-width", "stroke-opacity", "dash", "dash-offset", "opacity", "label", "label-fill"],
        "band": fontAttributes + ["axis", "from", "to", "fill", "fill-opacity", "opacity", "label", "label-fill"],
        "series": ["column", "name", "values", "src"],
        "xAxis": axis,
        "yAxis": axis,
        "legend": fontAttributes + ["position", "fill", "opacity"],
    ]
    static let axis = fontAttributes + ["ticks", "nice", "format", "fill", "stroke", "stroke-width", "stroke-opacity", "tick-size", "opacity"]
}

/// Nearest valid name for a misspelt one, by edit distance.
public enum Suggestion {
    /// Candidates compared in this process, counted for the tests that
    /// hold suggestions to the diagnostics printed (work, not time).
    public static let comparisons = Atomic<Int>(0)

    public static func nearest(to word: String, in candidates: some Sequence<String>) -> String? {
        let lower = word.lowercased()
        var best: (String, Int)? = nil
        var compared = 0
        defer { comparisons.add(compared, ordering: .relaxed) }
        for c in candidates {
            compared += 1
            let d = distance(lower, c.lowercased())
            if best == nil || d < best!.1 || (d == best!.1 && c < best!.0) { best = (c, d) }
        }
        guard let (name, d) = best else { return nil }
        // Suggest only what is plausibly a typo, not any word at all…
        if d <= max(2, word.count / 3) { return name }
        // …or the known name written out or cut short: `rectangle` for
        // `rect`, `lineGr` for `lineGraph`, `lnGraph` (an abbreviation).
        let related = candidates.filter { c in
            let c = c.lowercased()
            guard min(c.count, lower.count) >= 3 else { return false }
            return c.hasPrefix(lower) || lower.hasPrefix(c) || isAbbreviation(lower, of: c)
        }
        return related.min { ($0.count, $0) < ($1.count, $1) }
    }

    /// `word` keeps `name`'s first letter and the rest of its letters in
    /// order (`lngraph` of `linegraph`).
    static func isAbbreviation(_ word: String, of name: String) -> Bool {
        guard word.first == name.first, word.count < name.count else { return false }
        var rest = name[...]
        for ch in word {
            guard let i = rest.firstIndex(of: ch) else { return false }
            rest = rest[rest.index(after: i)...]
        }
        return true
    }

    /// Damerau–Levenshtein (optimal string alignment): a swap of two letters counts once.
    public static func distance(_ a: String, _ b: String) -> Int {
        let s = Array(a), t = Array(b)
        if s.isEmpty { return t.count }
        if t.isEmpty { return s.count }
        var d = [[Int]](repeating: [Int](repeating: 0, count: t.count + 1), count: s.count + 1)
        for i in 0...s.count { d[i][0] = i }
        for j in 0...t.count { d[0][j] = j }
        for i in 1...s.count {
            for j in 1...t.count {
                let cost = s[i - 1] == t[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, s[i - 1] == t[j - 2], s[i - 2] == t[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[s.count][t.count]
    }
}
