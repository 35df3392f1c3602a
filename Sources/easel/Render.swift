import ArgumentParser
import Easel
import EaselCommandLine
import FoundationEssentials

struct Render: ParsableCommand {
    // Named here: ArgumentParser would otherwise derive the name from the
    // type's name at start-up, demangling it (about a million instructions).
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render scenes to PNG, PDF or SVG.",
        discussion: """
            Each output is written atomically: if anything fails, a previous file at that path is left as it was. \
            With --out-dir, scenes render on -j threads; with --scales, every scale comes from one compile and is \
            named as in asset catalogs (card.png, card@2x.png, card@3x.png).
            """)

    // Unrecognised options land here too, so that they are named as such
    // ("unknown option '--bogus'") rather than taken for scenes.
    @Argument(parsing: .allUnrecognized, help: "Scene files.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output file (one input).")
    var output: String?

    @Option(name: .customLong("out-dir"), help: "Output folder (any number of inputs); created if missing.")
    var outDir: String?

    @Option(help: "Pixels per point for PNG output (overrides the scene's scale).")
    var scale: Double?

    @OptionGroup var outputs: OutputOptions
    private var scales: String? { outputs.scales }
    private var format: String? { outputs.formats }
    private var formatNames: [String] { outputs.formatNames }
    private var jobs: Int? { outputs.jobs }
    private var depfile: String? { outputs.depfile }
    private var scaleList: [Double] { outputs.scaleList }

    @Option(help: "Seconds into the scene's animations: one still frame, in any format (default 0).")
    var time: Double?

    @Option(help: "Frames a second, at most 240: an animated PNG with -o (or -o NAME.apng, --format apng; 30 when not given), numbered frames NAME-0000.png… with --out-dir.")
    var fps: Double?

    /// An animated PNG was asked for by name or format.
    private var wantsAPNG: Bool {
        formatNames.contains("apng") || output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() == "apng" } == true
    }


    @Option(help: "Render the scene as its <variant> NAME (with --out-dir: NAME~VARIANT.png).")
    var variant: String?

    @Option(help: ArgumentHelp("Render only the scene's top-level element with this id (an adaptive icon's background, foreground or monochrome layer); the scene's background goes with the background layer.", valueName: "id"))
    var layer: String?

    /// An icon file was asked for, by name or format.
    private var iconKind: IconFileKind? {
        if let named = formatNames.lazy.compactMap(IconFileKind.init(rawValue:)).first { return named }
        return output.flatMap { IconFileKind(fileExtension: URL(fileURLWithPath: $0).pathExtension) }
    }

    @OptionGroup var safety: SafetyOptions
    @OptionGroup var encoding: PNGEncodingOptions
    @OptionGroup var parameters: ParameterOptions
    @OptionGroup var fonts: FontOptions
    @OptionGroup var text: TextOptions
    @OptionGroup var diagnostics: DiagnosticsOptions

    /// The compile's options, from every option group.
    private func compileOptions(scale: Double?, scales: [Double] = []) throws -> Easel.Options {
        var options = try text.applied(to: parameters.applied(to: fonts.applied(to: encoding.applied(to: safety.options(scale: scale, scales: scales)))))
        options.variant = variant
        options.layer = layer
        return options
    }


    func validate() throws {
        if let unknown = inputs.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw ValidationError("unknown option '\(unknown)'")
        }
        if inputs.isEmpty { throw ValidationError("give at least one scene file") }
        if output == nil && outDir == nil { throw ValidationError("give an output with -o FILE or --out-dir DIR") }
        if output != nil && outDir != nil { throw ValidationError("give either -o or --out-dir, not both") }
        if output != nil && inputs.count > 1 { throw ValidationError("several inputs need --out-dir DIR") }
        if formatNames.count > 1 {
            if output != nil { throw ValidationError("-o writes one file: give one --format, or --out-dir for several") }
            if formatNames.contains("apng") { throw ValidationError("--format apng makes animated PNGs: give it alone") }
        }
        if let icon = iconKind {
            if formatNames.count > 1 { throw ValidationError("--format \(icon.rawValue) makes icon files: give it alone") }
            if fps != nil || wantsAPNG || time != nil || scale != nil || scales != nil {
                throw ValidationError("an \(icon.rawValue.uppercased()) file holds every size it needs at time 0: give none of --fps, --time, --scale, --scales")
            }
            if let output, let implied = IconFileKind(fileExtension: URL(fileURLWithPath: output).pathExtension), implied != icon {
                throw ValidationError("--format \(icon.rawValue) and the extension of '\(output)' disagree")
            }
            if let output, format != nil, IconFileKind(fileExtension: URL(fileURLWithPath: output).pathExtension) == nil {
                throw ValidationError("--format \(icon.rawValue) and the extension of '\(output)' disagree")
            }
            return
        }
        if let output, format == nil, !wantsAPNG, OutputFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) == nil {
            throw ValidationError("cannot tell the format of '\(output)' from its extension; add --format png|pdf|svg")
        }
        if let scale, !ScaleOption.isValid(scale) { throw ValidationError(ScaleOption.rangeMessage("--scale")) }
        if let output, let format, let implied = OutputFormat(fileExtension: URL(fileURLWithPath: output).pathExtension),
           implied.rawValue != format, !(format == "apng" && implied == .png) {
            throw ValidationError("--format \(format) and the extension of '\(output)' disagree")
        }
        if scales != nil {
            if outDir == nil { throw ValidationError("--scales needs --out-dir DIR") }
            if scale != nil { throw ValidationError("give either --scale or --scales, not both") }
        }
        if let time, !time.isFinite { throw ValidationError("--time must be a number of seconds") }
        if let fps, !(fps > 0 && fps <= 240) { throw ValidationError("--fps must be greater than 0 and at most 240") }
        if fps != nil || wantsAPNG {
            if time != nil { throw ValidationError("give either --time (one frame) or --fps (every frame), not both") }
            if scales != nil { throw ValidationError("--fps takes one --scale, not --scales") }
            if let vector = formatNames.first(where: { $0 == "pdf" || $0 == "svg" }) {
                throw ValidationError("--fps makes an animated PNG or PNG frames; use --time for a still \(vector)")
            }
            if let output, !wantsAPNG, URL(fileURLWithPath: output).pathExtension.lowercased() != "png" {
                throw ValidationError("--fps makes an animated PNG: name the output NAME.png or NAME.apng")
            }
        }
    }

    func run() throws {
        diagnosticsOutput = diagnostics.start()
        defer { diagnosticsOutput.finish() }
        if let icon = iconKind { return try runIconFiles(icon) }
        if fps != nil || wantsAPNG { return try runAnimation() }
        let formats = format != nil ? formatNames.compactMap(OutputFormat.init(rawValue:))
            : [output.flatMap { OutputFormat(fileExtension: URL(fileURLWithPath: $0).pathExtension) } ?? .png]
        let plan = OutputPlan(output: output, outDir: outDir, formats: formats, scales: scaleList, variant: variant)
        try refuseCollisions { plan.outputs(for: $0).map(\.url.path) }
        try createOutputFolder()
        let options = try compileOptions(scale: scale, scales: scaleList)
        if let output {
            try? FileManager.default.createDirectory(at: URL(fileURLWithPath: output).deletingLastPathComponent(),
                                                     withIntermediateDirectories: true)
        }
        // Every scene in its own session, on up to -j threads; diagnostics
        // are printed in input order, whatever finished first.
        let sessions = ParallelJobs.map(inputs, jobs: jobs ?? ParallelJobs.defaultJobs) { input -> CompileSession in
            var (session, compiled) = compile(input, options)
            guard let compiled else { return session }
            for (url, fmt, scale) in plan.outputs(for: input) {
                session.run { try compiled.write(to: url, format: fmt, scale: scale, time: time) }
                let still = fmt == .svg && time == nil ? SceneRenderer.animatedPaintsSVGCannotAnimate(in: compiled.layout) : 0
                if still > 0 {
                    session.report([Diagnostic(.warning, .stillSVGAnimation(still), at: nil)])
                }
            }
            return session
        }
        for (input, session) in zip(inputs, sessions) { report(session.diagnostics, input: input) }
        let written = zip(inputs, sessions).map { input, session in
            session.hasErrors ? [] : plan.outputs(for: input).map(\.url.path)
        }
        let depfileWritten = writeDepfile(sessions, outputs: written)
        if let status = failureStatus(sessions) { throw status }
        if !depfileWritten { throw ExitCode(1) }
    }
}

