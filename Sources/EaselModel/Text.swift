/// How lines sit in a text's width: `leading` is left for left-to-right text.
public enum TextAlignment: String, Hashable, Sendable, CaseIterable {
    case leading, center, trailing

    /// How far across the spare width a line sits: 0 at the left, 1 at the
    /// right. `leading` is the left in left-to-right text, the right in
    /// right-to-left text.
    public func offsetFraction(rightToLeft: Bool) -> Double {
        switch (self, rightToLeft) {
        case (.leading, false), (.trailing, true): return 0
        case (.center, _): return 0.5
        case (.trailing, false), (.leading, true): return 1
        }
    }
}

public enum FontStyle: String, Hashable, Sendable, CaseIterable { case normal, italic, oblique }

/// CSS font weights by name; any number from 1 to 1000 is accepted too
/// (CSS Fonts 4), and on a variable font it is the `wght` axis.
public enum FontWeightName: String, CaseIterable {
    case thin, ultralight, light, normal, medium, semibold, bold, ultrabold, heavy
    public var value: Int {
        switch self {
        case .thin: return 100
        case .ultralight: return 200
        case .light: return 300
        case .normal: return 400
        case .medium: return 500
        case .semibold: return 600
        case .bold: return 700
        case .ultrabold: return 800
        case .heavy: return 900
        }
    }
    /// CSS Fonts 4's range for a numeric weight.
    public static let range: ClosedRange<Double> = 1...1000
}

/// `font-stretch`: the CSS keywords and their widths in percent of normal;
/// any percentage from 50% to 200% is accepted too, and on a variable font
/// it is the `wdth` axis.
public enum FontStretchName: String, CaseIterable {
    case ultraCondensed = "ultra-condensed", extraCondensed = "extra-condensed", condensed
    case semiCondensed = "semi-condensed", normal, semiExpanded = "semi-expanded", expanded
    case extraExpanded = "extra-expanded", ultraExpanded = "ultra-expanded"
    public var percent: Double {
        switch self {
        case .ultraCondensed: return 50
        case .extraCondensed: return 62.5
        case .condensed: return 75
        case .semiCondensed: return 87.5
        case .normal: return 100
        case .semiExpanded: return 112.5
        case .expanded: return 125
        case .extraExpanded: return 150
        case .ultraExpanded: return 200
        }
    }
    public static let range: ClosedRange<Double> = 50...200
}

/// One axis setting of `font-variation="opsz 32, GRAD 50"`: a four-letter
/// OpenType axis tag and its value.
public struct FontVariation: Hashable, Sendable {
    public var tag: String
    public var value: Double
    public init(tag: String, value: Double) { self.tag = tag; self.value = value }
}

/// One name of a `font-family` list: a generic family (the keyword
/// unquoted), or a family by its own name (quoted or not).
public enum FontFamilyName: Hashable, Sendable {
    case generic(GenericFontFamily)
    case named(String)
}

/// A font as written: a Pango-style `font` description, overridden field
/// by field by the separate attributes.
public struct FontSpec: Hashable, Sendable {
    public var description: String?
    /// `font-family`: names tried in order for each character, as in CSS.
    public var families: [FontFamilyName]?
    /// Where `font-family`'s (or else `font`'s) value starts, and each
    /// `font-family` name's offset in it (UTF-8 bytes), for warnings.
    public var familyLocation: SourceLocation?
    public var familyOffsets: [Int] = []
    public var size: Double?
    /// 1–1000.
    public var weight: Int?
    public var style: FontStyle?
    /// Percent of the normal width (`font-stretch`).
    public var stretch: Double?
    public var variations: [FontVariation] = []
    public init() {}

    /// This font with every field `other` sets put over it (a span over
    /// its text).
    public func overridden(by other: FontSpec) -> FontSpec {
        var f = self
        if let families = other.families {
            f.families = families; f.familyLocation = other.familyLocation; f.familyOffsets = other.familyOffsets
        }
        if let v = other.size { f.size = v }
        if let v = other.weight { f.weight = v }
        if let v = other.style { f.style = v }
        if let v = other.stretch { f.stretch = v }
        if !other.variations.isEmpty { f.variations = other.variations }
        return f
    }

    public static let defaultFamily = "DejaVu Sans"
    public static let defaultSize = 12.0
    /// FreeType gives up on glyphs far larger than this.
    public static let maxSize = 4096.0
}

/// `dir`: which way text runs and an hstack places its children. A text's
/// `auto` follows its first strong character; a stack's `auto` keeps the
/// direction it inherits (a stack has no characters of its own).
public enum TextDirection: String, Hashable, Sendable, CaseIterable {
    case ltr, rtl, auto
    /// The languages written right to left, by primary subtag: a locale's
    /// default direction.
    public static let rightToLeftLanguages: Set<String> = ["ar", "he", "iw", "fa", "ur", "ps", "sd", "yi", "dv", "ug", "ckb"]

    /// `rtl` for a right-to-left language (`ar`, `he-IL`), else `ltr`.
    public static func of(language tag: String) -> TextDirection {
        let primary = tag.split(whereSeparator: { $0 == "-" || $0 == "_" }).first.map { $0.lowercased() } ?? ""
        return rightToLeftLanguages.contains(primary) ? .rtl : .ltr
    }
}

