import Easel
import Foundation

/// One previewed scene: its settings, its last good picture, and the
/// renders that keep them current.
///
/// Renders run on this scene's own serial queue, never on a request's task:
/// a scene that takes seconds does not hold up the server or other scenes.
/// At most one render is in flight; edits that arrive meanwhile collapse
/// into one more render of the newest state when it finishes.
final class PreviewScene: @unchecked Sendable {
    let index: Int
    /// As the user typed it: how messages name the scene.
    let path: String
    /// Absolute, symlinks resolved: how file events name it.
    let resolvedPath: String
    private let options: Easel.Options
    private let queue: DispatchQueue
    /// Shared by all scenes: renders at once at most as many as cores.
    private let renderSlots: DispatchSemaphore
    /// Called after each render with the new state and the folders to watch.
    private let onUpdate: @Sendable (SceneSnapshot, [String]) -> Void

    private let lock = NSLock()
    private var snapshot: SceneSnapshot
    /// The last good picture, in `format`.
    private var png: [UInt8] = []
    private var format = OutputFormat.png
    private var layout = "{}"
    private var filesRead: Set<String> = []
    private var isRendering = false
    private var isStale = false

    init(index: Int, path: String, run: String, options: Easel.Options, scale: Double, renderSlots: DispatchSemaphore,
         onUpdate: @escaping @Sendable (SceneSnapshot, [String]) -> Void) {
        self.renderSlots = renderSlots
        self.index = index
        self.path = path
        resolvedPath = URL(fileURLWithPath: path).standardizedFileURL.resolvingSymlinksInPath().path
        self.options = options
        self.onUpdate = onUpdate
        queue = DispatchQueue(label: "easel.preview.scene\(index)")
        snapshot = SceneSnapshot(scene: index, name: path, run: run,
                                 settings: PreviewSettings(scale: scale, appearance: options.appearance.rawValue))
        snapshot.settings.locale = options.locale
        // The string tables' locales and `--locale` (a chart without string
        // tables can still be seen in its locale's number and date labels),
        // then the pseudo-locales.
        var locales = options.strings?.locales ?? []
        if let given = options.locale, PseudoLocale(rawValue: given) == nil, !locales.contains(given) { locales = (locales + [given]).sorted() }
        snapshot.locales = locales + PseudoLocale.allCases.map(\.rawValue)
    }

    var state: SceneSnapshot { lock.withLock { snapshot } }
    /// The last good picture and its format (the page's format switch:
    /// PNG, WebP or AVIF); empty until one rendered.
    var picture: (bytes: [UInt8], format: OutputFormat) { lock.withLock { (png, format) } }
    /// `easel layout`'s JSON of the last good picture.
    var layoutJSON: String { lock.withLock { layout } }

    /// The files whose change means a new render: the scene, everything its
    /// last compile read, any file in a `--font-dir` (a font added there can
    /// change its text), and — while it has errors — anything in its folder
    /// (the file it is missing may appear).
    func isAffected(by changed: Set<String>) -> Bool {
        lock.withLock {
            if changed.contains(resolvedPath) || !changed.isDisjoint(with: filesRead) { return true }
            if !changed.isDisjoint(with: stringFiles) {
                stringsChanged = true
                return true
            }
            if changed.contains(where: { path in fontFolders.contains { path.hasPrefix($0 + "/") } }) { return true }
            guard !snapshot.ok else { return false }
            let folder = (resolvedPath as NSString).deletingLastPathComponent
            return changed.contains { ($0 as NSString).deletingLastPathComponent == folder }
        }
    }

    /// Folders to watch: the scene's, those of the files it read, and the
    /// `--font-dir` folders.
    var watchedFolders: [String] {
        lock.withLock {
            Array(Set(([resolvedPath] + filesRead + stringFiles).map { ($0 as NSString).deletingLastPathComponent } + fontFolders)).sorted()
        }
    }

    /// The `--strings` tables, read again when one changes (an edited
    /// translation shows at once).
    private var stringFiles: [String] { options.strings?.files ?? [] }
    private var strings: LocalizedStrings?
    private var stringsChanged = false

    /// The `--font-dir` folders, symlinks resolved as inotify reports paths.
    private var fontFolders: [String] {
        options.fontDirectories.map { $0.standardizedFileURL.resolvingSymlinksInPath().path }
    }

    /// New settings from a page; renders with them.
    func update(_ settings: PreviewSettings) {
        lock.withLock { snapshot.settings = settings }
        requestRender()
    }

    /// Renders the newest state soon: now if nothing is rendering, else once
    /// the render in flight finishes.
    func requestRender() {
        let start: Bool = lock.withLock {
            isStale = true
            guard !isRendering else { return false }
            isRendering = true
            return true
        }
        if start { queue.async { self.renderUntilCurrent() } }
    }