extension Render {
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
        var found: [Diagnostic] = []
        for input in inputs {
            for path in Set(paths(input).map { URL(fileURLWithPath: $0).standardizedFileURL.path }).sorted() {
                if let first = writer[path], first != input {
                    found.append(Diagnostic(.error, .outputCollision(path, first, input), at: nil))
                } else {
                    writer[path] = input
                }
            }
        }
        guard !found.isEmpty else { return }
        report(found, input: inputs[0])
        throw failureStatus(found) ?? ExitCode(2)
    }

    /// `--depfile`, one rule per scene that compiled: what it wrote and
    /// every file it read. False (after reporting why) if it cannot be written.
    func writeDepfile(_ sessions: [CompileSession], outputs: [[String]]) -> Bool {
        guard let depfile else { return true }
        let rules = zip(sessions, outputs).filter { !$1.isEmpty }.map { session, written in
            (written, session.pathsRead + parameters.inputFiles + text.inputFiles)
        }
        return EaselCommandLineTool.writeDepfile(depfile, rules)
    }

    /// `--fps`: an animated PNG per scene (`-o`, or `--out-dir` with
    /// `--format apng`), or numbered PNG frames in `--out-dir`.
    func runAnimation() throws {
        let rate = fps ?? 30
        // Frames are NAME-0000.png…: two scenes with one NAME would interleave them.
        try refuseCollisions { input in
            if let output { return [output] }
            let name = wantsAPNG ? OutputName.file(OutputName.base(ofScene: input), variant: variant, extension: "apng")
                : OutputName.file(OutputName.base(ofScene: input), variant: variant, extension: "png").dropLast(4) + "-NNNN.png"
            return [URL(fileURLWithPath: outDir!).appendingPathComponent(name).path]
        }
        try createOutputFolder()
        let options = try compileOptions(scale: scale)
        let results = ParallelJobs.map(inputs, jobs: jobs ?? ParallelJobs.defaultJobs) { input -> (CompileSession, [String]) in
            var (session, compiled) = compile(input, options)
            guard let compiled else { return (session, []) }
            // NAME~VARIANT.apng, or frames NAME~VARIANT-0000.png…
            let name = String(OutputName.file(OutputName.base(ofScene: input), variant: variant, extension: "png").dropLast(4))
            var written: [String] = []
            if let output {
                session.run { try AtomicFile.write(try compiled.renderAnimatedPNG(fps: rate), to: URL(fileURLWithPath: output)) }
                written = [output]
            } else if wantsAPNG {
                let url = URL(fileURLWithPath: outDir!).appendingPathComponent(name + ".apng")
                session.run { try AtomicFile.write(try compiled.renderAnimatedPNG(fps: rate), to: url) }
                written = [url.path]
            } else {
                session.run {
                    for (k, png) in try compiled.renderFrames(fps: rate).enumerated() {
                        let number = String(k).count >= 4 ? String(k) : String(repeating: "0", count: 4 - String(k).count) + String(k)
                        let url = URL(fileURLWithPath: outDir!).appendingPathComponent("\(name)-\(number).png")
                        try AtomicFile.write(png, to: url)
                        written.append(url.path)
                    }
                }
            }
            return (session, session.hasErrors ? [] : written)
        }
        let sessions = results.map(\.0)
        for (input, session) in zip(inputs, sessions) { report(session.diagnostics, input: input) }
        let depfileWritten = writeDepfile(sessions, outputs: results.map(\.1))
        if let status = failureStatus(sessions) { throw status }
        if !depfileWritten { throw ExitCode(1) }
    }
}

