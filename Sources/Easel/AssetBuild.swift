import EaselParse
import FoundationEssentials

/// `easel build` (docs/cli.md, "easel build"): every
/// `*.scene.xml` under a folder, rendered into a mirrored tree at several
/// scales and formats, or into an Xcode asset catalog — only what changed
/// since the last build, on several threads.
public enum AssetBuild {
    /// The manifest's name inside the output folder.
    public static let manifestName = ".easel-build.json"

    public static func run(_ options: Options) -> Report {
        var report = Report()
        let fm = FileManager.default
        let listing = sceneFiles(under: options.source)
        let scenes = listing.scenes
        // A folder that cannot be listed is not an empty one: the build
        // fails naming it, and the scenes recorded under it keep their
        // outputs and records (they are neither built nor removed).
        for folder in listing.unreadable {
            report.errors.append(Diagnostic(.error, .unreadableSourceFolder(options.shownPath(folder.folder), folder.reason), at: nil))
        }
        let present = Set(scenes)
        // One build writes a folder at a time: a second waits for the first,
        // then reads the manifest the first wrote.
        var outputFolder: OutputFolder?
        if !options.dryRun {
            do {
                outputFolder = try OutputFolder(options.output)
            } catch {
                report.errors += (error as? DiagnosticsError)?.diagnostics
                    ?? [Diagnostic(.error, .cannotOpenOutputFolder(options.output.path, "\(error)"), at: nil)]
                return report
            }
            // Ctrl-C while waiting: nothing was done, nothing to record.
            if outputFolder?.lock(waiting: { options.waiting?() }) == false {
                report.interrupted = true
                return report
            }
        }
        let manifestURL = options.output.appendingPathComponent(manifestName)
        var manifest = options.usesManifest ? BuildManifest.load(from: manifestURL, warnings: &report.warnings) : BuildManifest()
        let unknown = Set(manifest.scenes.keys.filter { !present.contains($0) && listing.isUnknown($0) })
        let fingerprint = options.fingerprint
        // What each scene wrote last time, even under other options: a file
        // this build no longer writes (a scale or gamut slot dropped) goes.
        let previousOutputs = manifest.scenes.mapValues(\.outputs)
        if manifest.easel != Easel.version || manifest.options != fingerprint {
            // Another Easel or other options: everything again. Every record
            // stays, marked to be built again, until its scene is built or
            // gone: one that cannot be read now, fails or is not started
            // (Ctrl-C) still owns the outputs it wrote.
            manifest.scenes = manifest.scenes.mapValues { entry in
                var kept = entry
                kept.outdated = true
                return kept
            }
        }
        manifest.easel = Easel.version
        manifest.options = fingerprint

        // Which scenes need rendering: no record, an output missing, or a
        // file they read (the scene first) whose bytes changed. A file with
        // the size and time it was read with is unchanged (FileRecord's
        // rule); others are hashed, each once a build however many scenes
        // read it (one font, 500 scenes).
        var hashes: [String: String?] = [:]
        func currentHash(_ path: String) -> String? {
            if let known = hashes[path] { return known }
            let h = ContentHash.sha256(ofFileAt: path)
            hashes[path] = h
            return h
        }
        // A scene whose files are unchanged but whose translations changed
        // is rendered again for those locales only.
        var partial: [String: [String]] = [:]
        let changed = scenes.filter { scene in
            guard let entry = manifest.scenes[scene], entry.outdated != true else { return true }
            let outputsThere = entry.outputs.allSatisfy { fm.fileExists(atPath: options.output.appendingPathComponent($0).path) }
            // A catalog's colour sets are made from what each scene exports.
            if options.xcassets && entry.colors == nil { return true }
            if !outputsThere || entry.inputs.contains(where: { !$0.isUnchangedOnDisk && currentHash($0.path) != $0.sha256 }) { return true }
            switch options.localeChanges(entry) {
            case .none: return false
            case .all: return true
            case .some(let locales):
                partial[scene] = locales
                return true
            }
        }

        // Every file of the build is known before the first is written: the
        // scenes to build plan theirs from their files as written, the
        // others keep what they wrote last time. Two producers of one path
        // (or of paths that differ only in case) fail the whole build.
        let plans = ParallelJobs.map(changed, jobs: options.jobs) { plan($0, options) }
        var refused: [String: Diagnostic] = [:]
        if options.android {
            for p in plans where !p.isAppIcon {
                if let d = invalidAndroidName(p.scene, options) { refused[p.scene] = d }
            }
        }
        let changedSet = Set(changed)
        let collisions = outputCollisions(plans.filter { refused[$0.scene] == nil }, kept: scenes.filter { !changedSet.contains($0) }
            .compactMap { scene in manifest.scenes[scene].map { (scene, $0.outputs) } }
            + unknown.sorted().compactMap { scene in manifest.scenes[scene].map { (scene, $0.outputs) } }, options)
        if !collisions.isEmpty {
            for (scene, other, diagnostic) in collisions {
                report.diagnostics.append((scene, [diagnostic]))
                for s in [scene, other] where !report.failed.contains(s) { report.failed.append(s) }
            }
            return report
        }

        let stale = changed.filter { refused[$0] == nil }
        let planned = Dictionary(plans.map { ($0.scene, Set($0.files.map(\.path))) }, uniquingKeysWith: { a, _ in a })
        var removals: [String] = []
        let done = Locked(0)
        let onlyLocales = partial
        let options = { var o = options; o.staleScenes = stale.count; return o }()
        let writingFolder = outputFolder
        let results: [SceneResult] = options.dryRun
            ? stale.map { SceneResult(scene: $0, entry: nil, diagnostics: []) }
            : ParallelJobs.map(stale, jobs: options.jobs) { scene in
                // After Ctrl-C no scene starts; those under way finish and are recorded.
                guard !AtomicFile.isInterrupted else { return SceneResult(scene: scene, entry: nil, diagnostics: [], started: false) }
                let result = build(scene, options, only: onlyLocales[scene], planned: planned[scene] ?? [],
                                   previous: Set(previousOutputs[scene] ?? []), into: writingFolder!)
                // Reported under the lock: one progress call at a time, in
                // the order scenes finished (the callback prints).
                done.withLock { count in
                    count += 1
                    options.progress?(scene, result.entry != nil, count, stale.count)
                }
                return result
            }
        for r in results {
            guard r.started else {
                report.notStarted.append(r.scene)   // its previous outputs and record stay
                continue
            }
            report.declaredParameters.formUnion(r.parameters)
            if !r.diagnostics.isEmpty { report.diagnostics.append((r.scene, r.diagnostics)) }
            if let entry = r.entry {
                // What it wrote last time and no longer writes (a locale dropped,
                // a scene no longer localized) goes.
                let outputs = Set(entry.outputs)
                for output in previousOutputs[r.scene] ?? [] where !outputs.contains(output) && BuildManifest.isInsideFolder(output) {
                    removals.append(output)
                }
                manifest.scenes[r.scene] = entry
                report.rendered.append(r.scene)
            } else if options.dryRun {
                report.rendered.append(r.scene)
            } else {
                report.failed.append(r.scene)   // its previous outputs and record stay
            }
        }
        for scene in scenes where refused[scene] != nil {
            report.diagnostics.append((scene, [refused[scene]!]))
            report.failed.append(scene)
        }
        let staleSet = Set(stale)
        report.upToDate = scenes.filter { !staleSet.contains($0) && refused[$0] == nil }
        report.interrupted = AtomicFile.isInterrupted

        // Scenes that are gone: remove exactly the files they wrote. A scene
        // under a folder that could not be listed is not known to be gone.
        for (scene, outputs) in previousOutputs.sorted(by: { $0.key < $1.key }) where !present.contains(scene) && !unknown.contains(scene) {
            for output in outputs where BuildManifest.isInsideFolder(output) { removals.append(output) }
            if !options.dryRun { manifest.scenes[scene] = nil }
        }
        // A file another scene now writes is that scene's (an icon renamed:
        // the new name's ic_launcher is the old one's path).
        // Compared without case, as collisions are: on a disk that ignores
        // case (macOS's default) `Badge.png`, renamed `badge.png`, is the
        // file just written, and stays.
        let owned = Set(manifest.scenes.filter { present.contains($0.key) || unknown.contains($0.key) }.values.flatMap(\.outputs)
            .map { $0.lowercased() })
        for output in removals where !owned.contains(output.lowercased()) {
            guard let outputFolder else { report.removed.append(output); continue }   // a dry run
            removeStale(output, &report, outputFolder)
        }
        // Colour sets by the scene that makes them (the first to export the name).
        var colorSets: [String: [String]] = [:]
        if let outputFolder {
            if options.xcassets {
                colorSets = writeColorSets(&manifest, &report, options, outputFolder)
                writeCatalogFolders(outputFolder, scenes: manifest.scenes.keys.sorted(), &report)
            }
            // Unchanged, it is not rewritten: a watched output folder stays quiet.
            // A manifest that cannot be made or written is an error: the next
            // build would trust the old one.
            do {
                guard options.usesManifest else { throw ManifestNotWanted() }
                let bytes = Array(try manifest.encoded())
                // What the manifest lists is on disk before it is trusted
                // again, even when its bytes are unchanged (an output
                // removed by hand and rendered again); if the flush fails,
                // the manifest is not written.
                let wroteOutputs = !report.rendered.isEmpty || !report.removed.isEmpty || options.xcassets
                do {
                    if wroteOutputs { try outputFolder.flushToDisk() }
                    if (try? FileBytes.read(manifestURL.path).get()) != bytes { write(bytes, to: manifestName, outputFolder, &report) }
                } catch let failure as DiagnosticsError {
                    report.errors += failure.diagnostics
                }
            } catch is ManifestNotWanted {
            } catch {
                report.errors.append(Diagnostic(.error, .cannotWrite(manifestURL.path, "cannot encode it: \(error)"), at: nil))
            }
        }
        for scene in scenes {
            guard let entry = manifest.scenes[scene] else { continue }
            let outputs = entry.outputs + (colorSets[scene] ?? [])
            report.dependencies.append((outputs.map { options.output.appendingPathComponent($0).path }, entry.inputs.map(\.path)))
        }
        return report
    }

