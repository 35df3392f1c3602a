extension StringProtocol {
    /// Without leading and trailing white space (newlines included).
    @inlinable public var trimmingSpaces: String {
        // Most values start and end with a printable ASCII character: no
        // Unicode property lookups for them.
        if let f = utf8.first, let l = utf8.reversed().first, f > 0x20, f < 0x7F, l > 0x20, l < 0x7F { return String(self) }
        var s = Substring(self)
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        while let c = s.last, c.isWhitespace { s.removeLast() }
        return String(s)
    }
}
