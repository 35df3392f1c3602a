import EaselParse
import FoundationEssentials

extension Diagnostic.Message {
    static func buildOutputCollision(_ path: String, first: String, second: String, otherCase: String?) -> Self {
        let caseNote = otherCase.map { " ('\($0)' and '\(path)' differ only in case: one file on a disk that ignores case, as macOS's does by default)" } ?? ""
        return .init(.outputCollision, "\(first) and \(second) would both write '\(path)'\(caseNote); rename one scene or variant: nothing was written")
    }
    static func unreadableSourceFolder(_ folder: String, _ reason: String) -> Self {
        .init(.unreadableSource, "cannot read the folder '\(folder)': \(reason); the outputs of the scenes under it are kept as they were")
    }
    static func sceneChangedDuringBuild(_ path: String) -> Self {
        .init(.outputCollision, "the scene would write '\(path)', which it did not name when the build planned its files (it changed during the build): nothing of it was written; build again")
    }
}

/// Every output path of a build, known before anything is written
/// (contract 1.3, "Nothing lost, nothing malformed"): a scene to build plans
/// its files from the scene as written — its variants, locales and kind,
/// which decide every name — and a scene built before keeps the files its
/// record lists. One path from two producers fails the build before the
/// first file is written, as `easel render` refuses two inputs of one output.
extension AssetBuild {
    struct ScenePlan: Sendable {
        var scene: String
        var isAppIcon: Bool
        var files: [(path: String, producer: String?)]
    }

    /// The files `scene` will write, from its file as written (read, not compiled).
    static func plan(_ scene: String, _ options: Options) -> ScenePlan {
        let source = SceneParser.read(fileAt: options.source.appendingPathComponent(scene), displayPath: options.shownPath(scene),
                                      limits: options.compile.limits, hashes: false)
        // A layer id with a parameter in it (`id="{layer}"`) is known only
        // once compiled: the plan holds every layer it could be.
        let ids = source.layerIDsAsWritten
        let layerIDs = ids.contains { $0.contains("{") } ? AndroidResources.layerIDs : ids
        let adaptive = options.android && source.isAppIcon
            ? AndroidResources.adaptiveLayers(ids: layerIDs, derivedMonochrome: options.androidMonochrome == .auto) : []
        let variants: [SceneVariant?] = [nil] + source.variantsAsWritten
        let bundle = options.iconComposer && source.isAppIcon && !options.android && !options.xcassets
            ? IconComposerBundle.candidates(layerIDs: ids, appearances: source.variantsAsWritten.compactMap(\.appearance)) : []
        let renderings = renderedLocales(source, options).flatMap { locale in
            variants.map { variant in
                var r = Rendering(variant: variant, locale: locale, compiled: nil, isAppIcon: source.isAppIcon,
                                  adaptiveLayers: variant?.appearance == .tinted ? [] : adaptive)
                if variant == nil { r.iconComposerCandidates = bundle }
                return r
            }
        }
        return ScenePlan(scene: scene, isAppIcon: source.isAppIcon, files: files(for: scene, renderings, options).map { ($0.path, $0.producer) })
    }

    /// The locales a scene is rendered in: each of `--locales` if it uses a
    /// key of the string tables, else none (nil: once, unlocalized).
    static func renderedLocales(_ source: SceneSource, _ options: Options) -> [String?] {
        guard !options.locales.isEmpty else { return [nil] }
        let keys = options.compile.strings?.keys ?? []
        return source.stringParameters.contains(where: keys.contains) ? options.locales : [nil]
    }

    /// Paths written by two producers — files, or a file where another
    /// file's folder must be — compared as a disk that ignores case compares
    /// them. `kept`: the files of scenes not built this time, by scene.
    /// Each pair of producers is reported once, at the later scene.
    static func outputCollisions(_ plans: [ScenePlan], kept: [(scene: String, outputs: [String])],
                                 _ options: Options) -> [(scene: String, other: String, diagnostic: Diagnostic)] {
        struct Producer {
            var scene: String
            var rendering: String?
            var path: String
            var isAppIcon: Bool
        }
        var all: [Producer] = []
        for p in plans { all += p.files.map { Producer(scene: p.scene, rendering: $0.producer, path: $0.path, isAppIcon: p.isAppIcon) } }
        for k in kept {
            let isAppIcon = k.outputs.contains { $0.hasPrefix("mipmap-") }
            all += k.outputs.map { Producer(scene: k.scene, rendering: nil, path: $0, isAppIcon: isAppIcon) }
        }
        // In scene order, each scene's files in its own order: the first is
        // the one named first, whichever thread planned it.
        let order = Dictionary((plans.map(\.scene) + kept.map(\.scene)).sorted().enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        all = all.enumerated().sorted { (order[$0.element.scene]!, $0.offset) < (order[$1.element.scene]!, $1.offset) }.map(\.element)

        func named(_ p: Producer) -> String {
            "'\(options.shownPath(p.scene))'" + (p.rendering.map { " (\($0))" } ?? "")
        }
        var files: [String: Producer] = [:], folders: [String: Producer] = [:]
        var reported = Set<String>()
        var found: [(scene: String, other: String, diagnostic: Diagnostic)] = []
        func collide(_ first: Producer, _ second: Producer, at path: String, otherCase: String?) {
            guard reported.insert(named(first) + "\u{0}" + named(second)).inserted else { return }
            let message: Diagnostic.Message
            if options.android && first.isAppIcon && second.isAppIcon && first.scene != second.scene {
                message = .twoLauncherIcons(first: options.shownPath(first.scene), second: options.shownPath(second.scene))
            } else if options.android && otherCase == nil && first.rendering == nil && second.rendering == nil {
                // `drawable-*/card.png`: every density's folder has the file.
                let parts = path.split(separator: "/", maxSplits: 1)
                let starred = parts.count == 2 ? (parts[0].split(separator: "-").first.map { $0 + "-*/" } ?? "") + parts[1] : path
                message = .resourceNameCollision(starred, first: options.shownPath(first.scene), second: options.shownPath(second.scene))
            } else {
                message = .buildOutputCollision(path, first: named(first), second: named(second), otherCase: otherCase)
            }
            let at = SourceLocation(file: options.shownPath(second.scene), line: 1, column: 1)
            found.append((second.scene, first.scene, Diagnostic(.error, message, at: at)))
        }
        for p in all {
            let key = p.path.lowercased()
            if let first = files[key] ?? folders[key] {
                collide(first, p, at: p.path, otherCase: first.path == p.path || folders[key] != nil ? nil : first.path)
                continue
            }
            files[key] = p
            var folder = p.path.deletingLastPathComponent
            while !folder.isEmpty {
                let folderKey = folder.lowercased()
                if let file = files[folderKey] { collide(file, p, at: folder, otherCase: nil) }
                if folders[folderKey] != nil { break }   // and every folder above it
                folders[folderKey] = p
                folder = folder.deletingLastPathComponent
            }
        }
        return found
    }
}
