import FoundationEssentials

/// `easel build --android RES`: the files of each scene in an Android
/// resource folder (`AndroidResources` has the platform's rules).
extension AssetBuild {
    /// A scene as drawables, `drawable[-LOCALE][-night]-DENSITY/NAME.png`,
    /// or an app icon as `mipmap-…/ic_launcher.png` and its adaptive
    /// layers. The scene's first dark variant that sets nothing else is
    /// its `night` resource; another variant a resource of its own
    /// (`NAME_VARIANT`); a tinted variant is iOS's and is passed over.
    static func androidFiles(_ name: String, _ renderings: [Rendering], isAppIcon: Bool) -> [PlannedFile] {
        // Checked before the build (invalidAndroidName, outputCollisions).
        let base = isAppIcon ? AndroidResources.launcherName : AndroidResources.resourceName(name) ?? name
        let night = nightVariant(renderings, isAppIcon: isAppIcon)
        let firstLocale = renderings.first?.locale
        var out: [PlannedFile] = []
        for r in renderings where r.variant?.appearance != .tinted {
            let isNight = r.variant != nil && r.variantName == night
            let resource = base + (r.variant == nil || isNight ? "" : "_" + AndroidResources.mappedName(r.variantName!))
            for (density, scale) in AndroidResources.densities {
                if isAppIcon {
                    let folder = AndroidResources.folder("mipmap", locale: r.locale, night: isNight, density: density)
                    let launcher = Int((Double(AndroidResources.launcherSize) * scale).rounded())
                    out.append(PlannedFile(path: folder + "/" + resource + ".png", producer: r.producer,
                                           bytes: { try r.compiled?.renderPNG(pixels: launcher) }))
                    let side = Int((Double(AndroidResources.layerSize) * scale).rounded())
                    // The system draws the monochrome layer in the theme's colours, night or not.
                    for layer in r.adaptiveLayers where !(isNight && layer == "monochrome") {
                        out.append(PlannedFile(path: folder + "/\(resource)_\(layer).png", producer: r.producer,
                                               bytes: { try r.layers[layer]?.renderPNG(pixels: side) }))
                    }
                } else {
                    let folder = AndroidResources.folder("drawable", locale: r.locale, night: isNight, density: density)
                    out.append(PlannedFile(path: folder + "/" + resource + ".png", producer: r.producer,
                                           bytes: { try r.render(format: .png, scale: scale) }))
                }
            }
            // One XML for every density, locale and night mode: it names the layers' resources.
            if isAppIcon, !isNight, r.locale == firstLocale, !r.adaptiveLayers.isEmpty {
                let xml = AndroidResources.adaptiveIconXML(layers: r.adaptiveLayers)
                out.append(PlannedFile(path: "mipmap-anydpi-v26/\(resource).xml", producer: r.producer, bytes: { xml }))
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
        guard renderings.contains(where: \.isAppIcon) else { return [] }
        let night = nightVariant(renderings, isAppIcon: true)
        let firstLocale = renderings.first?.locale
        var warnings: [Diagnostic] = []
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
