import ArgumentParser
import Easel
import EaselCommandLine
import FoundationEssentials
import Glibc

/// What `easel render` was asked to do, as plain values. `Render` builds
/// one from ArgumentParser's parse; the form build tools run once per
/// scene, `render SCENE -o OUT [--scale S] [--depfile D]`, is read by
/// `init?(plainArguments:)` without ArgumentParser, whose parse finds each
/// argument's type by reflection: the Swift runtime then scans every
/// conformance record of the binary, about 21 million instructions, more
/// than the rest of a small render.
struct RenderJob: Sendable {
    var inputs: [String]
    var output: String?
    var outDir: String?
    var scale: Double?
    /// `--formats` as given, split at commas; empty when not given.
    var formatNames: [String] = []
    var scaleList: [Double] = []
    var jobs: Int?
    var depfile: String?
    var time: Double?
    var fps: Double?
    var variant: String?
    var layer: String?
    var diagnosticsFormat = DiagnosticsFormat.text
    /// The compile's options for a scale (or scales): made when the run
    /// needs them, so that an unreadable string table is reported after
    /// the usage errors found first.
    var makeOptions: @Sendable (_ scale: Double?, _ scales: [Double]) throws -> Easel.Options
    /// Parameter and string files: every output depends on them (depfiles).
    var inputFiles: [String] = []

    func compileOptions(scale: Double?, scales: [Double] = []) throws -> Easel.Options {
        try makeOptions(scale, scales)
    }

    /// An animated PNG was asked for by name or format.
    var wantsAPNG: Bool { Self.wantsAPNG(formatNames: formatNames, output: output) }

    static func wantsAPNG(formatNames: [String], output: String?) -> Bool {
        formatNames.contains("apng") || output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() == "apng" } == true
    }

    /// An icon file was asked for, by name or format.
    var iconKind: IconFileKind? { Self.iconKind(formatNames: formatNames, output: output) }

    /// An Icon Composer bundle was asked for, by name (`NAME.icon`) or format (`icon`).
    static func wantsIconComposer(formatNames: [String], output: String?) -> Bool {
        formatNames.contains("icon") || output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() == "icon" } == true
    }

    static func iconKind(formatNames: [String], output: String?) -> IconFileKind? {
        if let named = formatNames.lazy.compactMap(IconFileKind.init(rawValue:)).first { return named }
        return output.flatMap { IconFileKind(fileExtension: URL(fileURLWithPath: $0).pathExtension) }
    }

    /// One loop for every kind of output: each scene compiles once in its
    /// own session, on up to -j threads, and writes its outputs
    /// (`outputs(for:)`); diagnostics are printed in input order, whatever
    /// finished first; then the depfile.
    func run() throws {
        try withDiagnostics(DiagnosticsOutput(format: diagnosticsFormat)) { try renderAll() }
    }

    private func renderAll() throws {
        try refuseCollisions { input in outputs(for: input).map(\.claimedPath) }
        try createOutputFolder()
        var compileOptions = try compileOptions(scale: scale, scales: producesStills ? scaleList : [])
        // Icon files paint at their sizes' scales; every other output at
        // the scales given (or the scene's).
        compileOptions.paintsAboveScales = iconKind != nil
        let options = compileOptions
        if let output { try createFolder(URL(fileURLWithPath: output).deletingLastPathComponent().path) }
        let results = ParallelJobs.map(inputs, jobs: ParallelJobs.jobs(asked: jobs)) { input -> (CompileSession, [String]) in
            var (session, compiled) = compile(input, options)
            guard let compiled else { return (session, []) }
            var written: [String] = []
            // The scene again as a variant, with one top-level group.
            let again = { (variant: String?, layer: String?) throws -> CompiledScene in
                var o = options
                o.variant = variant
                o.layer = layer
                let (s, c) = EaselCommands.compile(input, o)
                guard let c else { throw DiagnosticsError(s.diagnostics.filter { $0.severity == .error }) }
                return c
            }
            for output in outputs(for: input) {
                session.run { written += try output.write(compiled, time: time, compile: again) }
            }
            if outputs(for: input).contains(where: \.isAnimatedSVG), time == nil, let warning = compiled.stillSVGAnimationWarning {
                session.report([warning])
            }
            if outputs(for: input).contains(where: \.isVectorDrawable), let warning = compiled.vectorDrawableGamutWarning {
                session.report([warning])
            }
            return (session, session.hasErrors ? [] : written)
        }
        let sessions = results.map(\.0)
        for (input, session) in zip(inputs, sessions) { report(session.diagnostics, input: input) }
        let depfileWritten = writeDepfile(sessions, outputs: results.map(\.1))
        if let status = failureStatus(sessions) { throw status }
        if !depfileWritten { throw ExitCode(1) }
    }

    /// Still images in PNG, PDF or SVG (not an animation, not icon files).
    var producesStills: Bool { iconKind == nil && fps == nil && !wantsAPNG }

    /// What one scene writes.
    func outputs(for input: String) -> [RenderOutput] {
        let name = String(OutputName.file(OutputName.base(ofScene: input), variant: variant, extension: "png").dropLast(4))
        if Self.wantsIconComposer(formatNames: formatNames, output: output) {
            if let output { return [.iconComposer(URL(fileURLWithPath: output))] }
            return [.iconComposer(URL(fileURLWithPath: outDir!).appendingPathComponent(
                OutputName.file(OutputName.base(ofScene: input), variant: variant, extension: "icon")))]
        }
        if let icon = iconKind {
            if let output { return [.icon(URL(fileURLWithPath: output), icon)] }
            return [.icon(URL(fileURLWithPath: outDir!).appendingPathComponent(
                OutputName.file(OutputName.base(ofScene: input), variant: variant, extension: icon.rawValue)), icon)]
        }
        if fps != nil || wantsAPNG {
            let rate = fps ?? 30
            let webp = !wantsAPNG && (formatNames == ["webp"] || output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() == "webp" } == true)
            let format: OutputFormat = webp ? .webp : .png
            if let output { return [.animation(URL(fileURLWithPath: output), fps: rate, format: format)] }
            if wantsAPNG { return [.animation(URL(fileURLWithPath: outDir!).appendingPathComponent(name + ".apng"), fps: rate, format: .png)] }
            if webp { return [.animation(URL(fileURLWithPath: outDir!).appendingPathComponent(name + ".webp"), fps: rate, format: .webp)] }
            return [.frames(folder: URL(fileURLWithPath: outDir!), name: name, fps: rate)]
        }
        let formats = !formatNames.isEmpty ? formatNames.compactMap(OutputFormat.init(rawValue:))
            : [output.flatMap { OutputFormat(fileExtension: URL(fileURLWithPath: $0).pathExtension) } ?? .png]
        let plan = OutputPlan(output: output, outDir: outDir, formats: formats, scales: scaleList, variant: variant)
        return plan.outputs(for: input).map { .still($0.url, $0.format, scale: $0.scale) }
    }
}

