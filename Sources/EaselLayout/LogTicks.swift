import EaselModel
import Glibc

/// A base-10 log axis's ticks and labels as d3-scale's `scaleLog` makes
/// them (src/log.js: `ticks`, `nice` and `tickFormat`, whose default
/// specifier for base 10 is d3-format's `s` with insignificant zeros
/// trimmed, and which leaves labels empty where ticks crowd: only the
/// multiples 1…k of each power of ten keep theirs).
public enum LogTicks {
    /// d3's `pow10`: exact powers of ten, as `+("1e" + x)` reads them.
    static func pow10(_ x: Double) -> Double {
        guard x.isFinite else { return x < 0 ? 0 : x }
        return Double("1e\(Int(x))") ?? pow(10, x)
    }

    /// `scaleLog().domain([start, stop]).ticks(count)`; both ends above 0.
    public static func ticks(_ start: Double, _ stop: Double, count: Double) -> [Double] {
        guard start > 0, stop > 0, start.isFinite, stop.isFinite else { return [] }
        let reverse = stop < start
        let (u, v) = reverse ? (stop, start) : (start, stop)
        var i = log10(u), j = log10(v)
        var z: [Double] = []
        if j - i < count {
            i = i.rounded(.down); j = j.rounded(.up)
            var e = i
            outer: while e <= j {
                for k in 1..<10 {
                    let t = e < 0 ? Double(k) / pow10(-e) : Double(k) * pow10(e)
                    if t < u { continue }
                    if t > v { break outer }
                    z.append(t)
                }
                e += 1
            }
            if Double(z.count) * 2 < count { z = NumericTicks.ticks(u, v, count: count) }
        } else {
            z = NumericTicks.ticks(i, j, count: Swift.min(j - i, count)).map(pow10)
        }
        return reverse ? z.reversed() : z
    }

    /// `scaleLog().nice()`: each end out to a power of ten.
    public static func nice(_ start: Double, _ stop: Double) -> (Double, Double) {
        guard start > 0, stop > 0 else { return (start, stop) }
        let (a, b) = stop < start ? (stop, start) : (start, stop)
        let lo = pow10(log10(a).rounded(.down)), hi = pow10(log10(b).rounded(.up))
        return stop < start ? (hi, lo) : (lo, hi)
    }

    /// `scaleLog().domain([start, stop]).tickFormat(count)` applied to
    /// `ticks`: "" where d3 leaves a tick unlabelled. d3 measures crowding
    /// against `scale.ticks()` at its default count of 10, whatever count
    /// the axis asks for.
    public static func labels(_ ticks: [Double], start: Double, stop: Double, count: Double, locale: NumberLocale = .enUS) -> [String] {
        guard !ticks.isEmpty else { return [] }
        let defaultTicks = Self.ticks(start, stop, count: 10).count
        let k = Swift.max(1, 10 * count / Double(Swift.max(1, defaultTicks)))
        return ticks.map { d in
            var i = d / pow10(NumericTicks.jsRound(log10(d)))
            if i * 10 < 10 - 0.5 { i *= 10 }
            return i <= k ? siPrefixed(d, locale: locale) : ""
        }
    }

    static let prefixes = ["y", "z", "a", "f", "p", "n", "\u{00B5}", "m", "", "k", "M", "G", "T", "P", "E", "Z", "Y"]

    /// d3-format's `~s`: six significant digits with an SI prefix, trailing
    /// zeros trimmed (`1k`, `200`, `500m`, `2.5M`).
    public static func siPrefixed(_ x: Double, locale: NumberLocale = .enUS) -> String {
        guard x.isFinite else { return locale.nan }
        // JavaScript's toExponential(5): "d.ddddde±x".
        let exp = CFormat.string("%.5e", abs(x))
        guard let e = exp.firstIndex(of: "e") else { return exp }
        let coefficient = exp[..<e].filter { $0 != "." }
        let exponent = Int(exp[exp.index(after: e)...]) ?? 0
        let prefixExponent = Swift.max(-8, Swift.min(8, Int((Double(exponent) / 3).rounded(.down)))) * 3
        let i = exponent - prefixExponent + 1, n = coefficient.count
        var value: String
        if i == n { value = coefficient }
        else if i > n { value = coefficient + String(repeating: "0", count: i - n) }
        else if i > 0 { value = String(coefficient.prefix(i)) + "." + coefficient.dropFirst(i) }
        else { value = "0." + String(repeating: "0", count: -i) + coefficient }
        if value.contains(".") {
            while value.hasSuffix("0") { value.removeLast() }
            if value.hasSuffix(".") { value.removeLast() }
        }
        let negative = x < 0 && value.contains(where: { $0 != "0" && $0 != "." })
        let suffix = x == 0 ? "" : prefixes[8 + prefixExponent / 3]
        let localized = locale.decimal == "." ? value : value.replacing(".", with: locale.decimal)
        return locale.numeralsApplied((negative ? locale.minus : "") + localized + suffix)
    }
}
