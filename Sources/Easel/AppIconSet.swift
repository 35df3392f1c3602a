/// `NAME.appiconset/Contents.json` as Xcode 16 writes an app icon set
/// (Apple's "Asset Catalog Format Reference", App Icon Type): the iOS
/// single-size entry — `idiom` `universal`, `platform` `ios`, `size`
/// `1024x1024`, no `scale` — once for any appearance and once for each of
/// the `dark` and `tinted` luminosity appearances; the macOS entries —
/// `idiom` `mac`, `scale` `1x`/`2x`, sizes 16, 32, 128, 256 and 512 points.
/// Keys sorted and entries in the order Xcode lists them, so that a diff
/// against a set Xcode wrote shows only the files' names and `author`.
enum AppIconSet {
    struct Entry {
        var filename: String
        var platform: IconPlatform
        /// Points on a side.
        var size: Int
        /// 1 or 2 (macOS); nil for the single-size iOS entry.
        var scale: Int?
        /// Dark or tinted; nil for any appearance.
        var appearance: Appearance?

        /// Pixels on a side.
        var pixels: Int { size * (scale ?? 1) }
    }

    /// The iOS entry's side: one 1024-point image the system scales.
    static let iOSSize = 1024
    /// macOS's ten images: each size at 1x and 2x.
    static let macSizes = [16, 32, 128, 256, 512]

    /// The entries for `platforms`, named by `name(size, scale)` (the iOS
    /// entry's appearances come from the renderings the caller adds).
    static func macEntries(_ name: (Int, Int) -> String) -> [Entry] {
        macSizes.flatMap { size in [1, 2].map { Entry(filename: name(size, $0), platform: .macos, size: size, scale: $0) } }
    }

    static func contents(_ entries: [Entry]) throws(DiagnosticsError) -> [UInt8] {
        let images: [JSONValue] = entries.map { e in
            var out: [String: JSONValue] = ["filename": .string(e.filename), "size": .string("\(e.size)x\(e.size)")]
            switch e.platform {
            case .ios:
                out["idiom"] = "universal"
                out["platform"] = "ios"
            case .macos:
                out["idiom"] = "mac"
            }
            if let s = e.scale { out["scale"] = .string("\(s)x") }
            if let a = e.appearance { out["appearances"] = AssetCatalog.appearances(a) }
            return .object(out)
        }
        return try AssetCatalog.json(["images": .array(images), "info": AssetCatalog.info])
    }
}

/// The platforms an app icon set holds (`easel build --platforms`).
public enum IconPlatform: String, CaseIterable, Sendable, Comparable {
    case ios, macos
    public static func < (a: Self, b: Self) -> Bool { allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)! }
}