/// One file (or, for frames, one numbered series) a render writes.
enum RenderOutput: Sendable {
    case still(URL, OutputFormat, scale: Double?)
    /// An animated PNG, or (`format` webp) an animated WebP.
    case animation(URL, fps: Double, format: OutputFormat)
    /// `NAME-0000.png`, `NAME-0001.png`… in the folder.
    case frames(folder: URL, name: String, fps: Double)
    case icon(URL, IconFileKind)
    /// An Icon Composer bundle (a folder).
    case iconComposer(URL)

    /// The path two scenes must not both write (frames: the series' pattern).
    var claimedPath: String {
        switch self {
        case .still(let url, _, _), .animation(let url, _, _), .icon(let url, _), .iconComposer(let url): return url.path
        case .frames(let folder, let name, _): return folder.appendingPathComponent(name + "-NNNN.png").path
        }
    }

    var isVectorDrawable: Bool {
        if case .still(_, .vectorDrawable, _) = self { return true }
        return false
    }

    var isAnimatedSVG: Bool {
        if case .still(_, .svg, _) = self { return true }
        return false
    }

    /// Renders and writes it atomically; the paths written. `compile`
    /// compiles the scene again as a variant, with one top-level group
    /// (what an Icon Composer bundle's appearances and layers need).
    func write(_ compiled: CompiledScene, time: Double?,
               compile: (_ variant: String?, _ layer: String?) throws -> CompiledScene) throws -> [String] {
        switch self {
        case .still(let url, let format, let scale):
            try compiled.write(to: url, format: format, scale: scale, time: time)
            return [url.path]
        case .animation(let url, let fps, let format):
            try AtomicFile.write(format == .webp ? try compiled.renderAnimatedWebP(fps: fps) : try compiled.renderAnimatedPNG(fps: fps), to: url)
            return [url.path]
        case .frames(let folder, let name, let fps):
            var written: [String] = []
            for (k, png) in try compiled.renderFrames(fps: fps).enumerated() {
                let number = String(k).count >= 4 ? String(k) : String(repeating: "0", count: 4 - String(k).count) + String(k)
                let url = folder.appendingPathComponent("\(name)-\(number).png")
                try AtomicFile.write(png, to: url)
                written.append(url.path)
            }
            return written
        case .icon(let url, let kind):
            try AtomicFile.write(try compiled.renderIconFile(kind), to: url)
            return [url.path]
        case .iconComposer(let url):
            let files = try IconComposerBundle.files(for: compiled, compile: compile)
            try AtomicFile.writeBundle(files, to: url)
            return [url.path]
        }
    }
}

