import EaselModel

/// A font file, by the number the font layer gave it when a font set
/// holding it was made: a run names its font file this way, never by a
/// file-system path, which stays in the font layer (`FontFiles`).
public struct FontFileID: Hashable, Sendable, CustomStringConvertible {
    public let number: Int
    public init(number: Int) { self.number = number }
    public var description: String { "font file \(number)" }
}

/// A face of a font file as Cairo needs it to draw glyphs. Plain data: any
/// thread can draw a shaped text from it, with no text engine and no lock.
public struct FontFace: Hashable, Sendable {
    /// The file. A declared font is read once, into an anonymous file the
    /// compile's font set keeps open, so a file changed on disk later
    /// cannot change glyphs already shaped.
    public var file: FontFileID
    /// The face within a collection; a variable font's named instance in
    /// the high 16 bits (fontconfig's index).
    public var index: Int
    /// Variable-font axis settings as fontconfig and Cairo write them
    /// (`wght=650,wdth=100`); empty for none.
    public var variations: String
    /// Bold synthesised by emboldening the outlines (the family has no bold).
    public var synthesizesBold: Bool
    /// A bitmap font (colour emoji): Cairo draws its embedded bitmaps.
    public var usesBitmaps: Bool

    public init(file: FontFileID, index: Int, variations: String, synthesizesBold: Bool, usesBitmaps: Bool) {
        self.file = file; self.index = index; self.variations = variations
        self.synthesizesBold = synthesizesBold; self.usesBitmaps = usesBitmaps
    }
}

/// The font a run was set in, as `easel layout` reports it.
public struct RunFont: Hashable, Sendable {
    public var family: String
    /// CSS weight (1–1000): a variable font's `wght`, or the face's own.
    public var weight: Int
    public var style: FontStyle
    /// The font file as the compile read it (a declared font's path, not
    /// the anonymous file it is drawn from).
    public var file: String
    public init(family: String, weight: Int, style: FontStyle, file: String) {
        self.family = family; self.weight = weight; self.style = style; self.file = file
    }
}

/// A character no font of the compile covers, and the box its place gets.
public struct MissingCharacter: Hashable, Sendable {
    public var scalar: Unicode.Scalar
    /// In the text's own space: the advance Pango gave it, line-high.
    public var box: Rect
    public init(scalar: Unicode.Scalar, box: Rect) { self.scalar = scalar; self.box = box }
}

/// Which glyphs show which characters of a run (Cairo's text clusters), so
/// PDF text stays selectable and searchable.
public struct GlyphCluster: Hashable, Sendable {
    public var bytes: Int
    public var glyphs: Int
    public init(bytes: Int, glyphs: Int) { self.bytes = bytes; self.glyphs = glyphs }
}

/// Glyphs of one font on one line, positioned: what shaping produces and
/// the painter draws with Cairo's glyph API.
public struct GlyphRun: Sendable {
    /// nil when no font of the compile has these characters: nothing is
    /// drawn but a box for each (`missing`).
    public var face: FontFace?
    /// Glyph space → the text's space: the size, a bitmap font's scaling to
    /// it and a synthetic slant (y down).
    public var fontMatrix: AffineTransform
    public var glyphs: [UInt32]
    /// Each glyph's origin on the baseline, in the text's own space.
    public var positions: [Point]
    /// The characters of the run, in logical order.
    public var text: String
    public var clusters: [GlyphCluster]
    /// Right-to-left: the clusters run backwards through the text.
    public var clustersBackward: Bool
    /// A colour font: its glyphs paint their own colours, not the text's fill.
    public var isColor: Bool
    public var font: RunFont?
    public var missing: [MissingCharacter]
    /// Axis tags `font-variation` names that this run's font does not have.
    public var unknownAxes: [String] = []
    /// Where the run's characters start in the text (UTF-8 bytes): which
    /// span they belong to.
    public var textOffset = 0
    /// The run's logical box on its line (its advance, the line's height),
    /// in the text's own space: what a gradient on a span spans.
    public var logicalBox = Rect(x: 0, y: 0, width: 0, height: 0)
    /// Underlines and strike-throughs, filled like the glyphs.
    public var decorations: [Rect] = []

    public init(face: FontFace?, fontMatrix: AffineTransform, glyphs: [UInt32], positions: [Point], text: String,
                clusters: [GlyphCluster], clustersBackward: Bool, isColor: Bool, font: RunFont?, missing: [MissingCharacter]) {
        self.face = face; self.fontMatrix = fontMatrix; self.glyphs = glyphs; self.positions = positions; self.text = text
        self.clusters = clusters; self.clustersBackward = clustersBackward; self.isColor = isColor; self.font = font
        self.missing = missing
    }
}
