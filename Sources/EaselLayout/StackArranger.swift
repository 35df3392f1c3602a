import EaselModel

/// Places a stack's children (docs/format.md, "Stacks").
///
/// Along the main axis a child takes its given size, else its measured size
/// (text, image, nested stack, a shape's geometry) or 0 (views and shapes);
/// children with `grow` share what is left of a sized stack, in proportion.
/// Across it, a child takes its given size (`fill`: the whole content box),
/// else measured children keep their size and are aligned while views and
/// shapes stretch to the content box. Children start at the main axis's
/// start and follow each other `spacing` apart. A stack without a size
/// along an axis fits its children.
struct StackArranger {
    /// `measure(node, width, height)`: the node's size with those imposed.
    let measure: (Node, Double?, Double?) -> Size

    /// Under `rtl` an hstack runs from the right and leading/trailing
    /// alignments swap (docs/format.md, "Text and fonts").
    func arrange(_ children: [Node], style: StackStyle, content: (Double?, Double?)) -> (frames: [Rect], fitted: Size) {
        var s = style
        if style.direction == .rtl { s.alignment.horizontal = -style.alignment.horizontal }
        let placed = s.axis == .depth ? overlay(children, style: s, content: content) : line(children, style: s, content: content)
        guard style.direction == .rtl, style.axis == .horizontal else { return placed }
        let width = content.0 ?? placed.fitted.width
        return (placed.frames.map { Rect(x: width - $0.maxX, y: $0.y, width: $0.width, height: $0.height) }, placed.fitted)
    }

    /// Whether a node without a size along an axis has one of its own.
    private func hasOwnSize(_ n: Node) -> Bool { n.kind.isMeasured || n.kind.isCoordinateShape }

    private func given(_ length: Length?, _ reference: Double?) -> Double?? {
        switch length {
        case .points(let v)?: return .some(v)
        case .percent(let p)?: return .some(p / 100 * (reference ?? 0))
        case .fill?: return .some(reference)      // nil inside: unknown until the stack is sized
        case nil: return .none
        }
    }

    private func line(_ children: [Node], style: StackStyle, content: (Double?, Double?)) -> (frames: [Rect], fitted: Size) {
        let vertical = style.axis == .vertical
        let contentMain = vertical ? content.1 : content.0
        let contentCross = vertical ? content.0 : content.1
        func mainLength(_ n: Node) -> Length? { vertical ? n.common.height : n.common.width }
        func crossLength(_ n: Node) -> Length? { vertical ? n.common.width : n.common.height }
        func size(_ n: Node, main: Double?, cross: Double?) -> (main: Double, cross: Double) {
            let s = vertical ? measure(n, cross, main) : measure(n, main, cross)
            return vertical ? (s.height, s.width) : (s.width, s.height)
        }
        func explicitMain(_ n: Node) -> Double? {
            if case .points(let v)? = mainLength(n) { return v }
            if case .percent(let p)? = mainLength(n), let m = contentMain { return p / 100 * m }
            return nil
        }

        // Across: given, measured, or (nil) stretched to the content box.
        var cross: [Double?] = children.map { n in
            if let g = given(crossLength(n), contentCross) { return g }
            return hasOwnSize(n) ? size(n, main: explicitMain(n), cross: nil).cross : nil
        }
        let finalCross = contentCross ?? (cross.compactMap { $0 }.max() ?? 0)
        cross = cross.map { $0 ?? finalCross }

        // Along: given, measured at the child's cross size, or 0.
        var main: [Double] = children.enumerated().map { i, n in
            if let g = given(mainLength(n), contentMain) { return g ?? 0 }
            return hasOwnSize(n) ? size(n, main: nil, cross: cross[i]).main : 0
        }
        let spacingTotal = style.spacing * Double(max(0, children.count - 1))
        let used = main.reduce(0, +) + spacingTotal
        let weights = children.map(\.common.grow)
        let weightTotal = weights.reduce(0, +)
        if let available = contentMain, available > used, weightTotal > 0 {
            for i in main.indices { main[i] += (available - used) * weights[i] / weightTotal }
        }

        let alignment = Double(vertical ? style.alignment.horizontal : style.alignment.vertical)
        var frames: [Rect] = []
        var cursor = 0.0
        for i in children.indices {
            let c = cross[i]!
            let across = (finalCross - c) * (alignment + 1) / 2
            frames.append(vertical ? Rect(x: across, y: cursor, width: c, height: main[i])
                                   : Rect(x: cursor, y: across, width: main[i], height: c))
            cursor += main[i] + style.spacing
        }
        let fittedMain = main.reduce(0, +) + spacingTotal
        return (frames, vertical ? Size(finalCross, fittedMain) : Size(fittedMain, finalCross))
    }

    private func overlay(_ children: [Node], style: StackStyle, content: (Double?, Double?)) -> (frames: [Rect], fitted: Size) {
        var sizes: [(Double?, Double?)] = children.map { n in
            let w = given(n.common.width, content.0), h = given(n.common.height, content.1)
            guard hasOwnSize(n) else { return (w ?? nil, h ?? nil) }
            let s = measure(n, w ?? nil, h ?? nil)
            return (s.width, s.height)
        }
        let finalW = content.0 ?? (sizes.compactMap { $0.0 }.max() ?? 0)
        let finalH = content.1 ?? (sizes.compactMap { $0.1 }.max() ?? 0)
        sizes = sizes.map { ($0.0 ?? finalW, $0.1 ?? finalH) }
        let ax = Double(style.alignment.horizontal), ay = Double(style.alignment.vertical)
        let frames = sizes.map { s -> Rect in
            let w = s.0!, h = s.1!
            return Rect(x: (finalW - w) * (ax + 1) / 2, y: (finalH - h) * (ay + 1) / 2, width: w, height: h)
        }
        return (frames, Size(finalW, finalH))
    }
}