extension Render {
    /// `-o NAME.icns`/`.ico`, or `--out-dir` with `--format icns|ico`: an
    /// icon file per scene, each size painted from the scene.
    func runIconFiles(_ kind: IconFileKind) throws {
        @Sendable func target(_ input: String) -> URL {
            if let output { return URL(fileURLWithPath: output) }
            return URL(fileURLWithPath: outDir!).appendingPathComponent(
                OutputName.file(OutputName.base(ofScene: input), variant: variant, extension: kind.rawValue))
        }
        try refuseCollisions { [target($0).path] }
        try createOutputFolder()
        if let output {
            try? FileManager.default.createDirectory(at: URL(fileURLWithPath: output).deletingLastPathComponent(),
                                                     withIntermediateDirectories: true)
        }
        let options = try compileOptions(scale: nil)
        let results = ParallelJobs.map(inputs, jobs: jobs ?? ParallelJobs.defaultJobs) { input -> (CompileSession, [String]) in
            var (session, compiled) = compile(input, options)
            guard let compiled else { return (session, []) }
            let url = target(input)
            session.run { try AtomicFile.write(try compiled.renderIconFile(kind), to: url) }
            return (session, session.hasErrors ? [] : [url.path])
        }
        let sessions = results.map(\.0)
        for (input, session) in zip(inputs, sessions) { report(session.diagnostics, input: input) }
        let depfileWritten = writeDepfile(sessions, outputs: results.map(\.1))
        if let status = failureStatus(sessions) { throw status }
        if !depfileWritten { throw ExitCode(1) }
    }
}