    private func renderUntilCurrent() {
        while true {
            let settings: PreviewSettings = lock.withLock {
                isStale = false
                snapshot.rendering = true
                return snapshot.settings
            }
            renderSlots.wait()
            let outcome = render(with: settings)
            renderSlots.signal()
            let (current, again): (SceneSnapshot, Bool) = lock.withLock {
                apply(outcome, settings: settings)
                if !isStale {
                    isRendering = false
                    snapshot.rendering = false
                }
                return (snapshot, isStale)
            }
            onUpdate(current, watchedFolders)
            if !again { return }
        }
    }

    private struct Outcome {
        var diagnostics: [Diagnostic]
        var filesRead: [String]
        var milliseconds: Double
        var png: [UInt8]?
        var format = OutputFormat.png
        var pixelSize = (width: 0, height: 0)
        var layout: String?
        var scene: Scene?
        var duration: Double?
    }

    private func render(with settings: PreviewSettings) -> Outcome {
        TestPause.at(.render, path)
        var options = self.options
        options.scale = settings.scale
        options.paintsAboveScales = false
        options.appearance = Appearance(rawValue: settings.appearance) ?? .light
        if lock.withLock({ stringsChanged }) {
            switch Easel.readStrings(stringFiles) {
            case .success(let read):
                lock.withLock {
                    strings = read
                    stringsChanged = false
                }
            case .failure(let error):
                // The files the last good compile read stay watched.
                return Outcome(diagnostics: error.diagnostics, filesRead: Array(lock.withLock { filesRead }), milliseconds: 0)
            }
        }
        if let current = lock.withLock({ strings }) { options.strings = current }
        if let space = settings.colorSpace.flatMap(SceneColorSpace.init(rawValue:)) { options.colorSpace = space }
        // Only a locale the page offers (or none: the command line's).
        if let locale = settings.locale, lock.withLock({ snapshot.locales.contains(locale) }) { options.locale = locale }
        // Only the names the scene declared when the page offered the fields:
        // a field left over from an older version of the scene is dropped.
        let declared = Set(lock.withLock { snapshot.parameters.map(\.name) })
        for (name, value) in settings.parameters where declared.contains(name) {
            options.parameters[name] = ParameterSetting(value, from: .file("the preview page"))
        }
        let clock = ContinuousClock()
        let begun = clock.now
        var session = CompileSession(options: options)
        var outcome = Outcome(diagnostics: [], filesRead: [], milliseconds: 0)
        if let compiled = session.compile(fileAt: URL(fileURLWithPath: path), displayPath: path) {
            var png: [UInt8]?
            var layout = ""
            let format = settings.format.flatMap(OutputFormat.init(rawValue:)) ?? .png
            var encoded = compiled
            encoded.quality = settings.quality
            if session.run({
                png = try encoded.render(format: format, scale: settings.scale, time: settings.time)
                outcome.format = format
                outcome.pixelSize = SceneRenderer.pixelSize(of: compiled.renderTree, scale: settings.scale)
                layout = try compiled.layoutJSON()
            }) {
                outcome.png = png
                outcome.layout = layout
                outcome.scene = compiled.scene
                outcome.duration = compiled.duration
            }
        }
        let elapsed = clock.now - begun
        outcome.milliseconds = Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
        outcome.diagnostics = session.diagnostics
        outcome.filesRead = session.pathsRead
        return outcome
    }

    /// Called with the lock held.
    private func apply(_ outcome: Outcome, settings: PreviewSettings) {
        snapshot.version += 1
        snapshot.diagnostics = outcome.diagnostics.map { SceneSnapshot.Message($0, scenePath: path) }
        snapshot.renderMilliseconds = (outcome.milliseconds * 10).rounded() / 10
        if !outcome.filesRead.isEmpty { filesRead = Set(outcome.filesRead) }
        guard let png = outcome.png, let scene = outcome.scene, let layout = outcome.layout else {
            snapshot.ok = false
            return
        }
        snapshot.ok = true
        self.png = png
        self.layout = layout
        self.format = outcome.format
        snapshot.picture = .init(version: snapshot.version,
                                 pixelWidth: outcome.pixelSize.width, pixelHeight: outcome.pixelSize.height,
                                 width: scene.width, height: scene.height, format: outcome.format.rawValue, bytes: png.count)
        snapshot.parameters = scene.parameters.map {
            .init(name: $0.name, type: $0.type.rawValue, defaultValue: $0.defaultValue, value: $0.value)
        }
        snapshot.hasDark = scene.definitions.paletteColors.contains { $0.dark != nil }
        snapshot.colorSpace = scene.colorSpace.rawValue
        snapshot.duration = outcome.duration
    }

}