/// `<span>`: a styled stretch of a text's characters. A span overrides
/// only what it sets; the rest comes from the spans around it and the text.
public struct TextSpan: Hashable, Sendable {
    /// UTF-8 byte offsets of its characters in `TextStyle.text`.
    public var start: Int
    public var end: Int
    /// The enclosing span's index in `TextStyle.spans` (which lists a span
    /// before the spans inside it).
    public var parent: Int?
    /// Only the fields the span sets.
    public var font = FontSpec()
    public var fill: Paint?
    public var fillOpacity: Double?
    public var lang: String?
    public var letterSpacing: Double?
    public var underline: Bool?
    public var strikethrough: Bool?
    /// Points, positive up; nested shifts add up.
    public var baselineShift: Double?
    public var location: SourceLocation
    public init(start: Int, end: Int, parent: Int?, location: SourceLocation) {
        self.start = start; self.end = end; self.parent = parent; self.location = location
    }
}

/// Which span holds each character of a text: the innermost, found by
/// binary search over the stretches between span edges (built in one sweep,
/// so a text with many spans costs n log n, not n²).
public struct SpanIndex: Sendable {
    /// Stretch starts (UTF-8 offsets), ascending, and each stretch's innermost span.
    private var starts: [Int] = []
    private var holders: [Int?] = []
    /// Each span's enclosing spans, itself first.
    public private(set) var chains: [[Int]] = []

    public init(_ spans: [TextSpan]) {
        chains = spans.indices.map { i in
            var chain = [i]
            while let p = spans[chain.last!].parent, chain.count <= spans.count { chain.append(p) }
            return chain
        }
        let edges = Array(Set(spans.flatMap { [$0.start, $0.end] })).sorted()
        // Spans are listed as they open (outer first), so a stack of open
        // spans holds the innermost on top.
        var open: [Int] = []
        var next = 0
        for edge in edges {
            while let top = open.last, spans[top].end <= edge { open.removeLast() }
            while next < spans.count, spans[next].start <= edge {
                if spans[next].end > edge {
                    while let top = open.last, !(spans[top].start <= spans[next].start && spans[next].end <= spans[top].end) { open.removeLast() }
                    open.append(next)
                }
                next += 1
            }
            starts.append(edge)
            holders.append(open.last)
        }
    }

    /// The innermost span holding the character at `offset`, if any.
    public func innermost(at offset: Int) -> Int? {
        var lo = 0, hi = starts.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if starts[mid] <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo == 0 ? nil : holders[lo - 1]
    }
}

/// `<text>`: a label.
public struct TextStyle: Hashable, Sendable {
    /// The text with source lines as line breaks (see `SceneBuilder`).
    public var text: String
    public var font = FontSpec()
    public var fill: Paint = .color(.black)
    public var fillOpacity = 1.0
    public var align: TextAlignment = .leading
    public var lineSpacing = 1.0
    public var maxLines: Int?
    /// `paint-bounds="frame"`: gradients span the frame, not the glyphs.
    public var paintsFrame = false
    /// BCP 47 (`ja`, `zh-Hans`), the text's own or the scene's: it steers
    /// font fallback and shaping.
    public var lang: String?
    /// `<span>`s, each before the spans inside it.
    public var spans: [TextSpan] = []
    /// `letter-spacing`, points.
    public var letterSpacing = 0.0
    /// `fit="shrink"`: set at the largest size that fits, down to `minFontSize`.
    public var shrinks = false
    /// `min-font-size`; nil: half the text's own size.
    public var minFontSize: Double?
    /// The text's direction, its own `dir` or the one it inherits.
    public var direction: TextDirection = .ltr
    public init(text: String) { self.text = text }

    /// The text with each stretch between span edges rewritten by
    /// `transform` (placeholders filled, marks dropped), the spans' offsets
    /// moved to match: a span's edges stay between the same characters.
    public mutating func rewriteSegments(_ transform: (String) -> String) {
        let bytes = Array(text.utf8)
        let edges = Array(Set([0, bytes.count] + spans.flatMap { [$0.start, $0.end] }).filter { $0 <= bytes.count }).sorted()
        var out = ""
        var moved: [Int: Int] = [0: 0]
        for (from, to) in zip(edges, edges.dropFirst()) {
            out += transform(String(decoding: bytes[from..<to], as: UTF8.self))
            moved[to] = out.utf8.count
        }
        text = out
        for i in spans.indices {
            spans[i].start = moved[min(spans[i].start, bytes.count)] ?? 0
            spans[i].end = moved[min(spans[i].end, bytes.count)] ?? out.utf8.count
        }
    }
}

public enum StackAxis: String, Hashable, Sendable {
    case vertical = "vstack", horizontal = "hstack", depth = "zstack"
}

/// Where children sit across a stack (or, for a zstack, in both
/// directions): −1 start, 0 centre, 1 end.
public struct StackAlignment: Hashable, Sendable {
    public var horizontal: Int
    public var vertical: Int
    public init(horizontal: Int, vertical: Int) { self.horizontal = horizontal; self.vertical = vertical }
    public static let center = StackAlignment(horizontal: 0, vertical: 0)
}

public struct StackStyle: Hashable, Sendable {
    public var axis: StackAxis
    /// `rtl`: an hstack places its first child at the right, and leading
    /// and trailing alignments mean right and left.
    public var direction: TextDirection = .ltr
    /// The stack's own `dir` is `ltr` or `rtl`, which its children inherit;
    /// otherwise they keep what the stack inherited.
    public var setsDirection = false
    public var spacing: Double = 0
    public var alignment: StackAlignment = .center
    public var padding: EdgeInsets = .zero
    public var paint = PaintStyle(fill: .none)
    public var corners: CornerRadii = .zero
    public init(axis: StackAxis) { self.axis = axis }
}