/// Where a scene's outputs go: `-o FILE`, or `DIR/NAME.EXT` for each
/// format, or with scales `DIR/NAME.png`, `DIR/NAME@2x.png`… (PDF and SVG
/// have no scale suffix: they are vectors, one file whatever the scales),
/// named by `OutputName` as builds name them.
struct OutputPlan: Sendable {
    var output: String?
    var outDir: String?
    var formats: [OutputFormat]
    var scales: [Double]
    /// A variant adds `~VARIANT` to the name, as in builds.
    var variant: String? = nil

    func outputs(for input: String) -> [(url: URL, format: OutputFormat, scale: Double?)] {
        if let output { return [(URL(fileURLWithPath: output), formats[0], nil)] }
        let base = OutputName.base(ofScene: input)
        let dir = URL(fileURLWithPath: outDir ?? ".")
        return formats.flatMap { format -> [(url: URL, format: OutputFormat, scale: Double?)] in
            guard format == .png, !scales.isEmpty else {
                return [(dir.appendingPathComponent(OutputName.file(base, variant: variant, extension: format.rawValue)), format, nil)]
            }
            return scales.map { s in
                (dir.appendingPathComponent(OutputName.file(base, variant: variant, scale: s, extension: "png")), .png, s)
            }
        }
    }
}

struct Check: ParsableCommand {
    // Named here: ArgumentParser would otherwise derive the name from the
    // type's name at start-up, demangling it (about a million instructions).
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Parse, validate and lay out scenes without writing anything.")

    @Argument(help: "Scene files.")
    var inputs: [String]

    @OptionGroup var safety: SafetyOptions
    @OptionGroup var parameters: ParameterOptions
    @OptionGroup var fonts: FontOptions
    @OptionGroup var text: TextOptions

    @Option(help: "Check the scene as its <variant> NAME.")
    var variant: String?

    @OptionGroup var diagnostics: DiagnosticsOptions

    func run() throws {
        diagnosticsOutput = diagnostics.start()
        defer { diagnosticsOutput.finish() }
        var options = try text.applied(to: parameters.applied(to: fonts.applied(to: safety.options())))
        options.variant = variant
        var sessions: [CompileSession] = []
        for input in inputs {
            let (session, _) = compile(input, options)
            report(session.diagnostics, input: input)
            sessions.append(session)
        }
        if let status = failureStatus(sessions) { throw status }
    }
}

struct Layout: ParsableCommand {
    // Named here: ArgumentParser would otherwise derive the name from the
    // type's name at start-up, demangling it (about a million instructions).
    static let configuration = CommandConfiguration(
        commandName: "layout",
        abstract: "Print the laid-out tree as JSON: element, id, line and frame (scene points, before transforms) of every node.")

    @Argument(help: "A scene file.")
    var input: String

    @OptionGroup var safety: SafetyOptions
    @OptionGroup var parameters: ParameterOptions
    @OptionGroup var fonts: FontOptions
    @OptionGroup var text: TextOptions

    @Option(help: "Lay the scene out as its <variant> NAME.")
    var variant: String?

    @OptionGroup var diagnostics: DiagnosticsOptions

    func run() throws {
        diagnosticsOutput = diagnostics.start()
        defer { diagnosticsOutput.finish() }
        var options = try text.applied(to: parameters.applied(to: fonts.applied(to: safety.options())))
        options.variant = variant
        let (session, compiled) = compile(input, options)
        report(session.diagnostics, input: input)
        guard let compiled else { throw failureStatus([session]) ?? ExitCode(1) }
        print(compiled.layoutJSON())
    }
}
