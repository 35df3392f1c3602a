import FoundationEssentials
import Glibc

/// The contract's gradient rules that do not depend on the renderer.
public enum GradientMath {
    /// The contract's angle rule: the direction `(cos a, sin a)` (y up) is
    /// stretched until its larger component is ±1, the start point is its
    /// negation, and both map to the unit box by `u = (x+1)/2, v = 1-(y+1)/2`.
    /// 45° runs from the bottom-left corner to the top-right corner.
    public static func unitEndpoints(angle degrees: Double) -> (start: Point, end: Point) {
        let r = degrees * .pi / 180
        var dx = cos(r), dy = sin(r)
        // Snap values that should be exactly 0 (cos 90° is 6e-17).
        if abs(dx) < 1e-12 { dx = 0 }
        if abs(dy) < 1e-12 { dy = 0 }
        let m = max(abs(dx), abs(dy))
        let ex = dx / m, ey = dy / m
        let end = Point((ex + 1) / 2, 1 - (ey + 1) / 2)
        let start = Point((-ex + 1) / 2, 1 - (-ey + 1) / 2)
        return (start, end)
    }

    /// The unit vector of an angle in the gradient convention (anticlockwise
    /// from east, y up), in screen coordinates (y down).
    public static func screenDirection(angle degrees: Double) -> Point {
        let r = degrees * .pi / 180
        var d = Point(cos(r), -sin(r))
        if abs(d.x) < 1e-12 { d.x = 0 }
        if abs(d.y) < 1e-12 { d.y = 0 }
        return d
    }

    /// CSS rules for omitted and out-of-order offsets; with every offset
    /// omitted, stops spread evenly as CAGradientLayer does without locations.
    public static func resolvedOffsets(_ given: [Double?]) -> [Double] {
        let n = given.count
        guard n > 0 else { return [] }
        if n == 1 { return [max(0, min(1, given[0] ?? 0))] }
        var o = given
        if o[0] == nil { o[0] = 0 }
        if o[n - 1] == nil { o[n - 1] = 1 }
        // Raise each offset to the largest before it.
        var running = -Double.infinity
        for i in 0..<n {
            if let v = o[i] { running = max(running, v); o[i] = running }
        }
        // Spread runs of omitted offsets evenly between their neighbours.
        var i = 0
        while i < n {
            if o[i] == nil {
                let startIndex = i - 1
                var j = i
                while o[j] == nil { j += 1 }
                let a = o[startIndex]!, b = o[j]!
                let span = Double(j - startIndex)
                for k in i..<j { o[k] = a + (b - a) * Double(k - startIndex) / span }
                i = j
            } else {
                i += 1
            }
        }
        return o.map { $0! }
    }
}
