import FoundationEssentials
import EaselModel
import Glibc

/// A numeric axis's tick values and labels as d3 makes them, so that a
/// chart drawn by Easel agrees with one drawn by d3 or Vega-Lite:
/// d3-array's `ticks`, `tickIncrement` and `tickStep` (src/ticks.js),
/// d3-scale's linear `nice` (src/linear.js) and `tickFormat` with its
/// default specifier `,f` (src/tickFormat.js: d3-format's fixed notation
/// with the precision of the tick step, thousands grouped by commas and
/// d3-format's minus sign, U+2212).
public enum NumericTicks {
    private static let e10 = 50.0.squareRoot(), e5 = 10.0.squareRoot(), e2 = 2.0.squareRoot()

    /// JavaScript's `Math.round`: halves round up, towards +∞.
    static func jsRound(_ x: Double) -> Double {
        let down = x.rounded(.down)
        return x - down >= 0.5 ? down + 1 : down
    }

    /// (i1, i2, inc): ticks are i × inc for i in i1…i2, or i / −inc when
    /// inc is negative (a step below 1, kept as its exact reciprocal).
    static func tickSpec(_ start: Double, _ stop: Double, _ count: Double) -> (Double, Double, Double) {
        let step = (stop - start) / max(0, count)
        let power = log10(step).rounded(.down)
        let error = step / pow(10, power)
        let factor: Double = error >= e10 ? 10 : error >= e5 ? 5 : error >= e2 ? 2 : 1
        var i1: Double, i2: Double, inc: Double
        if power < 0 {
            inc = pow(10, -power) / factor
            i1 = jsRound(start * inc)
            i2 = jsRound(stop * inc)
            if i1 / inc < start { i1 += 1 }
            if i2 / inc > stop { i2 -= 1 }
            inc = -inc
        } else {
            inc = pow(10, power) * factor
            i1 = jsRound(start / inc)
            i2 = jsRound(stop / inc)
            if i1 * inc < start { i1 += 1 }
            if i2 * inc > stop { i2 -= 1 }
        }
        if i2 < i1 && 0.5 <= count && count < 2 { return tickSpec(start, stop, count * 2) }
        return (i1, i2, inc)
    }

    /// About `count` round values from `start` to `stop` (steps of 1, 2 or
    /// 5 × 10^k), in the order of the two ends; `[start]` when they are equal.
    public static func ticks(_ start: Double, _ stop: Double, count: Double) -> [Double] {
        guard count > 0 else { return [] }
        if start == stop { return [start] }
        let reverse = stop < start
        let (i1, i2, inc) = reverse ? tickSpec(stop, start, count) : tickSpec(start, stop, count)
        guard i2 >= i1, (i2 - i1).isFinite, i2 - i1 < 1e6 else { return [] }
        let n = Int(i2 - i1) + 1
        return (0..<n).map { i in
            let k = reverse ? i2 - Double(i) : i1 + Double(i)
            return inc < 0 ? k / -inc : k * inc
        }
    }

    public static func tickIncrement(_ start: Double, _ stop: Double, count: Double) -> Double {
        tickSpec(start, stop, count).2
    }

    /// The signed distance between ticks.
    public static func tickStep(_ start: Double, _ stop: Double, count: Double) -> Double {
        let reverse = stop < start
        let inc = reverse ? tickIncrement(stop, start, count: count) : tickIncrement(start, stop, count: count)
        return (reverse ? -1 : 1) * (inc < 0 ? 1 / -inc : inc)
    }

    /// The domain widened to round values (d3-scale's `linear.nice`): at most
    /// ten passes until the step stops changing; unchanged if it never settles.
    public static func nice(_ start: Double, _ stop: Double, count: Double = 10) -> (Double, Double) {
        var (a, b) = (min(start, stop), max(start, stop))
        var previous: Double?
        for _ in 0..<10 {
            let step = tickIncrement(a, b, count: count)
            if step == previous { return stop < start ? (b, a) : (a, b) }
            if step > 0 {
                a = (a / step).rounded(.down) * step
                b = (b / step).rounded(.up) * step
            } else if step < 0 {
                a = (a * step).rounded(.up) / step
                b = (b * step).rounded(.down) / step
            } else {
                break
            }
            previous = step
        }
        return (start, stop)
    }

    /// Labels as d3-scale's `tickFormat(start, stop, count)` writes them,
    /// in `locale`'s symbols.
    public static func labels(_ values: [Double], start: Double, stop: Double, count: Double, locale: NumberLocale = .enUS) -> [String] {
        let step = tickStep(start, stop, count: count)
        let precision = max(0, -decimalExponent(abs(step)))
        return values.map { fixed($0, precision: precision, locale: locale) }
    }

    /// The exponent of `x` in scientific notation as JavaScript writes
    /// the shortest form (`0.05` → −2), which is what d3-format's
    /// `precisionFixed` reads.
    static func decimalExponent(_ x: Double) -> Int {
        guard x.isFinite, x > 0 else { return 0 }
        // Swift's description is the shortest round-tripping form, as JavaScript's.
        let text = "\(x)".lowercased()
        if let e = text.firstIndex(of: "e") {
            // `1.5e-07`: one digit before the point.
            return Int(text[text.index(after: e)...]) ?? 0
        }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        let whole = parts[0], fraction = parts.count > 1 ? parts[1] : ""
        if let first = whole.firstIndex(where: { $0 != "0" }) { return whole.distance(from: first, to: whole.endIndex) - 1 }
        let zeros = fraction.prefix { $0 == "0" }.count
        return -(zeros + 1)
    }

    /// d3-format `,.{precision}f`: fixed decimals, the integer part grouped
    /// (en-US: by commas), the locale's minus (U+2212 by default), no sign
    /// on a value that rounds to zero, the locale's decimal mark and digits.
    static func fixed(_ value: Double, precision: Int, locale: NumberLocale = .enUS) -> String {
        let text = CFormat.string("%.\(precision)f", abs(value))
        let negative = (value < 0 || (value == 0 && value.sign == .minus)) && text.contains(where: { $0 != "0" && $0 != "." })
        let dot = text.firstIndex(of: ".") ?? text.endIndex
        let whole = locale.group(text[..<dot])
        let rest = dot == text.endIndex ? "" : locale.decimal + text[text.index(after: dot)...]
        return locale.numeralsApplied((negative ? locale.minus : "") + whole + rest)
    }
}
