/// Path arithmetic on strings as `NSString` did it (Foundation's string
/// path methods are not in FoundationEssentials): relative paths stay
/// relative, which `URL(fileURLWithPath:)` would not let them.
extension String {
    /// "a/b/c" → "a/b", "a" → "", "/a" → "/", "a/b/" → "a".
    public var deletingLastPathComponent: String {
        var path = Substring(self)
        while path.count > 1, path.hasSuffix("/") { path.removeLast() }
        guard let slash = path.lastIndex(of: "/") else { return "" }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }

    /// "a" + "b" → "a/b", "a/" + "b" → "a/b", "" + "b" → "b".
    public func appendingPathComponent(_ component: String) -> String {
        if isEmpty { return component }
        if component.isEmpty { return self }
        return (hasSuffix("/") ? String(dropLast()) : self) + "/" + (component.hasPrefix("/") ? String(component.dropFirst()) : component)
    }

    /// The last component's extension without its dot: "a/b.TTF" → "TTF";
    /// none for ".hidden" or "a.".
    public var pathExtension: String {
        let name = split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
        return String(name[name.index(after: dot)...])
    }
}