    struct SceneResult: Sendable {
        var scene: String
        var entry: BuildManifest.Entry?
        var diagnostics: [Diagnostic]
        /// The `<param>` names the scene declares.
        var parameters: [String] = []
        /// False for a scene not started because the build was interrupted.
        var started = true
    }

    /// One scene: read and parsed once, then one compile for itself and one
    /// for each variant — for each locale, if it uses a localized key —
    /// each rendered at every scale and format. `only`: the locales whose
    /// translations changed (the others' files are kept as they are).
    /// `planned`: the paths the build planned for the scene; a file outside
    /// them fails the scene, unwritten.
    /// `previous`: the outputs the last build recorded for the scene (what a kept locale keeps).
    static func build(_ scene: String, _ options: Options, only: [String]? = nil, planned: Set<String>,
                      previous: Set<String> = [], into outputFolder: OutputFolder) -> SceneResult {
        var compileOptions = options.compile
        compileOptions.scales = options.formats.contains(where: \.isRaster) ? options.pngScales.compactMap { $0 } : []
        // A build's --set values are for the scenes that declare them.
        compileOptions.ignoresUndeclaredParameters = true
        let url = options.source.appendingPathComponent(scene)
        let shown = options.shownPath(scene)
        let source = SceneParser.read(fileAt: url, displayPath: shown, limits: compileOptions.limits)
        // Android densities and a catalog's app icon sizes paint at scales
        // of their own; everything else at the build's.
        compileOptions.paintsAboveScales = options.android || (options.xcassets && source.isAppIcon)
        let candidates = source.stringParameters
        let locales = renderedLocales(source, options)
        let rendered = Set(only ?? options.locales)

        // Locales compile and render on the build's spare workers (all of
        // them for a build of one scene); warnings are said once.
        let localeJobs = max(1, options.jobs / max(1, options.staleScenes))
        let shared = compileOptions
        let compiled: [LocaleCompile] = ParallelJobs.map(locales, jobs: localeJobs) { locale in
            compileLocale(locale, source, shared, kept: locale.map { !rendered.contains($0) } ?? false, options)
        }
        var session = CompileSession(options: compileOptions)
        var renderings: [Rendering] = []
        var inputs: [FileRecord] = []
        var inputPaths = Set<String>()
        var parameters: [String] = []
        // Every locale's diagnostics, each said once: one that only some
        // locales have names its locale, and one locale's failure does not
        // hide another's.
        var said = Set<Diagnostic.Identity>()
        var inLocales: [Diagnostic.Identity: [String]] = [:]
        for (locale, c) in zip(locales, compiled) {
            for d in Set(c.diagnostics.map(\.identity)) { inLocales[d, default: []].append(locale ?? "") }
        }
        for (locale, c) in zip(locales, compiled) {
            session.report(c.diagnostics.filter { said.insert($0.identity).inserted }.map { d in
                guard locale != nil, compiled.count > 1, let named = inLocales[d.identity], named.count != compiled.count else { return d }
                var out = d
                out.message.text += named.count == 1 ? " (locale \(named[0]))" : " (locales \(named.joined(separator: ", ")))"
                return out
            })
            parameters = c.parameters
            renderings += c.renderings
            for f in c.filesRead where inputPaths.insert(f.path).inserted { inputs.append(f) }
        }
        if compiled.contains(where: \.failed) { return SceneResult(scene: scene, entry: nil, diagnostics: session.diagnostics) }
        let files = files(for: scene, renderings, options)
        if let unplanned = files.first(where: { !planned.contains($0.path) }) {
            session.report([Diagnostic(.error, .sceneChangedDuringBuild(unplanned.path), at: SourceLocation(file: shown, line: 1, column: 1))])
            return SceneResult(scene: scene, entry: nil, diagnostics: session.diagnostics)
        }
        var outputs = files.map(\.path)
        // Every file rendered before the first is written: a scene that
        // fails writes nothing.
        // The mirrored tree's SVGs animate (a catalog has none): what they cannot animate is said, once.
        var warnings: [Diagnostic] = []
        if options.formats.contains(.svg), !options.xcassets, !options.android,
           let still = renderings.lazy.compactMap({ $0.compiled?.stillSVGAnimationWarning }).first {
            warnings.append(still)
        }
        // VectorDrawables are sRGB: a Display P3 scene's colours outside it are gamut-mapped, said once.
        if (options.android && options.androidVectors) || (options.formats.contains(.vectorDrawable) && !options.android),
           let mapped = renderings.lazy.compactMap({ $0.compiled?.vectorDrawableGamutWarning }).first {
            warnings.append(mapped)
        }
        let ok = session.run {
            if options.android { warnings += try androidWarnings(renderings) }
            let made = try files.map { ($0.path, try $0.bytes()) }
            for (relative, bytes) in made {
                guard let bytes else { continue }   // a locale whose translations did not change
                try outputFolder.write(bytes, to: relative)
            }
            // A kept locale lists every file it could have (a VectorDrawable
            // or PNG densities): only those the last build wrote are its outputs.
            outputs = made.filter { $0.1 != nil || previous.contains($0.0) }.map(\.0)
        }
        session.report(warnings)
        guard ok else { return SceneResult(scene: scene, entry: nil, diagnostics: session.diagnostics) }
        var entry = BuildManifest.Entry(inputs: inputs, outputs: outputs)
        if options.xcassets {
            let own = renderings.first { $0.variant == nil && $0.compiled != nil }?.compiled
            entry.colors = (own?.scene.definitions.paletteColors ?? []).filter(\.exported).map(ExportedColor.init)
        }
        if !options.locales.isEmpty {
            entry.stringParameters = candidates
            entry.strings = options.stringsUsed(candidates)
        }
        return SceneResult(scene: scene, entry: entry, diagnostics: session.diagnostics, parameters: parameters)
    }

