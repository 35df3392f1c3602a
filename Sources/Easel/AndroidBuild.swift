import FoundationEssentials

/// `easel build --android RES`: the files of each scene in an Android
/// resource folder (`AndroidResources` has the platform's rules).
extension AssetBuild {
    /// A scene as drawables, `drawable[-LOCALE][-night]-DENSITY/NAME.png`,
    /// or an app icon as `mipmap-…/ic_launcher.png` and its adaptive
    /// layers; `raster` WebP: every one of these `.webp`, lossless (the
    /// PNG's pixels), as Android Studio converts them. The scene's first dark variant that sets nothing else is
    /// its `night` resource; another variant a resource of its own
    /// (`NAME_VARIANT`); a tinted variant is iOS's and is passed over.
    static func androidFiles(_ name: String, _ renderings: [Rendering], isAppIcon: Bool, vectors: Bool = false,
                             raster: OutputFormat = .png) -> [PlannedFile] {
        let ext = "." + raster.fileExtension
        // Checked before the build (invalidAndroidName, outputCollisions).
        let base = isAppIcon ? AndroidResources.launcherName : AndroidResources.resourceName(name) ?? name
        let night = nightVariant(renderings, isAppIcon: isAppIcon)
        let firstLocale = renderings.first?.locale
        var out: [PlannedFile] = []
        // One adaptive icon XML names each layer for every locale and night
        // mode: a layer is a VectorDrawable only where every rendering of it is one.
        let vectorEverywhere = Set(AndroidResources.layerIDs.filter { layer in
            vectors && renderings.filter { $0.variant?.appearance != .tinted && $0.adaptiveLayers.contains(layer) }
                .allSatisfy { $0.compiled == nil || $0.layerVectors[layer] != nil }
        })
        for r in renderings where r.variant?.appearance != .tinted {
            let isNight = r.variant != nil && r.variantName == night
            let resource = base + (r.variant == nil || isNight ? "" : "_" + AndroidResources.mappedName(r.variantName!))
            // With --android-vectors, what a VectorDrawable can express is one
            // (drawable/…xml), the rest PNG densities. A plan (nothing
            // compiled yet, or a locale kept from the last build) lists both.
            let planning = r.compiled == nil
            let vectorFolder = AndroidResources.folder("drawable", locale: r.locale, night: isNight, density: nil)
            if isAppIcon {
                let layers = r.adaptiveLayers.filter { !(isNight && $0 == "monochrome") }
                let vectorLayers = Set(layers.filter(vectorEverywhere.contains))
                for layer in layers where vectorLayers.contains(layer) {
                    out.append(PlannedFile(path: vectorFolder + "/\(resource)_\(layer).xml", producer: r.producer,
                                           bytes: { r.layerVectors[layer] }))
                }
                for (density, scale) in AndroidResources.densities {
                    let folder = AndroidResources.folder("mipmap", locale: r.locale, night: isNight, density: density)
                    let launcher = Int((Double(AndroidResources.launcherSize) * scale).rounded())
                    out.append(PlannedFile(path: folder + "/" + resource + ext, producer: r.producer,
                                           bytes: { try r.compiled?.renderRaster(pixels: launcher, format: raster) }))
                    let side = Int((Double(AndroidResources.layerSize) * scale).rounded())
                    // The system draws the monochrome layer in the theme's colours, night or not.
                    for layer in layers where planning || !vectorLayers.contains(layer) {
                        // A derived themed layer: the coverage in black, colour glyphs and pictures too.
                        let derived = layer == "monochrome" && r.derivedMonochrome
                        out.append(PlannedFile(path: folder + "/\(resource)_\(layer)" + ext, producer: r.producer, bytes: {
                            try derived ? r.layers[layer]?.renderCoverage(pixels: side, format: raster)
                                : r.layers[layer]?.renderRaster(pixels: side, format: raster)
                        }))
                    }
                }
                // One XML for every density, locale and night mode: it names the layers' resources.
                if !isNight, r.locale == firstLocale, !r.adaptiveLayers.isEmpty {
                    let xml = AndroidResources.adaptiveIconXML(layers: r.adaptiveLayers, vectors: vectorEverywhere)
                    out.append(PlannedFile(path: "mipmap-anydpi-v26/\(resource).xml", producer: r.producer, bytes: { xml }))
                    if vectors {
                        out.append(PlannedFile(path: "mipmap-anydpi-v26/\(resource)_round.xml", producer: r.producer, bytes: { xml }))
                    }
                }
            } else {
                let vector = vectors && (planning || r.vector != nil)
                if vector {
                    out.append(PlannedFile(path: vectorFolder + "/" + resource + ".xml", producer: r.producer, bytes: { r.vector }))
                }
                if !vector || planning {
                    for (density, scale) in AndroidResources.densities {
                        let folder = AndroidResources.folder("drawable", locale: r.locale, night: isNight, density: density)
                        out.append(PlannedFile(path: folder + "/" + resource + ext, producer: r.producer,
                                               bytes: { try r.render(format: raster, scale: scale) }))
                    }
                }
            }
        }
        return out
    }

    /// The variant that is an Android scene's `night` resource: an app
    /// icon's first dark variant, another scene's first that sets nothing else.
    private static func nightVariant(_ renderings: [Rendering], isAppIcon: Bool) -> String? {
        renderings.first { isAppIcon ? $0.variant?.appearance == .dark : $0.variant?.isAppearanceOnly == true }?.variant?.name
    }

    /// What an Android app icon's renderings warn of: a foreground that
    /// draws outside the safe circle, layer groups without their pair.
    static func androidWarnings(_ renderings: [Rendering]) throws -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for r in renderings where r.variant?.appearance != .tinted {
            warnings += r.vectorFallbacks
        }
        guard renderings.contains(where: \.isAppIcon) else { return warnings }
        let night = nightVariant(renderings, isAppIcon: true)
        let firstLocale = renderings.first?.locale
        for r in renderings where r.variant?.appearance != .tinted && r.locale == firstLocale {
            let isNight = r.variant != nil && r.variantName == night
            guard !isNight, let compiled = r.compiled else { continue }
            if let foreground = r.layers["foreground"] {
                if let past = AndroidResources.inkOutsideSafeZone(try foreground.renderImage(scale: foreground.scale(forPixels: AndroidResources.layerSize * 4))) {
                    let at = compiled.scene.layers.first { $0.id == "foreground" }?.location
                    warnings.append(Diagnostic(.warning, .outsideSafeZone(past), at: at))
                }
            } else if r.variant == nil {
                let present = compiled.scene.layers.filter { AndroidResources.layerIDs.contains($0.id) }
                if let first = present.first {
                    warnings.append(Diagnostic(.warning, .incompleteAdaptiveIcon(has: present.map(\.id)), at: first.location))
                }
            }
        }
        return warnings
    }

    /// Why a scene's name cannot be an Android resource name, or nil. (App
    /// icons are all `ic_launcher`: their own names do not matter. Two
    /// scenes of one resource name are a collision of the build's plan.)
    static func invalidAndroidName(_ scene: String, _ options: Options) -> Diagnostic? {
        let name = OutputName.base(ofScene: scene)
        guard AndroidResources.resourceName(name) == nil else { return nil }
        return Diagnostic(.error, .invalidResourceName(name, AndroidResources.mappedName(name)),
                          at: SourceLocation(file: options.shownPath(scene), line: 1, column: 1))
    }
}
