import EaselModel

/// `<vstack>`, `<hstack>`, `<zstack>`.
extension SceneBuilder {
    func stackStyle(_ el: XMLElement) -> StackStyle {
        let axis = StackAxis(rawValue: el.name) ?? .vertical
        var s = StackStyle(axis: axis)
        if let v = number(el, "spacing") { if v >= 0 { s.spacing = v } else { rangeError(el, "spacing", "0 or more") } }
        s.padding = padding(el)
        s.paint = paintStyle(el, defaultFill: .none)
        s.corners = corners(el)
        // `auto` keeps the inherited direction; a scene's `auto` lays stacks out left to right.
        let own = keyword(el, "dir", TextDirection.self)
        s.setsDirection = own != nil && own != .auto
        s.direction = (s.setsDirection ? own! : direction) == .rtl ? .rtl : .ltr
        if let a = el.attribute("alignment") {
            let choices: [String: StackAlignment]
            switch axis {
            case .vertical: choices = ["leading": .init(horizontal: -1, vertical: 0), "center": .center, "trailing": .init(horizontal: 1, vertical: 0)]
            case .horizontal: choices = ["top": .init(horizontal: 0, vertical: -1), "center": .center, "bottom": .init(horizontal: 0, vertical: 1)]
            case .depth:
                var all: [String: StackAlignment] = [:]
                for (vName, v) in [("top", -1), ("", 0), ("bottom", 1)] {
                    for (hName, h) in [("leading", -1), ("", 0), ("trailing", 1)] {
                        let name = [vName, hName].filter { !$0.isEmpty }.joined(separator: "-")
                        all[name.isEmpty ? "center" : name] = .init(horizontal: h, vertical: v)
                    }
                }
                choices = all
            }
            let v = a.value.trimmingSpaces
            if let c = choices[v] { s.alignment = c } else {
                let names = choices.keys.sorted()
                diagnostics.error(.badKeyword("alignment", a.value, choices: names, suggestion: Suggestion.nearest(to: v, in: names)),
                                  on: a)
            }
        }
        return s
    }

    /// A percentage inside a stack refers to the stack's content box, which
    /// does not exist along an axis where the stack fits its children.
    func checkPercentages(inStack el: XMLElement) {
        func sized(_ name: String) -> Bool { el.attribute(name) != nil }
        for child in el.children {
            for (attr, axisSized) in [("width", sized("width")), ("height", sized("height"))] where !axisSized {
                if let a = child.attribute(attr), a.value.trimmingSpaces.hasSuffix("%") {
                    diagnostics.error(.percentInFittingStack(attr, stack: el.name), on: a)
                }
            }
        }
    }
}