    /// One locale's (or no locale's) compiles of a scene: itself and each
    /// variant, rendered unless `kept`.
    struct LocaleCompile: Sendable {
        var renderings: [Rendering] = []
        var diagnostics: [Diagnostic] = []
        var filesRead: [FileRecord] = []
        var parameters: [String] = []
        var failed = false
    }

    static func compileLocale(_ locale: String?, _ source: SceneSource, _ compileOptions: Easel.Options, kept: Bool,
                              _ options: Options) -> LocaleCompile {
        var out = LocaleCompile()
        var localeOptions = compileOptions
        localeOptions.locale = locale ?? compileOptions.locale   // nil: one --locale for the whole build, or none
        // A catalog's gamut slots decide the colour space its images are painted in.
        let bothGamuts = options.xcassets && options.displayGamut == .both
        if options.xcassets, options.displayGamut != .srgb { localeOptions.colorSpace = bothGamuts ? .srgb : .displayP3 }
        var localeSession = CompileSession(options: localeOptions)
        let compiled = localeSession.compile(source)
        out.diagnostics = localeSession.diagnostics
        guard let compiled else {
            out.failed = true
            return out
        }
        out.parameters = compiled.scene.parameters.map(\.name)
        out.filesRead = localeSession.filesRead
        var readPaths = Set(out.filesRead.map(\.path))
        var scenes: [(SceneVariant?, CompiledScene)] = [(nil, compiled)]
        for variant in compiled.scene.variants {
            var variantOptions = localeOptions
            variantOptions.variant = variant.name
            var variantSession = CompileSession(options: variantOptions)
            // Every diagnostic of a variant is kept, warnings with its
            // errors: the session is the record of what the build found.
            guard let c = variantSession.compile(source) else {
                out.diagnostics += variantSession.diagnostics
                out.failed = true
                return out
            }
            // A variant's own warnings (an overflow in its values) are said too.
            out.diagnostics += variantSession.diagnostics
            scenes.append((variant, c))
            for f in variantSession.filesRead where readPaths.insert(f.path).inserted { out.filesRead.append(f) }
        }
        /// The compile so far, failed by `error` (its diagnostics said).
        func failed(_ error: Error) -> LocaleCompile {
            var failure = out
            if let e = error as? DiagnosticsError { failure.diagnostics += e.diagnostics } else {
                failure.diagnostics.append(Diagnostic(.error, .failed(error), at: nil))
            }
            failure.failed = true
            return failure
        }
        for (variant, c) in scenes {
            // An app icon's files are made from every rendering: none is kept.
            let isAppIcon = c.scene.asset == .appIcon
            var r = Rendering(variant: variant, locale: locale, compiled: kept && !isAppIcon ? nil : c, isAppIcon: isAppIcon)
            // The Display P3 slot: the same scene compiled again in Display P3
            // (colours are converted in layout). Its warnings are the sRGB
            // compile's or fewer; only errors are new.
            if bothGamuts, !kept, !isAppIcon {
                var p3Options = localeOptions
                p3Options.variant = variant?.name
                p3Options.colorSpace = .displayP3
                var p3Session = CompileSession(options: p3Options)
                guard let p3 = p3Session.compile(source) else {
                    out.diagnostics += p3Session.diagnostics.filter { $0.severity == .error }
                    out.failed = true
                    return out
                }
                r.displayP3 = p3
            }
            // An Android app icon's layers, each compiled alone.
            if options.android, isAppIcon, variant?.appearance != .tinted {
                let ids = c.scene.layers.map(\.id)
                r.adaptiveLayers = AndroidResources.adaptiveLayers(ids: ids, derivedMonochrome: options.androidMonochrome == .auto)
                for layer in r.adaptiveLayers where ids.contains(layer) {
                    var layerOptions = localeOptions
                    layerOptions.variant = variant?.name
                    layerOptions.layer = layer
                    var layerSession = CompileSession(options: layerOptions)
                    guard let compiledLayer = layerSession.compile(source) else {
                        out.diagnostics += layerSession.diagnostics.filter { $0.severity == .error }
                        out.failed = true
                        return out
                    }
                    r.layers[layer] = compiledLayer
                }
                // --android-monochrome auto: the foreground's coverage, in one colour.
                if r.adaptiveLayers.contains("monochrome"), !ids.contains("monochrome") {
                    r.layers["monochrome"] = r.layers["foreground"]?.monochrome()
                    r.derivedMonochrome = true
                }
            }
            // An app icon's Icon Composer bundle: its appearances and layers compiled alone.
            if options.iconComposer, isAppIcon, variant == nil, !options.android, !options.xcassets {
                // A build names the bundle's files before it compiles: from ids as written.
                if let id = source.layerIDsAsWritten.first(where: { $0.contains("{") }) {
                    out.diagnostics.append(Diagnostic(.error, .iconLayerIDWithParameter(id), at: c.scene.location))
                    out.failed = true
                    return out
                }
                do {
                    r.iconComposerFiles = try IconComposerBundle.files(for: c) { variantName, layer in
                        var o = localeOptions
                        o.variant = variantName
                        o.layer = layer
                        var session = CompileSession(options: o)
                        guard let made = session.compile(source) else {
                            throw DiagnosticsError(session.diagnostics.filter { $0.severity == .error })
                        }
                        return made
                    }
                } catch {
                    return failed(error)
                }
            }
            if !kept {
                do { try r.prerender(options) } catch { return failed(error) }
            }
            out.renderings.append(r)
        }
        return out
    }
}

/// `--no-manifest`: the manifest is not written.
private struct ManifestNotWanted: Error {}
