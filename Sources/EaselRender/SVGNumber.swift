import EaselModel

/// Numbers as SVG writes them: rounded to `places` decimals (3 for
/// coordinates: a thousandth of a point), trailing zeros dropped, never
/// exponents.
enum SVGNumber {
    static func format(_ v: Double, places: Int = 3) -> String {
        guard v.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<places { scale *= 10 }
        let scaled = (v * scale).rounded()
        // Past 2^53 a Double has no fraction; beyond Int64 it has no integer.
        guard abs(scaled) < 9e15 else { return CFormat.string("%.0f", v) }
        let r = Int64(scaled)
        if r == 0 { return "0" }
        let unit = Int64(scale)
        let whole = abs(r) / unit
        var fraction = abs(r) % unit
        var s = (r < 0 ? "-" : "") + String(whole)
        if fraction > 0 {
            var digits = places
            while fraction % 10 == 0 { fraction /= 10; digits -= 1 }
            let f = String(fraction)
            s += "." + String(repeating: "0", count: digits - f.count) + f
        }
        return s
    }
}
