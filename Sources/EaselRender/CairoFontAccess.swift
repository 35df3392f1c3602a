import Glibc
import EaselLayout

/// One lock for every use of a font through Cairo's FreeType backend:
/// drawing glyphs with Cairo's glyph API (PDF text; colour and bitmap
/// glyphs in any output), replaying a tile that holds such glyphs,
/// subsetting fonts when a PDF is finished, and shaping with PangoCairo
/// (a text that sets an unknown glyph, or a whole font set in a host whose
/// fontconfig default has rules of its own: `ShapingContext`). Every other
/// text shapes with PangoFT2 and never takes it; raster and SVG output
/// draw every glyph but colour and bitmap ones from Easel's own outlines
/// (`GlyphOutlines`, `GlyphMasks`) and take it for those runs only.
///
/// Cairo 1.16's FreeType backend keeps at most ten font files open
/// (`MAX_OPEN_FACES`); opening another closes one whose lock count is zero,
/// but it reads that count without the other font's mutex, so a face can
/// be closed just as another thread starts to load a glyph from it (a
/// crash in `_cairo_ft_scaled_glyph_load_glyph`, `face->glyph` null, with
/// 14 fonts on 8 threads). Cairo cannot be told which operations lock a
/// face — a PDF tile's recording replays its glyphs inside any fill, and
/// finishing the document subsets the fonts — so a PDF render takes the
/// lock when it first draws a glyph through Cairo and keeps it to the end.
/// A raster or SVG render draws such glyphs at once, onto images, and
/// takes the lock for each run only (`Hold.using`). Renders without text,
/// and everything after painting (PNG encoding), run in parallel.
enum CairoFontAccess {
    nonisolated(unsafe) private static let mutex: UnsafeMutablePointer<pthread_mutex_t> = {
        let m = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        // Recursive: a render holding it may shape again (a tile, a re-layout).
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_RECURSIVE))
        pthread_mutex_init(m, &attributes)
        pthread_mutexattr_destroy(&attributes)
        return m
    }()

    static func withLock<T>(_ body: () throws -> T) rethrows -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body()
    }

    /// A render's hold on the lock: for a PDF (`untilEnd`), taken at its
    /// first text and given back when the render ends; for a raster or SVG
    /// render, taken for each run.
    final class Hold {
        private var holding = false
        let untilEnd: Bool
        init(untilEnd: Bool) { self.untilEnd = untilEnd }
        /// Each variable font's instances the render drew, by file and
        /// face index, in the order first drawn: an instance's place is its
        /// slot (`CairoFontFaces`).
        private var instances: [String: [String]] = [:]
        /// Every face drawn, with its slot, in the order first drawn.
        private(set) var drawn: [(face: FontFace, slot: Int)] = []

        /// The slot `face` is drawn in, in this render.
        func slot(for face: FontFace) -> Int {
            let file = "\(face.file.number)#\(face.index)"
            if let slot = instances[file]?.firstIndex(of: face.variations) { return slot }
            let slot = instances[file, default: []].count
            instances[file, default: []].append(face.variations)
            drawn.append((face, slot))
            return slot
        }

        /// `body`, which draws with Cairo's fonts, under the lock.
        func using<T>(_ body: () -> T) -> T {
            guard untilEnd else { return CairoFontAccess.withLock(body) }
            take()
            return body()
        }

        private func take() {
            guard !holding else { return }
            pthread_mutex_lock(CairoFontAccess.mutex)
            holding = true
        }
        func end() {
            guard holding else { return }
            holding = false
            pthread_mutex_unlock(CairoFontAccess.mutex)
        }
        deinit { end() }
    }
}
