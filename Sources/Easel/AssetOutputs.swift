import EaselParse
import FoundationEssentials

/// What a scene's renderings make: the files of a mirrored tree, an
/// imageset, an app icon set or Android resources, with their bytes.
extension AssetBuild {
    /// The files a scene becomes, relative to the output folder: the
    /// contract's names (`card.png`, `card@2x.png`, `card~dark@2x.png`,
    /// `card.pdf`; a locale's under `LOCALE/`), or in a catalog
    /// `card.imageset/` with its `Contents.json` — a dark variant that sets
    /// nothing else is the dark appearance of that imageset, any other
    /// variant an imageset of its own (`card~promo.imageset`), each locale's
    /// images entries of the same imageset marked with their locale
    /// (`card.de@2x.png`) — and a colorset per palette colour beside it.
    /// Bytes are nil for a file kept from the last build.
    static func files(for scene: String, _ renderings: [Rendering], _ options: Options,
                      warnings: inout [Diagnostic]) throws -> [(String, [UInt8]?)] {
        let folder = scene.deletingLastPathComponent
        let name = OutputName.base(ofScene: scene)
        func path(_ file: String) -> String { folder.isEmpty ? file : folder + "/" + file }
        var out: [(String, [UInt8]?)] = []
        let isAppIcon = renderings.contains { $0.compiled?.scene.asset == .appIcon }
        if options.android { return try androidFiles(name, renderings, isAppIcon: isAppIcon, warnings: &warnings) }
        if options.xcassets && isAppIcon { return try appIconFiles(name, folder: folder, renderings, options) }
        if options.xcassets {
            // The first dark variant that changes nothing else joins the scene's own imageset.
            let dark = renderings.first { $0.variant?.isAppearanceOnly == true }?.variant?.name
            var sets: [(name: String, members: [Rendering])] = []
            for r in renderings {
                let setName = r.variant?.name == dark ? name : name + (r.variantName.map { "~" + $0 } ?? "")
                if let k = sets.firstIndex(where: { $0.name == setName }) { sets[k].members.append(r) } else { sets.append((setName, [r])) }
            }
            for (setName, members) in sets {
                let set = path(setName + ".imageset")
                var images: [AssetCatalog.Image] = []
                for r in members {
                    let appearance: Appearance? = r.variant != nil && r.variant?.name == dark ? .dark : nil
                    // With both gamuts, each image twice, sRGB then Display P3,
                    // per scale (the order of Xcode's slots). A locale kept
                    // from the last build lists its files all the same (nil bytes).
                    let gamuts: [(suffix: String, slot: String?, p3: Bool)] = options.displayGamut == .both
                        ? [("", "sRGB", false), ("-p3", "display-P3", true)] : [("", nil, false)]
                    func rendered(_ gamut: (suffix: String, slot: String?, p3: Bool), _ format: OutputFormat,
                                  _ scale: Double?) throws -> [UInt8]? {
                        if gamut.p3 { return try r.displayP3?.render(format: format, scale: scale, time: 0) }
                        return try r.render(format: format, scale: scale, time: 0)
                    }
                    if options.formats.contains(.pdf) {
                        for gamut in gamuts {
                            let pdf = OutputName.file(name + gamut.suffix, variant: r.variantName, locale: r.locale, extension: "pdf")
                            out.append((set + "/" + pdf, try rendered(gamut, .pdf, nil)))
                            images.append(AssetCatalog.Image(filename: pdf, scale: nil, appearance: appearance, locale: r.locale,
                                                             displayGamut: gamut.slot))
                        }
                    } else {
                        for s in options.catalogScales {
                            for gamut in gamuts {
                                let png = OutputName.file(name + gamut.suffix, variant: r.variantName, locale: r.locale, scale: s, extension: "png")
                                out.append((set + "/" + png, try rendered(gamut, .png, s)))
                                images.append(AssetCatalog.Image(filename: png, scale: s, appearance: appearance, locale: r.locale,
                                                                 displayGamut: gamut.slot))
                            }
                        }
                    }
                }
                out.append((set + "/Contents.json", AssetCatalog.imageSet(images, vector: options.formats.contains(.pdf))))
            }
            return out
        }
        for r in renderings {
            let prefix = r.locale.map { $0 + "/" } ?? ""
            for format in options.formats {
                switch format {
                case .png:
                    for s in options.pngScales {
                        out.append((prefix + path(OutputName.file(name, variant: r.variantName, scale: s, extension: "png")),
                                    try r.render(format: .png, scale: s)))
                    }
                case .pdf, .svg:
                    out.append((prefix + path(OutputName.file(name, variant: r.variantName, extension: format.rawValue)),
                                try r.render(format: format)))
                }
            }
        }
        return out
    }
}
