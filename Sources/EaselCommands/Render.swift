import ArgumentParser
import Easel
import EaselCommandLine
import FoundationEssentials

struct Render: ParsableCommand {
    // Named here: ArgumentParser would otherwise derive the name from the
    // type's name at start-up, demangling it (about a million instructions).
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Render scenes to PNG, PDF, SVG, WebP, AVIF and more.",
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

    @Option(help: "Pixels per point for PNG, WebP and AVIF output, greater than 0 and at most \(Limits().maxScale.wholeNumberText) (overrides the scene's scale).")
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

    @Option(help: "Frames a second, at most 240: an animated PNG with -o (or -o NAME.apng, --format apng; 30 when not given), an animated WebP with -o NAME.webp or --format webp, numbered frames NAME-0000.png… with --out-dir.")
    var fps: Double?

    private var wantsAPNG: Bool { RenderJob.wantsAPNG(formatNames: formatNames, output: output) }


    @Option(help: "Render the scene as its <variant> NAME (with --out-dir: NAME~VARIANT.png).")
    var variant: String?

    @Option(help: ArgumentHelp("Render only the scene's top-level element with this id (an adaptive icon's background, foreground or monochrome layer); the scene's background goes with the background layer.", valueName: "id"))
    var layer: String?

    private var iconKind: IconFileKind? { RenderJob.iconKind(formatNames: formatNames, output: output) }

    @OptionGroup var safety: SafetyOptions
    @OptionGroup var encoding: RasterEncodingOptions
    @OptionGroup var parameters: ParameterOptions
    @OptionGroup var fonts: FontOptions
    @OptionGroup var text: TextOptions
    @OptionGroup var diagnostics: DiagnosticsOptions

    /// The compile's options, from every option group.
    private func compileOptions(scale: Double?, scales: [Double] = []) throws -> Easel.Options {
        var options = try text.applied(to: parameters.applied(to: fonts.applied(to: encoding.applied(to: safety.options(scale: scale, scales: scales)))))
        // A render reports the paths it read (depfile), never their hashes.
        options.hashesFilesRead = false
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
        // --quality: WebP and AVIF only, by name or by extension (an
        // extension that names no format is reported as such below).
        let outputExtension = output.map { URL(fileURLWithPath: $0).pathExtension.lowercased() }
        if !formatNames.isEmpty {
            try encoding.checkQuality(formats: formatNames)
        } else if let outputExtension {
            if OutputFormat(fileExtension: outputExtension) != nil || OutputOptions.renderOnlyFormats.contains(outputExtension) {
                try encoding.checkQuality(formats: [OutputFormat(fileExtension: outputExtension)?.rawValue ?? outputExtension])
            }
        } else {
            try encoding.checkQuality(formats: ["png"])
        }
        // An animated PNG's name takes no other format.
        if outputExtension == "apng", let format, format != "png", format != "apng" {
            throw ValidationError("--format \(format) and the extension of '\(output!)' disagree (NAME.apng is an animated PNG)")
        }
        if RenderJob.wantsIconComposer(formatNames: formatNames, output: output) {
            if formatNames.count > 1 { throw ValidationError("--format icon makes Icon Composer bundles: give it alone") }
            if fps != nil || wantsAPNG || time != nil || scale != nil || scales != nil {
                throw ValidationError("an Icon Composer bundle holds vector layers at time 0: give none of --fps, --time, --scale, --scales")
            }
            if let output, URL(fileURLWithPath: output).pathExtension.lowercased() != "icon" {
                throw ValidationError("--format icon and the extension of '\(output)' disagree (an Icon Composer bundle is NAME.icon)")
            }
            if layer != nil { throw ValidationError("an Icon Composer bundle holds every layer: drop --layer") }
            if variant != nil { throw ValidationError("an Icon Composer bundle holds the dark and tinted appearances itself: drop --variant") }
            return
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
            throw ValidationError("cannot tell the format of '\(output)' from its extension; add --format png|pdf|svg|vector-drawable|webp|avif|apng|icns|ico|icon")
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
            if let still = formatNames.first(where: { $0 == "pdf" || $0 == "svg" || $0 == "vector-drawable" || $0 == "avif" }) {
                throw ValidationError("--fps makes an animated PNG or WebP, or PNG frames; use --time for a still \(still)")
            }
            if formatNames.count > 1 { throw ValidationError("--fps makes one animation: give one --format (png, apng or webp)") }
            if let output, !wantsAPNG, !["png", "webp"].contains(URL(fileURLWithPath: output).pathExtension.lowercased()) {
                throw ValidationError("--fps makes an animated PNG or WebP: name the output NAME.png, NAME.apng or NAME.webp")
            }
        }
    }

    /// The job this command line asks for.
    var job: RenderJob {
        RenderJob(inputs: inputs, output: output, outDir: outDir, scale: scale, formatNames: formatNames,
                  scaleList: scaleList, jobs: jobs, depfile: depfile, time: time, fps: fps, variant: variant,
                  layer: layer, diagnosticsFormat: diagnostics.diagnosticsFormat,
                  makeOptions: { [self] scale, scales in try compileOptions(scale: scale, scales: scales) },
                  inputFiles: parameters.inputFiles + text.inputFiles)
    }

    func run() throws { try job.run() }
}

/// Where a scene's outputs go: `-o FILE`, or `DIR/NAME.EXT` for each
/// format, or with scales `DIR/NAME.png`, `DIR/NAME@2x.webp`… (PDF and SVG
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
            guard format.isRaster, !scales.isEmpty else {
                return [(dir.appendingPathComponent(OutputName.file(base, variant: variant, extension: format.fileExtension)), format, nil)]
            }
            return scales.map { s in
                (dir.appendingPathComponent(OutputName.file(base, variant: variant, scale: s, extension: format.fileExtension)), format, s)
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
        try withDiagnostics(diagnostics.start()) { try checkAll() }
    }

    private func checkAll() throws {
        var options = try text.applied(to: parameters.applied(to: fonts.applied(to: safety.options())))
        options.hashesFilesRead = false
        options.variant = variant
        options.paintsAboveScales = false   // nothing is painted
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
        try withDiagnostics(diagnostics.start()) { try printLayout() }
    }

    private func printLayout() throws {
        var options = try text.applied(to: parameters.applied(to: fonts.applied(to: safety.options())))
        options.hashesFilesRead = false
        options.variant = variant
        options.paintsAboveScales = false   // nothing is painted
        let (session, compiled) = compile(input, options)
        report(session.diagnostics, input: input)
        guard let compiled else { throw failureStatus([session]) ?? ExitCode(1) }
        do {
            StandardStreams.output(try compiled.layoutJSON() + "\n")
        } catch {
            report(error.diagnostics, input: input)
            throw ExitCode(1)
        }
    }
}
