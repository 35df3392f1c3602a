import EaselParse
import FoundationEssentials

/// What a scene's renderings make: the files of a mirrored tree, an
/// imageset, an app icon set or Android resources, with their bytes.
extension AssetBuild {
    /// One file a scene's renderings make, relative to the output folder,
    /// known before anything is rendered: a build checks every path of
    /// every scene for collisions before it writes the first file.
    struct PlannedFile {
        var path: String
        /// The rendering that makes it, for messages: nil for the scene
        /// itself, else its variant and locale (`variant dark, locale de`).
        var producer: String?
        /// Renders the file; nil for a file kept from the last build (a
        /// locale whose translations did not change).
        var bytes: () throws -> [UInt8]?
    }

    /// The files a scene becomes, relative to the output folder: the
    /// contract's names (`card.png`, `card@2x.png`, `card~dark@2x.png`,
    /// `card.pdf`; a locale's under `LOCALE/`), or in a catalog
    /// `card.imageset/` with its `Contents.json` — a dark variant that sets
    /// nothing else is the dark appearance of that imageset, any other
    /// variant an imageset of its own (`card~promo.imageset`), each locale's
    /// images entries of the same imageset marked with their locale
    /// (`card.de@2x.png`) — and a colorset per palette colour beside it.
    /// The paths depend only on the renderings' variants, locales and
    /// kinds, never on what they compiled to: a build plans them from the
    /// scene as written.
    static func files(for scene: String, _ renderings: [Rendering], _ options: Options) -> [PlannedFile] {
        let folder = scene.deletingLastPathComponent
        let name = OutputName.base(ofScene: scene)
        func path(_ file: String) -> String { folder.isEmpty ? file : folder + "/" + file }
        var out: [PlannedFile] = []
        let isAppIcon = renderings.contains(where: \.isAppIcon)
        if options.android { return androidFiles(name, renderings, isAppIcon: isAppIcon, vectors: options.androidVectors,
                                                      raster: options.androidFormat) }
        if options.xcassets && isAppIcon { return appIconFiles(name, folder: folder, renderings, options) }
        if options.xcassets {
            // The first dark variant that changes nothing else joins the scene's own imageset.
            let dark = renderings.first { $0.variant?.isAppearanceOnly == true }?.variant?.name
            var sets: [(name: String, members: [Rendering])] = []
            var setIndex: [String: Int] = [:]
            for r in renderings {
                let setName = r.variant?.name == dark ? name : name + (r.variantName.map { "~" + $0 } ?? "")
                if let k = setIndex[setName] { sets[k].members.append(r) } else {
                    setIndex[setName] = sets.count
                    sets.append((setName, [r]))
                }
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
                                  _ scale: Double?) -> () throws -> [UInt8]? {
                        if gamut.p3 { return { try r.displayP3?.render(format: format, scale: scale, time: 0) } }
                        return { try r.render(format: format, scale: scale, time: 0) }
                    }
                    if options.formats.contains(.pdf) {
                        for gamut in gamuts {
                            let pdf = OutputName.file(name + gamut.suffix, variant: r.variantName, locale: r.locale, extension: "pdf")
                            out.append(PlannedFile(path: set + "/" + pdf, producer: r.producer, bytes: rendered(gamut, .pdf, nil)))
                            images.append(AssetCatalog.Image(filename: pdf, scale: nil, appearance: appearance, locale: r.locale,
                                                             displayGamut: gamut.slot))
                        }
                    } else {
                        for s in options.catalogScales {
                            for gamut in gamuts {
                                let png = OutputName.file(name + gamut.suffix, variant: r.variantName, locale: r.locale, scale: s, extension: "png")
                                out.append(PlannedFile(path: set + "/" + png, producer: r.producer, bytes: rendered(gamut, .png, s)))
                                images.append(AssetCatalog.Image(filename: png, scale: s, appearance: appearance, locale: r.locale,
                                                                 displayGamut: gamut.slot))
                            }
                        }
                    }
                }
                let vector = options.formats.contains(.pdf)
                out.append(PlannedFile(path: set + "/Contents.json", producer: members.first?.producer) { [images] in
                    try AssetCatalog.imageSet(images, vector: vector)
                })
            }
            return out
        }
        for r in renderings {
            let prefix = r.locale.map { $0 + "/" } ?? ""
            // An app icon's Icon Composer bundle, beside its other files.
            if let bundle = r.iconComposerFiles {
                for (file, bytes) in bundle {
                    out.append(PlannedFile(path: prefix + path(name + ".icon/" + file), producer: r.producer, bytes: { bytes }))
                }
            } else {
                for file in r.iconComposerCandidates {
                    out.append(PlannedFile(path: prefix + path(name + ".icon/" + file), producer: r.producer, bytes: { nil }))
                }
            }
            for format in options.formats {
                switch format {
                case .png, .webp, .avif:
                    // WebP and AVIF named as PNGs are: `card@2x.webp`.
                    for s in options.pngScales {
                        out.append(PlannedFile(path: prefix + path(OutputName.file(name, variant: r.variantName, scale: s,
                                                                                   extension: format.fileExtension)),
                                               producer: r.producer, bytes: { try r.render(format: format, scale: s) }))
                    }
                case .pdf, .svg, .vectorDrawable:
                    out.append(PlannedFile(path: prefix + path(OutputName.file(name, variant: r.variantName, extension: format.fileExtension)),
                                           producer: r.producer, bytes: { try r.render(format: format) }))
                }
            }
        }
        return out
    }
}
