import EaselModel

extension Diagnostic.Message {
    static func colorsOutsideGamut(_ space: SceneColorSpace, _ list: [String], more: Int, insideP3: Bool) -> Self {
        let name = space == .srgb ? "sRGB" : "Display P3"
        let count = list.count + more
        let head = count == 1 ? "a colour lies outside \(name) and is" : "\(count) colours lie outside \(name) and are"
        let advice = space == .srgb && insideP3
            ? "; painted in Display P3 (color-space=\"display-p3\", --color-space display-p3) \(count == 1 ? "it is" : "they are") kept" : ""
        return .init(.colorOutsideGamut, "\(head) gamut-mapped as CSS Color 4 maps colours (OKLCh chroma reduced): "
                     + list.joined(separator: ", ") + (more > 0 ? " and \(more) more" : "") + advice)
    }
}

/// The gamut warning: every colour written outside the scene's colour
/// space, listed once (a palette colour at its `<color>`, not at each use),
/// with what it is painted as.
extension SceneBuilder {
    func noteGamut(_ c: Color, _ text: String, _ location: SourceLocation) {
        guard !DisplayP3.isInside(c, .srgb), palette[text.trimmingSpaces] == nil else { return }
        wideColors.append((text.trimmingSpaces, c, location))
    }

    func warnOutsideGamut(_ space: SceneColorSpace) {
        let outside = wideColors.filter { !DisplayP3.isInside($0.color, space) }
        guard let first = outside.first else { return }
        let shown = 8
        let list = outside.prefix(shown).map { entry -> String in
            let painted = space.painted(entry.color)
            let as_ = space == .srgb ? painted.description : Self.p3Text(painted)
            return "'\(entry.text)' (\(entry.location.line):\(entry.location.column)) → \(as_)"
        }
        diagnostics.warning(.colorsOutsideGamut(space, list, more: outside.count - list.count,
                                                insideP3: outside.allSatisfy { DisplayP3.isInside($0.color, .displayP3) }),
                            at: first.location)
    }

    static func p3Text(_ c: Color) -> String {
        func f(_ v: Double) -> String {
            let r = (v * 1000).rounded() / 1000
            return r == r.rounded() ? String(Int(r)) : String(r)
        }
        return "color(display-p3 \(f(c.red)) \(f(c.green)) \(f(c.blue)))"
    }
}
