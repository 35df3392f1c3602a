/// The texts of `text` nodes at or below the first node named `element`
/// (an axis, a legend) in `easel layout`'s JSON, in document order.
public func layoutTexts(in tree: [String: Any], under element: String) -> [String] {
    var out: [String] = []
    func walk(_ node: [String: Any], inside: Bool) {
        let here = inside || node["element"] as? String == element
        if here, node["element"] as? String == "text", let t = node["text"] as? String { out.append(t) }
        for child in node["children"] as? [[String: Any]] ?? [] { walk(child, inside: here) }
    }
    walk(tree, inside: false)
    return out
}
