import ArgumentParser
import Easel
import EaselCommandLine
import FoundationEssentials
import Glibc

/// One line to standard output, unbuffered, so that a pipe (a build log, a
/// watching test) sees it as it happens.
func say(_ line: String) {
    StandardStreams.output((line + "\n"))
}

struct Build: ParsableCommand {
    // Named here: ArgumentParser would otherwise derive the name from the
    // type's name at start-up, demangling it (about a million instructions).
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Render every *.scene.xml under a folder into a mirrored asset tree, only what changed.",
        discussion: """
            Without --scales each scene renders once at its own scale into card.png, as render does; with --scales \
            names follow asset catalogs: card.png, card@2x.png, card@3x.png; PDF and SVG have no scale suffix. \
            A scene is rendered again only when its file, a file it read, the options or Easel's version changed \
            (a manifest in the output folder records them); outputs of deleted scenes are removed, and files Easel \
            did not write are never touched. A folder that cannot be read is an error, and the outputs of the scenes \
            under it are kept. Every output path is checked before anything is written: two scenes, variants or \
            locales that would write one file (or files whose names differ only in case) fail the build, naming both. \
            One build writes a folder at a time (a second waits); Ctrl-C lets the scenes under way finish and records \
            them, a second Ctrl-C stops at once. With --xcassets the output is an Xcode asset catalog.
            """)

    @Argument(help: "The folder of scenes.")
    var source: String

    // --out-dir as for render; -o and --output are the older spellings.
    @Option(name: [.customLong("out-dir"), .customShort("o"), .customLong("output")],
            help: ArgumentHelp("The output folder, created if missing (an .xcassets folder with --xcassets). -o and --output are older spellings. Optional with --android.",
                               valueName: "dir"))
    var output: String?

    @OptionGroup var outputs: OutputOptions
    private var jobs: Int? { outputs.jobs }
    private var depfile: String? { outputs.depfile }

    @Flag(help: "Write an Xcode asset catalog: an imageset per scene (an appiconset per app icon), a colorset per exported palette colour.")
    var xcassets = false

    @Option(help: ArgumentHelp("Comma-separated platforms of app icon sets: ios (the 1024-point icon, dark and tinted), macos (ten sizes). Default: ios.", valueName: "platforms"))
    var platforms: String?

    @Option(name: .customLong("display-gamut"), help: ArgumentHelp("An asset catalog's image slots: srgb (one image per scale, in the scene's colour space), p3 (one, in Display P3) or both (an sRGB and a Display P3 image per scale). Default: srgb.", valueName: "gamut"))
    var displayGamut: DisplayGamut?

    @Option(help: ArgumentHelp("Also write an Android resource folder: drawable-{mdpi…xxxhdpi}/NAME.png per scene; for an app icon mipmap-*/ic_launcher.png and an adaptive icon from its background, foreground and monochrome groups.", valueName: "res"))
    var android: String?

    @Flag(name: .customLong("icon-composer"), help: "Also write each app icon as an Icon Composer bundle, NAME.icon (icon.json and an SVG per layer group), beside its other outputs in --out-dir.")
    var iconComposer = false

    @Flag(name: .customLong("android-vectors"), help: "With --android: each scene a VectorDrawable can express as drawable/NAME.xml (the others as PNG densities, with a warning saying why), an app icon's adaptive layers as drawable/ic_launcher_*.xml.")
    var androidVectors = false

    @Option(name: .customLong("android-monochrome"), help: ArgumentHelp("With --android: none (the default) or auto, which makes an app icon's themed (monochrome) layer from its foreground's coverage in one colour when it has no monochrome group.", valueName: "mode"))
    var androidMonochrome: AndroidMonochrome?

    @Option(name: .customLong("android-format"), help: ArgumentHelp("With --android: png (the default) or webp, every drawable and mipmap picture as a lossless WebP (the PNG's pixels).", valueName: "format"))
    var androidFormat: String?

    var platformList: [IconPlatform] {
        (platforms ?? "ios").split(separator: ",").compactMap { IconPlatform(rawValue: $0.trimmingSpaces) }
    }


    @Option(help: ArgumentHelp("Comma-separated locales (en,de,ja,ar): each scene that uses a key of --strings is rendered once per locale, into LOCALE/ (with --xcassets, as localized entries of its imageset).", valueName: "locales"))
    var locales: String?

    @Flag(name: .customLong("dry-run"), help: "Say what would be rendered and removed; write nothing.")
    var dryRun = false

    @Flag(name: .customLong("no-manifest"), help: "Write no .easel-build.json and read none: every scene is rendered and nothing removed (for build systems that track changes themselves, as Bazel does).")
    var noManifest = false

    @Flag(help: "After building, build again whenever a scene or a file it read changes; Ctrl-C stops.")
    var watch = false

    @OptionGroup var safety: SafetyOptions
    @OptionGroup var encoding: RasterEncodingOptions
    @OptionGroup var parameters: ParameterOptions
    @OptionGroup var fonts: FontOptions
    @OptionGroup var text: TextOptions
    @OptionGroup var diagnostics: DiagnosticsOptions

    var scaleList: [Double] { outputs.scaleList }
    var localeList: [String] {
        // `pt_BR` as Apple writes it is `pt-BR`: one folder name, and a `lang`.
        (locales ?? "").split(separator: ",").map { $0.trimmingSpaces.replacing("_", with: "-") }
            .filter { !$0.isEmpty }
    }
    /// `--formats`, png without it.
    var formatList: [OutputFormat] { outputs.formats == nil ? [.png] : outputs.formatList }

    func validate() throws {
        if let only = outputs.formatNames.first(where: OutputOptions.renderOnlyFormats.contains) {
            if only == "icon" { throw ValidationError("--formats icon is for render; a build writes app icons' Icon Composer bundles with --icon-composer") }
            throw ValidationError("--formats \(only) is for render; a build writes png, pdf, svg, vector-drawable, webp or avif (an app icon scene becomes an appiconset with --xcassets)")
        }
        if xcassets, let web = formatList.first(where: \.hasQuality) {
            throw ValidationError("--xcassets holds PNG or PDF images; Xcode's asset catalogs take no \(web.rawValue): build it with another --out-dir")
        }
        if let androidFormat {
            guard androidFormat == "png" || androidFormat == "webp" else {
                throw ValidationError("--android-format takes png or webp, not '\(androidFormat)'")
            }
            if android == nil { throw ValidationError("--android-format chooses an Android resource folder's pictures: add --android RES") }
        }
        // --quality: for the WebP and AVIF files of --out-dir (Android's WebP
        // is lossless); without any output folder that is said below.
        if encoding.quality != nil, output == nil, android != nil {
            throw ValidationError("--quality is for WebP and AVIF output in --out-dir; an Android resource folder's WebP is lossless")
        }
        if output != nil { try encoding.checkQuality(formats: formatList.map(\.rawValue)) }
        if xcassets, formatList.contains(.svg) || formatList.contains(.vectorDrawable) || Set(formatList).count > 1 {
            throw ValidationError("--xcassets takes --formats png (one image per scale) or pdf (a vector imageset)")
        }
        if let locales {
            // Folder names must differ on a file system that ignores case (macOS's).
            guard !localeList.isEmpty, localeList.allSatisfy(TextOptions.isLocale),
                  Set(localeList.map { $0.lowercased() }).count == localeList.count else {
                throw ValidationError("--locales takes distinct locales separated by commas (en,de,ja,ar), not '\(locales)'")
            }
            guard !text.stringFiles.isEmpty else { throw ValidationError("--locales needs the string tables to read: --strings FILE") }
            if text.locale != nil { throw ValidationError("--locale and --locales: give one or the other") }
        }
        if output == nil && android == nil { throw ValidationError("give an output folder with --out-dir DIR, or --android RES") }
        if let platforms {
            let names = platforms.split(separator: ",", omittingEmptySubsequences: false)
            guard !names.isEmpty, names.count == platformList.count, Set(platformList).count == names.count else {
                throw ValidationError("--platforms takes ios, macos or both, separated by commas, not '\(platforms)'")
            }
            if !xcassets { throw ValidationError("--platforms chooses an asset catalog's app icon sizes: add --xcassets") }
        }
        if let android {
            if output.map({ URL(fileURLWithPath: $0).standardizedFileURL == URL(fileURLWithPath: android).standardizedFileURL }) == true {
                throw ValidationError("--android and --out-dir must be different folders")
            }
            if outputs.formats != nil && output == nil { throw ValidationError("--formats is for --out-dir; an Android resource folder holds PNGs (or WebP: --android-format webp)") }
            if outputs.scales != nil && output == nil { throw ValidationError("--scales is for --out-dir; an Android resource folder has its five densities") }
        }
        if iconComposer, output == nil { throw ValidationError("--icon-composer writes NAME.icon beside the other outputs: add --out-dir DIR") }
        if iconComposer, xcassets { throw ValidationError("--icon-composer writes NAME.icon, which goes beside an asset catalog, not in it: build it with another --out-dir") }
        if android == nil, androidVectors { throw ValidationError("--android-vectors writes into an Android resource folder: add --android RES") }
        if android == nil, androidMonochrome != nil { throw ValidationError("--android-monochrome makes an Android adaptive icon's layer: add --android RES") }
        if noManifest && watch { throw ValidationError("--watch rebuilds what changed, which the manifest records: drop --no-manifest") }
        if displayGamut != nil && !xcassets { throw ValidationError("--display-gamut chooses an asset catalog's image slots: add --xcassets") }
        if xcassets && output == nil { throw ValidationError("--xcassets needs the catalog's folder: --out-dir NAME.xcassets") }
        var isFolder = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), isFolder else {
            throw ValidationError("'\(source)' is not a folder")
        }
    }

    func run() throws {
        try withDiagnostics(diagnostics.start()) { try buildOnceOrWatch() }
    }

    private func buildOnceOrWatch() throws {
        guard watch else {
            try buildOnce()
            return
        }
        // Ctrl-C ends a watch with 130 like every command (outputs are
        // written atomically, the manifest last: nothing is left half-done).
        guard let watcher = FolderWatcher(quiet: 0.1) else {
            StandardStreams.error("easel: error: cannot watch '\(source)' for changes\n")
            throw ExitCode(1)
        }
        // The parameter and string files' folders too: their values are inputs.
        let watched = [source] + (parameters.inputFiles + text.inputFiles).map { $0.deletingLastPathComponent }
        // Watching from before the first build: an edit made during it is queued.
        watcher.watch(watched)
        while true {
            // Folders created since, and those of files read outside the source.
            // A failed build is reported and the watch goes on; only an
            // error it did not report yet (ExitCode: it did) is printed here.
            var folders = watched
            do { folders += try buildOnce() } catch is ExitCode {
                // Ctrl-C during a build of the watch: the build recorded what
                // it finished, and the watch ends as every command does.
                if AtomicFile.isInterrupted { throw ExitCode(130) }
            } catch {
                StandardStreams.error("easel: error: \(error)\n")
            }
            watcher.watch(folders)
            say("easel build: watching \(source) for changes (Ctrl-C stops)")
            // Any change (or events the kernel dropped) starts a build,
            // which compares every input by content: nothing is missed.
            guard watcher.waitForChanges() != nil else {
                StandardStreams.error("easel: error: cannot watch '\(source)' for changes\n")
                throw ExitCode(1)
            }
        }
    }

    /// One build (into --out-dir, then --android); returns the folders of
    /// the files the scenes read outside the source.
    @discardableResult
    func buildOnce() throws -> [String] {
        let start = Date()
        var base = AssetBuild.Options(source: URL(fileURLWithPath: source), output: URL(fileURLWithPath: "."))
        base.scales = scaleList
        base.formats = formatList
        base.jobs = ParallelJobs.jobs(asked: jobs)
        base.platforms = platformList
        base.androidVectors = androidVectors
        base.iconComposer = iconComposer
        base.androidMonochrome = androidMonochrome ?? .none
        base.androidFormat = androidFormat == "webp" ? .webp : .png
        base.displayGamut = displayGamut ?? .srgb
        base.dryRun = dryRun
        base.usesManifest = !noManifest
        // A build is what ships: a character no font has stops it, unless told otherwise.
        base.compile = try text.applied(to: parameters.applied(to: fonts.applied(to: encoding.applied(to: safety.options()), missingGlyphs: .error)))
        base.sourceName = source
        base.locales = localeList
        let targets = [output.map { ($0, false) }, android.map { ($0, true) }].compactMap { $0 }
        // On a terminal one progress line rewritten in place; in a pipe or
        // CI one line per scene as it finishes.
        let terminal = isatty(1) == 1 && StandardStreams.capture == nil
        let verb = dryRun ? "would render" : "rendered"
        var rendered = Set<String>(), failed = Set<String>(), notStarted = Set<String>(), removed: [String] = [], scenes = Set<String>()
        var buildFailed = false
        var dependencies: [(outputs: [String], inputs: [String])] = []
        var declared = Set<String>()
        var said = Set<Diagnostic.Identity>()
        for (folder, isAndroid) in targets {
            var options = base
            options.output = URL(fileURLWithPath: folder)
            options.xcassets = xcassets && !isAndroid
            options.android = isAndroid
            // An Android folder's WebP is lossless, whatever --quality says of --out-dir's.
            if isAndroid { options.compile.quality = nil }
            // With two outputs each line says which.
            let label = targets.count > 1 ? " → \(folder)" : ""
            let begun = Date()
            // Said from the build's threads: into this command's capture (a worker's response) too.
            let capture = StandardStreams.capture
            options.progress = { scene, ok, done, total in
                StandardStreams.$capture.withValue(capture) {
                    if terminal {
                        // The time left at the pace so far.
                        let left = Date().timeIntervalSince(begun) / Double(done) * Double(total - done)
                        StandardStreams.output("\r\u{1B}[K[\(done)/\(total)] \(scene)\(label), about \(Int(left.rounded())) s left")
                    } else {
                        say("\(ok ? verb : "failed") \(scene)\(label)")
                    }
                }
            }
            options.waiting = {
                StandardStreams.$capture.withValue(capture) {
                    StandardStreams.error("easel build: waiting for another build of '\(folder)' to finish\n")
                }
            }
            if !dryRun { try createFolder(folder) }
            // From a terminal, the first Ctrl-C lets the scenes under way
            // finish and be recorded (a worker's requests end with their process).
            let result = capture == nil ? AtomicFile.deferringInterrupts { AssetBuild.run(options) } : AssetBuild.run(options)
            report(result.warnings + result.errors, input: folder)
            buildFailed = buildFailed || !result.errors.isEmpty
            for (scene, diagnostics) in result.diagnostics {
                // A scene's own errors and warnings are said once, whichever output found them.
                report(diagnostics.filter { said.insert($0.identity).inserted }, input: source.appendingPathComponent(scene))
            }
            if terminal && !result.rendered.isEmpty { StandardStreams.output("\r\u{1B}[K") }
            if dryRun { for scene in result.rendered { say("\(verb) \(scene)\(label)") } }
            for file in result.removed { say("\(dryRun ? "would remove" : "removed") \(targets.count > 1 ? folder.appendingPathComponent(file) : file)") }
            rendered.formUnion(result.rendered)
            failed.formUnion(result.failed)
            notStarted.formUnion(result.notStarted)
            if result.interrupted { break }
            removed += result.removed
            scenes.formUnion(result.rendered + result.upToDate + result.failed)
            dependencies += result.dependencies
            declared.formUnion(result.declaredParameters)
        }
        var depfileWritten = true
        // An interrupted build's depfile would lack the scenes not started.
        if let depfile, !dryRun, !AtomicFile.isInterrupted {
            let rules = dependencies.map { ($0.outputs, $0.inputs + parameters.inputFiles + text.inputFiles) }
            depfileWritten = EaselCommandLineTool.writeDepfile(depfile, rules)
        }
        // Each --set goes to the scenes that declare it; one that none of the
        // scenes compiled now declares is most likely misspelt.
        if !rendered.isEmpty, !dryRun {
            for name in base.compile.parameters.keys.sorted() where !declared.contains(name) {
                report([Diagnostic(.warning, .unusedSetting(name), at: nil)], input: source)
            }
        }
        let seconds = CFormat.string("%.2f", Date().timeIntervalSince(start))
        if AtomicFile.isInterrupted {
            say("easel build: interrupted: \(rendered.subtracting(failed).count) \(verb) and recorded, \(notStarted.count) not started, "
                  + "\(failed.count) failed (\(seconds) s)")
            throw ExitCode(130)
        }
        let upToDate = scenes.subtracting(rendered).subtracting(failed).count
        if rendered.isEmpty && removed.isEmpty && failed.isEmpty && !buildFailed {
            say("easel build: nothing to do, \(upToDate) up to date (\(seconds) s)")
        } else if rendered.isEmpty && removed.isEmpty && failed.isEmpty {
            // An error of the build's own (a folder it could not read) said above.
            say("easel build: failed (errors above), \(upToDate) up to date (\(seconds) s)")
        } else {
            say("easel build: \(rendered.subtracting(failed).count) \(verb), \(upToDate) up to date, "
                  + "\(failed.count) failed, \(removed.count) removed (\(seconds) s)")
        }
        let sourcePath = URL(fileURLWithPath: source).standardizedFileURL.resolvingSymlinksInPath().path
        let outside = Set(dependencies.flatMap(\.inputs).map { $0.deletingLastPathComponent }
            .filter { !$0.hasPrefix(sourcePath) })
        if (!failed.isEmpty || !depfileWritten || buildFailed) && !watch { throw ExitCode(1) }
        return outside.sorted()
    }
}
