import EaselModel

/// What painting costs, in paint units: about a nanosecond each on the
/// machine the weights were measured on (a 2-core x86-64 VM; measure again
/// with `bench/paint-costs.py`, which renders full-canvas layers of each
/// kind at two layer counts and divides the time difference by the pixels).
/// The paint budget (`Limits.maxPaintCost`, `--max-paint`, default 2·10⁹ —
/// about two seconds) is charged before each operation: the device pixels
/// it may cover within the clip times its kind's weight, plus a fixed cost
/// for the operation itself. Deterministic — a count, never a clock — so a
/// scene renders or fails the same way on every machine.
public enum PaintCost {
    public enum Kind: Sendable, CaseIterable {
        case solid, linearGradient, radialGradient, conicGradient, patternTile, stripes
        case groupComposite, clipMask, image, text
        /// Added to a linear or radial gradient in dithered PNG output.
        case dither
    }

    /// Paint units per device pixel, rounded up from `bench/paint-costs.py`
    /// at 4000×4000 (ns/pixel; at 2000×2000, where surfaces fit in cache
    /// better, groups and masks cost a third as much): a translucent solid
    /// fill 0.25, linear 4.1, radial 7.7, conic 79 (evaluated per pixel by
    /// Easel), a pattern tile's repeat 0.24 (its content is charged as it is
    /// painted into the tile), stripes 9.7, a group's push and composite 2.4,
    /// a two-shape clip mask 2.3, an image 0.9, text over its paint box 0.8
    /// (2026-11-22, with a fuzzer busy on the other core).
    public static func perPixel(_ kind: Kind) -> Double {
        switch kind {
        case .solid: return 0.3
        case .linearGradient: return 4
        case .radialGradient: return 8
        case .conicGradient: return 80
        case .patternTile: return 0.3
        case .stripes: return 10
        case .groupComposite: return 2.5
        case .clipMask: return 2.5
        case .image: return 1
        case .text: return 1
        // pixman's floating-point gradient path with its dither and the
        // image drawn back: a 4096×4096 slow gradient took 515 ms more
        // dithered than not, 31 ns a pixel, a little of it the larger
        // PNG's compression (bench --only dither, 2026-11-25).
        case .dither: return 30
        }
    }

    /// Each fill, stroke, text, image, group or mask: the path, the state
    /// and the calls around it (1.2–3 µs a node measured on 100,000 tiny
    /// shapes, less the same scene's parse and layout).
    public static let perOperation = 2_000.0

    /// Per edge of a filled or stroked path, and per point where its edges
    /// cross (`PathCrossings`): random scribbles of 1,000 to 30,000 line
    /// segments measured 0.5–1.3 µs a crossing to fill and 0.1–0.2 µs to
    /// stroke (2026-11-22).
    public static let perPathEdge = 100.0
    public static let perFillCrossing = 1_300.0
    public static let perStrokeCrossing = 250.0
    /// Per device row an edge spans, for a path of small shapes that
    /// cross only their neighbours (a points layer): there the scan
    /// converter's work follows the rows, and counting crossings would
    /// charge 900,000 merged dots 30× what they take. A 400×200 points
    /// layer over 900,000 values, merged, measured 0.4–0.75 µs a row at
    /// @1x–@3x (2026-11-26).
    public static let perNeighbourEdgeRow = 1_000.0

    /// Per pixel of an image's source, each time it is drawn: decoding the
    /// PNG and sampling it (a 4000×4000 PNG drawn into a 10×10 box cost
    /// 10.7 ns a source pixel, 2026-11-22) — without it, 400 copies of a
    /// 56 KB PNG of 16 megapixels painted for 69 s.
    public static let perImageSourcePixel = 11.0

    /// Per device pixel of an SVG image, for each filter primitive in it
    /// (after references are expanded): a blur's box passes or a
    /// composite touch every pixel of the filter's region, which librsvg
    /// clips to the image. A 5000 × 5000 image blurred once took 1.5 s
    /// more than unblurred, 60 ns a pixel (2026-11-29, release build).
    public static let perSVGFilterPrimitivePixel = 60.0

    /// Per element librsvg parses, each time it parses the file (once in
    /// the compile, once per render): 990,000 empty groups took it 5.3 s
    /// and 1.4 GB (5 µs and 1.4 KB each); charged at twice the time, so
    /// the budget also holds its memory near the bad-input bound.
    public static let perSVGParsedElement = SVGImageFacts.parseCostPerElement

    /// What librsvg's draw of an SVG image costs (`SVGDrawWork`, references
    /// expanded): its elements and path edges as Easel's own, crossings as
    /// a fill and a stroke of them, its embedded pictures' pixels, and
    /// each filter primitive and layer over `pixels`, the image's device
    /// pixels (librsvg sizes a layer by the image, not by the clip).
    public static func svgDraw(_ w: SVGDrawWork, pixels: Double, vector: Bool = false) -> Double {
        (w.elements * perSVGElement + w.pathEdges * perPathEdge + w.pathCrossings * (perFillCrossing + perStrokeCrossing))
            * (vector ? perSVGVectorOutputFactor : 1)
            + w.embeddedPixels * perImageSourcePixel
            + (w.filterPrimitives * perSVGFilterPrimitivePixel + w.layers * perPixel(.groupComposite)) * pixels
    }

    /// Per element librsvg draws (a marker's at every vertex, a `use`d one
    /// at every use): 800,000 `use`d rectangles took 2.2 s in PNG, 2.75 µs
    /// each, more than Easel's own nodes (`perOperation`).
    public static let perSVGElement = 4_000.0

    /// PDF and SVG output cost more per element of an SVG image than a
    /// PNG does (Cairo writes each, and SVG output reads Cairo's document
    /// back): 800,000 `use`d elements took 2.2 s in PNG, 3.8 s in PDF and
    /// 11.3 s in SVG (2026-11-29).
    public static let perSVGVectorOutputFactor = 6.0

    /// The largest pattern tile an SVG image may have librsvg draw, in
    /// device pixels (librsvg draws a tile at its device size, whatever
    /// shows of it: a scaled-up tile took 3.5 GB).
    public static let maxSVGPatternTilePixels = 16_777_216.0

    /// Surfaces the size of the image librsvg can hold at once while
    /// drawing it: one per layer nested in another, and a filter's several
    /// (its source, result and the blur's passes: a 25-megapixel blur
    /// peaked at 717 MB).
    public static func svgSurfaces(_ w: SVGDrawWork) -> Double {
        w.layerDepth + (w.filterPrimitives > 0 ? 5 : 0)
    }

    /// The most device pixels those surfaces (and a picture of the image)
    /// may hold together: 288 MB, so that a render stays near the
    /// bad-input bound of 512 MB.
    public static let maxSVGSurfacePixels = 72_000_000.0
    /// A frame of an animation, per pixel, before anything is painted on it:
    /// clearing and encoding it (PNG at the default setting, ~5 ns a pixel).
    public static let perFramePixel = 5.0
}
