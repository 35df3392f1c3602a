/// The names Easel gives the files it writes, in one place for `render`,
/// `build` and asset catalogs: `card.png`, `card@2x.png`, `card~dark@3x.png`,
/// `card.de@2x.png` (a locale's entry in an imageset), `card.pdf`.
public enum OutputName {
    /// `card` for `scenes/card.scene.xml` (or `card.xml`).
    public static func base(ofScene path: String) -> String {
        var name = path.split(separator: "/", omittingEmptySubsequences: true).last.map(String.init) ?? path
        for suffix in [".scene.xml", ".xml"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return name
    }

    /// `base~variant.locale_16x16@2x.ext`: a variant after `~`, a locale
    /// after a dot (inside an imageset), an icon entry's size in points
    /// (inside an appiconset), the scale as asset catalogs write it (none
    /// for 1, or for vectors: pass nil).
    public static func file(_ base: String, variant: String? = nil, locale: String? = nil, size: Int? = nil, scale: Double? = nil,
                            extension ext: String) -> String {
        base + (variant.map { "~" + $0 } ?? "") + (locale.map { "." + $0 } ?? "") + (size.map { "_\($0)x\($0)" } ?? "")
            + (scale.map(scaleSuffix) ?? "") + "." + ext
    }

    /// `""` at scale 1, `@2x` at 2, `@1.5x` at 1.5 (asset-catalog names).
    public static func scaleSuffix(_ s: Double) -> String {
        if s == 1 { return "" }
        return s == s.rounded() ? "@\(Int(s))x" : "@\(s)x"
    }
}
