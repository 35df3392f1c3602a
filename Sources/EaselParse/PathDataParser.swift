import EaselModel
import FoundationEssentials
import Glibc

/// A path-data error and the byte offset in `d` where it was found.
public struct PathDataError: Error, Hashable {
    public var message: Diagnostic.Message
    public var offset: Int
}

/// Full SVG path data (SVG 2 §9.3): every command in absolute and relative
/// form, implicit repeats, smooth curves and elliptical arcs. Unlike browsers,
/// an error rejects the whole path rather than drawing up to it.
public enum PathDataParser {
    public static func parse(_ d: String) -> Result<BezierPath, PathDataError> {
        var s = NumberScanner(d)
        var path = BezierPath()
        var command: UInt8? = nil
        var lastControl: Point? = nil        // for S/s and T/t reflection
        var lastWasCubic = false, lastWasQuad = false
        var current = Point.zero, subpathStart = Point.zero

        func fail(_ detail: String) -> Result<BezierPath, PathDataError> {
            .failure(PathDataError(message: .badPathData(detail), offset: min(s.index, max(0, s.bytes.count))))
        }

        s.skipSpaces()
        if s.isAtEnd { return .success(path) }
        while true {
            s.skipSpaces()
            if s.isAtEnd { break }
            guard let b = s.current else { break }
            if isCommand(b) {
                if path.isEmpty, b != UInt8(ascii: "M"), b != UInt8(ascii: "m") {
                    return fail("path data must start with a moveto (M or m)")
                }
                command = b
                s.index += 1
                s.skipSpaces()
            } else if command == nil {
                return fail("path data must start with a moveto (M or m)")
            } else if command == UInt8(ascii: "z") || command == UInt8(ascii: "Z") {
                return fail("unexpected '\(Character(Unicode.Scalar(b)))' after closepath")
            }
            guard let cmd = command else { break }
            if path.isEmpty, cmd != UInt8(ascii: "M"), cmd != UInt8(ascii: "m") {
                return fail("path data must start with a moveto (M or m)")
            }
            let relative = cmd >= 0x61
            let upper = relative ? cmd - 0x20 : cmd
            let base = relative ? current : .zero

            func numbers(_ n: Int) -> [Double]? {
                var out: [Double] = []
                for i in 0..<n {
                    guard let v = s.scanNumber() else { return nil }
                    out.append(v)
                    if i < n - 1 { s.skipSeparator() }
                }
                s.skipSeparator()
                return out
            }

            switch upper {
            case UInt8(ascii: "Z"):
                path.close()
                current = subpathStart
                lastWasCubic = false; lastWasQuad = false
                s.skipSeparator()
                continue
            case UInt8(ascii: "M"):
                guard let v = numbers(2) else { return fail("M needs two numbers") }
                current = base + Point(v[0], v[1])
                path.move(to: current)
                subpathStart = current
                // Further pairs after a moveto are implicit linetos.
                command = relative ? UInt8(ascii: "l") : UInt8(ascii: "L")
                lastWasCubic = false; lastWasQuad = false
                continue
            case UInt8(ascii: "L"):
                guard let v = numbers(2) else { return fail("L needs two numbers") }
                current = base + Point(v[0], v[1])
                path.line(to: current)
                lastWasCubic = false; lastWasQuad = false
            case UInt8(ascii: "H"):
                guard let v = numbers(1) else { return fail("H needs a number") }
                current = Point(relative ? current.x + v[0] : v[0], current.y)
                path.line(to: current)
                lastWasCubic = false; lastWasQuad = false
            case UInt8(ascii: "V"):
                guard let v = numbers(1) else { return fail("V needs a number") }
                current = Point(current.x, relative ? current.y + v[0] : v[0])
                path.line(to: current)
                lastWasCubic = false; lastWasQuad = false
            case UInt8(ascii: "C"):
                guard let v = numbers(6) else { return fail("C needs six numbers") }
                let c1 = base + Point(v[0], v[1]), c2 = base + Point(v[2], v[3]), p = base + Point(v[4], v[5])
                path.curve(to: p, control1: c1, control2: c2)
                lastControl = c2; current = p
                lastWasCubic = true; lastWasQuad = false
            case UInt8(ascii: "S"):
                guard let v = numbers(4) else { return fail("S needs four numbers") }
                let c1 = lastWasCubic ? current + (current - lastControl!) : current
                let c2 = base + Point(v[0], v[1]), p = base + Point(v[2], v[3])
                path.curve(to: p, control1: c1, control2: c2)
                lastControl = c2; current = p
                lastWasCubic = true; lastWasQuad = false
            case UInt8(ascii: "Q"):
                guard let v = numbers(4) else { return fail("Q needs four numbers") }
                let q = base + Point(v[0], v[1]), p = base + Point(v[2], v[3])
                path.quad(to: p, control: q)
                lastControl = q; current = p
                lastWasCubic = false; lastWasQuad = true
            case UInt8(ascii: "T"):
                guard let v = numbers(2) else { return fail("T needs two numbers") }
                let q = lastWasQuad ? current + (current - lastControl!) : current
                let p = base + Point(v[0], v[1])
                path.quad(to: p, control: q)
                lastControl = q; current = p
                lastWasCubic = false; lastWasQuad = true
            case UInt8(ascii: "A"):
                let usage = "A needs rx ry rotation large-arc sweep x y"
                guard let radii = numbers(3) else { return fail(usage) }
                guard let large = s.scanFlag() else { return fail("an arc flag must be 0 or 1") }
                s.skipSeparator()
                guard let sweep = s.scanFlag() else { return fail("an arc flag must be 0 or 1") }
                s.skipSeparator()
                guard let end = numbers(2) else { return fail(usage) }
                let (rx, ry, rot, x, y) = (radii[0], radii[1], radii[2], end[0], end[1])
                let p = base + Point(x, y)
                ArcConversion.append(to: &path, from: current, to: p, rx: rx, ry: ry,
                                     rotation: rot, largeArc: large, sweep: sweep)
                current = p
                lastWasCubic = false; lastWasQuad = false
            default:
                return fail("unknown command")
            }
        }
        return .success(path)
    }

