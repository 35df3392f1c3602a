import EaselModel

/// `fit="shrink"` (docs/format.md, "Text and fonts"): the
/// largest size, from the text's own down to `min-font-size`, at which no
/// word is broken across lines, there are at most `max-lines` lines and the
/// lines are at most the frame's height.
///
/// Sizes are tried on a grid of `step` points above `min-font-size` (the
/// text's own size first), by bisection: fitting is taken to be monotone
/// in the size (unhinted text wraps the same at every size in a width
/// scaled with it).
struct TextFitter {
    let measurer: TextMeasuring
    /// An eighth of a point: finer than any designer sets type.
    static let step = 0.125

    struct Result: Hashable {
        /// What every size of the text is multiplied by.
        var scale: Double
        var fitting: TextFitting
    }

    func fit(_ request: TextRequest, height: Double?, minFontSize: Double?) -> Result {
        var probe = request
        probe.maxLines = nil
        // Exactly, at that size (a new font size for the text engine).
        func exact(_ size: Double, base: Double) -> TextFitMeasure {
            probe.fontScale = size / base
            return measurer.fitMeasure(probe)
        }
        // Text is shaped unhinted, so its layout at size s in width w is its
        // layout at the text's own size in w·base/s, scaled by s/base (every
        // size scales with fontScale: spans, letter spacing, shifts, line
        // spacing). The search probes so, at the one size already loaded;
        // the size it finds is then checked exactly.
        func measure(_ size: Double, base: Double) -> TextFitMeasure {
            guard let width = request.wrapWidth else { return exact(size, base: base) }
            var scaled = probe
            scaled.fontScale = 1
            scaled.wrapWidth = width * base / size
            var m = measurer.fitMeasure(scaled)
            m.size = Size(m.size.width * size / base, m.size.height * size / base)
            return m
        }
        func fits(_ m: TextFitMeasure) -> Bool {
            m.brokenWord == nil && (request.maxLines.map { m.lineCount <= $0 } ?? true)
                && (height.map { m.size.height <= $0 + 1e-6 } ?? true)
        }
        probe.fontScale = 1
        let own = measurer.fitMeasure(probe)
        let base = own.fontSize
        if fits(own) { return Result(scale: 1, fitting: TextFitting(fontSize: base, overflow: nil)) }
        let lowest = min(base, minFontSize ?? base / 2)
        // Grid sizes below the text's own: lowest + k·step, k in 0...top.
        let top = max(0, Int(((base - lowest) / TextFitter.step - 1e-9).rounded(.up)) - 1)
        let atLowest = exact(lowest, base: base)
        guard fits(atLowest) else {
            var overflow = TextOverflow()
            overflow.minFontSize = lowest
            overflow.brokenWord = atLowest.brokenWord
            if let maxLines = request.maxLines, atLowest.lineCount > maxLines {
                overflow.excessLines = atLowest.lineCount - maxLines
                overflow.maxLines = maxLines
            }
            if let height, overflow.excessLines == nil, atLowest.size.height > height + 1e-6 {
                overflow.excessHeight = atLowest.size.height - height
                overflow.frameHeight = height
            }
            return Result(scale: lowest / base, fitting: TextFitting(fontSize: lowest, overflow: overflow))
        }
        var good = 0, bad = top + 1
        while bad - good > 1 {
            let mid = (good + bad) / 2
            if fits(measure(lowest + Double(mid) * TextFitter.step, base: base)) { good = mid } else { bad = mid }
        }
        // Rounding to Pango units may put the scaled probe a hair off at the
        // very edge: if the exact layout does not fit, bisect again below it
        // with exact layouts (the lowest size fits exactly).
        if good > 0, !fits(exact(lowest + Double(good) * TextFitter.step, base: base)) {
            var bad = good
            good = 0
            while bad - good > 1 {
                let mid = (good + bad) / 2
                if fits(exact(lowest + Double(mid) * TextFitter.step, base: base)) { good = mid } else { bad = mid }
            }
        }
        let size = lowest + Double(good) * TextFitter.step
        return Result(scale: size / base, fitting: TextFitting(fontSize: size, overflow: nil))
    }
}
