import FoundationEssentials

/// `easel build --android RES`: the files of each scene in an Android
/// resource folder (`AndroidResources` has the platform's rules).
extension AssetBuild {
    /// A scene as drawables, `drawable[-LOCALE][-night]-DENSITY/NAME.png`,
    /// or an app icon as `mipmap-…/ic_launcher.png` and its adaptive
    /// layers. The scene's first dark variant that sets nothing else is
    /// its `night` resource; another variant a resource of its own
    /// (`NAME_VARIANT`); a tinted variant is iOS's and is passed over.
    static func androidFiles(_ name: String, _ renderings: [Rendering], isAppIcon: Bool,
                             warnings: inout [Diagnostic]) throws -> [(String, [UInt8]?)] {
        // Checked before the build (refusedAndroidNames).
        let base = isAppIcon ? AndroidResources.launcherName : AndroidResources.resourceName(name) ?? name
        let night = renderings.first { isAppIcon ? $0.variant?.appearance == .dark : $0.variant?.isAppearanceOnly == true }?.variant?.name
        let firstLocale = renderings.first?.locale
        var out: [(String, [UInt8]?)] = []
        for r in renderings where r.variant?.appearance != .tinted {
            let isNight = r.variant != nil && r.variantName == night
            let resource = base + (r.variant == nil || isNight ? "" : "_" + AndroidResources.mappedName(r.variantName!))
            for (density, scale) in AndroidResources.densities {
                if isAppIcon {
                    let folder = AndroidResources.folder("mipmap", locale: r.locale, night: isNight, density: density)
                    let launcher = Int((Double(AndroidResources.launcherSize) * scale).rounded())
                    out.append((folder + "/" + resource + ".png", try r.compiled?.renderPNG(pixels: launcher)))
                    let side = Int((Double(AndroidResources.layerSize) * scale).rounded())
                    // The system draws the monochrome layer in the theme's colours, night or not.
                    for layer in AndroidResources.layerIDs where !(isNight && layer == "monochrome") {
                        guard let compiled = r.layers[layer] else { continue }
                        out.append((folder + "/\(resource)_\(layer).png", try compiled.renderPNG(pixels: side)))
                    }
                } else {
                    let folder = AndroidResources.folder("drawable", locale: r.locale, night: isNight, density: density)
                    out.append((folder + "/" + resource + ".png", try r.render(format: .png, scale: scale)))
                }
            }
            guard isAppIcon, !isNight, r.locale == firstLocale, let compiled = r.compiled else { continue }
            if !r.layers.isEmpty {
                // One XML for every density, locale and night mode: it names the layers' resources.
                out.append(("mipmap-anydpi-v26/\(resource).xml", AndroidResources.adaptiveIconXML(layers: Array(r.layers.keys))))
                if let foreground = r.layers["foreground"],
                   let past = AndroidResources.inkOutsideSafeZone(try foreground.renderImage(scale: foreground.scale(forPixels: AndroidResources.layerSize * 4))) {
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
        return out
    }

    /// Scenes whose names cannot be resource names, or make one another
    /// scene's name makes (`My Icon` and `my_icon`), and every app icon
    /// after the first (in path order; all are `ic_launcher`) are refused
    /// before anything renders: a resource folder has no subfolders to keep
    /// them apart, and which one won would depend on the order of threads.
    static func refusedAndroidNames(_ scenes: [String], _ options: Options, isAppIcon: (String) -> Bool) -> [String: Diagnostic] {
        var refused: [String: Diagnostic] = [:]
        var first: [String: String] = [:]
        var icon: String?
        for scene in scenes {
            let name = OutputName.base(ofScene: scene)
            let at = SourceLocation(file: options.shownPath(scene), line: 1, column: 1)
            if isAppIcon(scene) {
                // Its files are all ic_launcher: its own name does not matter.
                if let icon {
                    refused[scene] = Diagnostic(.error, .twoLauncherIcons(first: options.shownPath(icon), second: options.shownPath(scene)), at: at)
                } else {
                    icon = scene
                }
                continue
            }
            guard let resource = AndroidResources.resourceName(name) else {
                refused[scene] = Diagnostic(.error, .invalidResourceName(name, AndroidResources.mappedName(name)), at: at)
                continue
            }
            if let earlier = first[resource] {
                refused[scene] = Diagnostic(.error, .resourceNameCollision("drawable-*/\(resource).png", first: options.shownPath(earlier),
                                                                          second: options.shownPath(scene)), at: at)
            } else {
                first[resource] = scene
            }
        }
        return refused
    }

    /// Two scenes that wrote one file (two app icons are both
    /// `ic_launcher`, a variant's `card_promo` and a scene `card_promo`):
    /// the later one fails, and neither is recorded, so that the next
    /// build makes both again once one is renamed.
    static func refuseSharedOutputs(_ manifest: inout BuildManifest, _ report: inout Report, _ options: Options) {
        var owner: [String: String] = [:]
        for scene in manifest.scenes.keys.sorted() {
            for output in manifest.scenes[scene]?.outputs ?? [] {
                guard let first = owner[output] else {
                    owner[output] = scene
                    continue
                }
                let at = SourceLocation(file: options.shownPath(scene), line: 1, column: 1)
                report.diagnostics.append((scene, [Diagnostic(.error, .resourceNameCollision(output, first: options.shownPath(first), second: options.shownPath(scene)), at: at)]))
                manifest.scenes[scene] = nil
                manifest.scenes[first] = nil
                report.rendered.removeAll { $0 == scene }
                report.upToDate.removeAll { $0 == scene }
                if !report.failed.contains(scene) { report.failed.append(scene) }
                break
            }
        }
    }
}