    static func isCommand(_ b: UInt8) -> Bool {
        "MmLlHhVvCcSsQqTtAaZz".utf8.contains(b)
    }
}

extension Diagnostic.Message {
    static func badPathData(_ detail: String) -> Self { .init(.invalidPathData, "malformed path data: \(detail)") }
}

/// SVG 2 implementation notes B.2.4–B.2.5: endpoint arcs to centre form,
/// then cubic Béziers of at most 90° each.
enum ArcConversion {
    static func append(to path: inout BezierPath, from p0: Point, to p1: Point,
                       rx rxIn: Double, ry ryIn: Double, rotation: Double, largeArc: Bool, sweep: Bool) {
        if p0 == p1 { return }
        var rx = abs(rxIn), ry = abs(ryIn)
        if rx == 0 || ry == 0 { path.line(to: p1); return }
        let phi = rotation * .pi / 180
        let cosPhi = cos(phi), sinPhi = sin(phi)
        let dx = (p0.x - p1.x) / 2, dy = (p0.y - p1.y) / 2
        let x1p = cosPhi * dx + sinPhi * dy
        let y1p = -sinPhi * dx + cosPhi * dy
        let lambda = (x1p * x1p) / (rx * rx) + (y1p * y1p) / (ry * ry)
        if lambda > 1 { let r = lambda.squareRoot(); rx *= r; ry *= r }
        let num = rx * rx * ry * ry - rx * rx * y1p * y1p - ry * ry * x1p * x1p
        let den = rx * rx * y1p * y1p + ry * ry * x1p * x1p
        var coef = den == 0 ? 0 : (max(0, num) / den).squareRoot()
        if largeArc == sweep { coef = -coef }
        let cxp = coef * rx * y1p / ry
        let cyp = -coef * ry * x1p / rx
        let cx = cosPhi * cxp - sinPhi * cyp + (p0.x + p1.x) / 2
        let cy = sinPhi * cxp + cosPhi * cyp + (p0.y + p1.y) / 2
        // Radii whose squares leave Double's range (1e300 by 1e-300) give
        // no centre: the ellipse is as flat as a zero radius, a line.
        guard rx.isFinite, ry.isFinite, cx.isFinite, cy.isFinite else { path.line(to: p1); return }

        func angle(_ ux: Double, _ uy: Double, _ vx: Double, _ vy: Double) -> Double {
            let dot = ux * vx + uy * vy
            let len = (ux * ux + uy * uy).squareRoot() * (vx * vx + vy * vy).squareRoot()
            var a = acos(max(-1, min(1, dot / len)))
            if ux * vy - uy * vx < 0 { a = -a }
            return a
        }
        let theta1 = angle(1, 0, (x1p - cxp) / rx, (y1p - cyp) / ry)
        var delta = angle((x1p - cxp) / rx, (y1p - cyp) / ry, (-x1p - cxp) / rx, (-y1p - cyp) / ry)
        if !sweep, delta > 0 { delta -= 2 * .pi }
        if sweep, delta < 0 { delta += 2 * .pi }

        let segments = max(1, Int((abs(delta) / (.pi / 2)).rounded(.up)))
        let step = delta / Double(segments)
        let k = 4.0 / 3.0 * tan(step / 4)
        func map(_ x: Double, _ y: Double) -> Point {
            Point(cx + rx * x * cosPhi - ry * y * sinPhi, cy + rx * x * sinPhi + ry * y * cosPhi)
        }
        var t = theta1
        for i in 0..<segments {
            let t2 = t + step
            let c1 = map(cos(t) - k * sin(t), sin(t) + k * cos(t))
            let c2 = map(cos(t2) + k * sin(t2), sin(t2) - k * cos(t2))
            // The last point is the exact endpoint, so arcs join without drift.
            let end = i == segments - 1 ? p1 : map(cos(t2), sin(t2))
            path.curve(to: end, control1: c1, control2: c2)
            t = t2
        }
    }
}
