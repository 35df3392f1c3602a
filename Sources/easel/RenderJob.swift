import ArgumentParser
import Easel
import EaselCommandLine
import FoundationEssentials

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

    static func iconKind(formatNames: [String], output: String?) -> IconFileKind? {
        if let named = formatNames.lazy.compactMap(IconFileKind.init(rawValue:)).first { return named }
        return output.flatMap { IconFileKind(fileExtension: URL(fileURLWithPath: $0).pathExtension) }
    }

    func run() throws {
        diagnosticsOutput = DiagnosticsOutput(format: diagnosticsFormat)
        defer { diagnosticsOutput.finish() }
        if let icon = iconKind { return try runIconFiles(icon) }
        if fps != nil || wantsAPNG { return try runAnimation() }
        let formats = !formatNames.isEmpty ? formatNames.compactMap(OutputFormat.init(rawValue:))
            : [output.flatMap { OutputFormat(fileExtension: URL(fileURLWithPath: $0).pathExtension) } ?? .png]
        let plan = OutputPlan(output: output, outDir: outDir, formats: formats, scales: scaleList, variant: variant)
        try refuseCollisions { plan.outputs(for: $0).map(\.url.path) }
        try createOutputFolder()
        let options = try compileOptions(scale: scale, scales: scaleList)
        if let output { try createFolder(URL(fileURLWithPath: output).deletingLastPathComponent().path) }
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
                  makeOptions: { scale, scales in Easel.Options(scale: scale, scales: scales) })
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
            (written, session.pathsRead + inputFiles)
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

extension RenderJob {
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
        if let output { try createFolder(URL(fileURLWithPath: output).deletingLastPathComponent().path) }
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

