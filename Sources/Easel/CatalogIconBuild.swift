import EaselParse
import FoundationEssentials

/// The parts of an asset-catalog build that are not imagesets: app icon
/// sets, and the colour sets every scene's palette shares.
extension AssetBuild {
    /// `NAME.appiconset`: the scene for any appearance, its first dark and
    /// first tinted variant as those appearances (iOS), the macOS sizes
    /// from the scene itself; any other variant an icon set of its own
    /// (`NAME~VARIANT.appiconset`, an alternate icon). Every image is
    /// painted at its own pixel size. App icons are not localized: the
    /// scene's first locale makes them.
    static func appIconFiles(_ name: String, folder: String, _ renderings: [Rendering], _ options: Options) -> [PlannedFile] {
        func path(_ file: String) -> String { folder.isEmpty ? file : folder + "/" + file }
        let firstLocale = renderings.first?.locale
        let own = renderings.filter { $0.locale == firstLocale }
        let dark = own.first { $0.variant?.appearance == .dark }?.variant?.name
        let tinted = own.first { $0.variant?.appearance == .tinted }?.variant?.name
        var sets: [(name: String, members: [(Rendering, Appearance?)])] = []
        var setIndex: [String: Int] = [:]
        for r in own {
            let appearance: Appearance? = r.variant == nil ? nil : r.variantName == dark ? .dark : r.variantName == tinted ? .tinted : nil
            let setName = r.variant == nil || appearance != nil ? name : name + "~" + r.variantName!
            if let k = setIndex[setName] { sets[k].members.append((r, appearance)) } else {
                setIndex[setName] = sets.count
                sets.append((setName, [(r, appearance)]))
            }
        }
        var out: [PlannedFile] = []
        for (setName, members) in sets {
            let set = path(setName + ".appiconset")
            var ios: [AppIconSet.Entry] = [], mac: [AppIconSet.Entry] = []
            for (r, appearance) in members {
                if options.platforms.contains(.ios) {
                    let file = OutputName.file(name, variant: r.variantName, extension: "png")
                    out.append(PlannedFile(path: set + "/" + file, producer: r.producer) {
                        guard let compiled = r.compiled else { return nil }
                        let png = try compiled.renderRaster(pixels: AppIconSet.iOSSize)
                        // iOS shows an icon's transparent pixels as black; Xcode refuses
                        // such an icon when the app is submitted. Dark and tinted icons
                        // may be transparent: the system puts its own background under them.
                        if appearance == nil, PNGChunks.colorType(of: png) != PNGChunks.rgbColorType {
                            throw DiagnosticsError([Diagnostic(.error, .appIconNotOpaque(r.variantName), at: compiled.scene.location)])
                        }
                        return png
                    })
                    ios.append(AppIconSet.Entry(filename: file, platform: .ios, size: AppIconSet.iOSSize, scale: nil, appearance: appearance))
                }
                if options.platforms.contains(.macos), appearance == nil {
                    for e in AppIconSet.macEntries({ OutputName.file(name, variant: r.variantName, size: $0, scale: Double($1), extension: "png") }) {
                        out.append(PlannedFile(path: set + "/" + e.filename, producer: r.producer,
                                               bytes: { try r.compiled?.renderRaster(pixels: e.pixels) }))
                        mac.append(e)
                    }
                }
            }
            // Xcode lists any appearance, dark, tinted, then the Mac's sizes.
            let order: [Appearance?] = [nil, .dark, .tinted]
            ios.sort { order.firstIndex(of: $0.appearance)! < order.firstIndex(of: $1.appearance)! }
            let entries = ios + mac
            out.append(PlannedFile(path: set + "/Contents.json", producer: members.first?.0.producer) { try AppIconSet.contents(entries) })
        }
        return out
    }

    /// Colour sets from what every scene of the catalog exports (recorded
    /// in the manifest, so scenes not built this time count too); a set no
    /// scene exports any more is removed, and a name exported with other
    /// values fails the later scene. Returns the sets' files by the scene
    /// that makes them (for the depfile).
    @discardableResult
    static func writeColorSets(_ manifest: inout BuildManifest, _ report: inout Report, _ options: Options,
                               _ folder: OutputFolder) -> [String: [String]] {
        let scenes = manifest.scenes.keys.sorted().map { ($0, manifest.scenes[$0]?.colors ?? []) }
        let (files, clashes) = ColorSets.resolve(scenes, shown: options.shownPath)
        var byScene: [String: [String]] = [:]
        for (relative, bytes, scene) in files {
            byScene[scene, default: []].append(relative)
            let url = options.output.appendingPathComponent(relative)
            guard (try? FileBytes.read(url.path).get()) != bytes else { continue }
            write(bytes, to: relative, folder, &report)
        }
        let written = files.map(\.path)
        for old in manifest.colorSets ?? [] where !written.contains(old) && BuildManifest.isInsideFolder(old) {
            removeStale(old, &report, folder)
        }
        manifest.colorSets = written
        for (scene, diagnostic) in clashes {
            report.diagnostics.append((scene, [diagnostic]))
            report.rendered.removeAll { $0 == scene }
            report.upToDate.removeAll { $0 == scene }
            if !report.failed.contains(scene) { report.failed.append(scene) }
        }
        return byScene
    }
}

extension Diagnostic.Message {
    static func appIconNotOpaque(_ variant: String?) -> Self {
        .init(.appIconNotOpaque, "an iOS app icon must be opaque, but \(variant.map { "variant '\($0)'" } ?? "the icon") has pixels with alpha below 255; give the scene an opaque background")
    }
}