extension RenderJob {
    /// `render SCENE -o OUT` with at most `--scale S` and `--depfile D`
    /// besides, in any order, each once, OUT named .png, .pdf or .svg: the
    /// job with every other option at its default. Nil for anything else
    /// (another option, a second scene, `--output=OUT`, a value that starts
    /// with `-` or is out of range): ArgumentParser then reads the line, and
    /// its help, errors and completions stay the only ones.
    init?(plainArguments arguments: [String]) {
        guard arguments.first == "render" else { return nil }
        var values: [String: String] = [:]
        var scene: String?
        var rest = arguments.dropFirst()
        while let word = rest.popFirst() {
            if word.hasPrefix("-") {
                let name = word == "--output" ? "-o" : word
                guard ["-o", "--scale", "--depfile"].contains(name), values[name] == nil,
                      let value = rest.popFirst(), !value.hasPrefix("-") else { return nil }
                values[name] = value
            } else {
                // `help` is ArgumentParser's word for the command's help.
                guard scene == nil, word != "help" else { return nil }
                scene = word
            }
        }
        guard let scene, let output = values["-o"],
              OutputFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) != nil else { return nil }
        var scale: Double?
        if let text = values["--scale"] {
            guard let value = Double(text), ScaleOption.isValid(value) else { return nil }
            scale = value
        }
        self.init(inputs: [scene], output: output, scale: scale, depfile: values["--depfile"],
                  makeOptions: { scale, scales in
                      var options = Easel.Options(scale: scale, scales: scales)
                      options.hashesFilesRead = false
                      return options
                  })
    }
}


extension RenderJob {
    /// `--out-dir`, created if missing.
    func createOutputFolder() throws {
        if let outDir { try createFolder(outDir) }
    }

    /// Two inputs that would write one path (`a/card.scene.xml` and
    /// `b/card.scene.xml` into one `--out-dir`) are a usage error, found
    /// before anything is rendered: otherwise one output would be lost
    /// without a word, which one depending on -j.
    func refuseCollisions(_ paths: (String) -> [String]) throws {
        var writer: [String: String] = [:]
        // Each collision is reported at the scene that would overwrite, not
        // at the first input (which may have nothing to do with it).
        var found: [(input: String, diagnostic: Diagnostic)] = []
        // An output that is one of the scenes (`-o card.scene.xml`, `--out-dir .`
        // beside `card.xml`): by path, or by file for links to it.
        let inputPaths = Set(inputs.map { URL(fileURLWithPath: $0).standardizedFileURL.path })
        let inputFiles = Set(inputs.compactMap(Self.fileIdentity))
        for input in inputs {
            for path in paths(input) where inputPaths.contains(URL(fileURLWithPath: path).standardizedFileURL.path)
                || Self.fileIdentity(path).map(inputFiles.contains) == true {
                found.append((input, Diagnostic(.error, .outputIsAnInput(path), at: nil)))
            }
        }
        for input in inputs {
            for path in Set(paths(input).map { URL(fileURLWithPath: $0).standardizedFileURL.path }).sorted() {
                if let first = writer[path], first != input {
                    found.append((input, Diagnostic(.error, .outputCollision(path, first, input), at: nil)))
                } else {
                    writer[path] = input
                }
            }
        }
        guard !found.isEmpty else { return }
        for (input, diagnostic) in found { report([diagnostic], input: input) }
        throw failureStatus(found.map(\.diagnostic)) ?? ExitCode(2)
    }

    /// The device and inode of an existing file, nil if there is none.
    static func fileIdentity(_ path: String) -> [UInt64]? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return [UInt64(info.st_dev), UInt64(info.st_ino)]
    }

    /// `--depfile`, one rule per scene that compiled: what it wrote and
    /// every file it read. False (after reporting why) if it cannot be written.
    func writeDepfile(_ sessions: [CompileSession], outputs: [[String]]) -> Bool {
        guard let depfile else { return true }
        let rules = zip(sessions, outputs).filter { !$1.isEmpty }.map { session, written in
            (written, session.pathsRead + inputFiles)
        }
        return EaselCommandLineTool.writeDepfile(depfile, rules)
    }
}
