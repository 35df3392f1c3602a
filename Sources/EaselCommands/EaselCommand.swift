import ArgumentParser
import Easel
import EaselCommandLine
import FoundationEssentials
import Glibc

/// Exit status: 0 success, 1 a scene or its inputs had errors, 2 the
/// command line was wrong (the contract's rule, not ArgumentParser's 64).
public struct EaselCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "easel",
        abstract: "Compile declarative graphics scenes (XML) to PNG, WebP, AVIF, PDF, SVG and platform assets.",
        version: Easel.version,
        subcommands: [Render.self, Build.self, Check.self, Layout.self, Preview.self, Worker.self])

    /// The `easel` program (its `main.swift` calls this).
    public static func main() {
        // Interrupted mid-write: the target stays as it was (writes go to an
        // unnamed file until complete, and a file being renamed into place
        // finishes first); exit as a shell expects (128 + signal).
        // Every command, watches included (the contract: Ctrl-C exits 130).
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { received in AtomicFile.exitOnSignal(received) }
        }
        // Easel builds every font set itself: fontconfig's default
        // configuration (the machine's /etc/fonts) is read only when a
        // compile asks for system fonts.
        FontSystem.prepareProgram()
        let arguments = Array(CommandLine.arguments.dropFirst())
        // `easel worker` reads its own two forms without ArgumentParser.
        if arguments.first == Worker.configuration.commandName {
            Glibc.exit(Worker.run(Array(arguments.dropFirst())))
        }
        Glibc.exit(run(arguments))
    }

    /// One command line, run to its exit status (what `main` exits with,
    /// and what a worker's request answers).
    public static func run(_ arguments: [String]) -> Int32 {
        do {
            if let job = RenderJob(plainArguments: arguments) {
                try job.run()
            } else {
                var command = try parseRenderDirectly(arguments) ?? parseAsRoot(arguments)
                try command.run()
            }
            return 0
        } catch {
            return exitStatus(for: error, arguments: arguments)
        }
    }
}

extension EaselCommand {
    /// `easel render …` parsed by `Render` alone, or nil to take the whole
    /// command tree. Parsing from the root first builds every argument of
    /// the subcommand it meets to ask whether it takes all the remaining
    /// input, then builds them again to parse: for the command build tools
    /// run once per scene that was half the process's instructions. Any
    /// error, help, version or completion request gives nil, and the root's
    /// parse then reports it as it always has.
    static func parseRenderDirectly(_ arguments: [String]) -> Render? {
        guard arguments.first == Render.configuration.commandName else { return nil }
        return (try? Render.parseAsRoot(Array(arguments.dropFirst()))) as? Render
    }
}

extension PNGCompression: ExpressibleByArgument {}
extension DisplayGamut: ExpressibleByArgument {}
extension AndroidMonochrome: ExpressibleByArgument {}

enum DitherChoice: String, ExpressibleByArgument, CaseIterable { case yes, no }

/// How raster output is encoded: PNG's compression, dithering, WebP and AVIF quality.
struct RasterEncodingOptions: ParsableArguments {
    @Option(name: .customLong("png-compression"),
            help: "default (libdeflate 1 for opaque images, 3 for images with transparency), fast (libdeflate 1 for every image: those with transparency about half the default's work, files 10–30% larger), or small (libdeflate 12: many times slower, 20–50% smaller).")
    var pngCompression: PNGCompression = .default

    @Option(help: "yes or no: dither gradients in PNG, WebP and AVIF output so slow ones show no bands (default: the scene's dither attribute, itself yes).")
    var dither: DitherChoice?

    @Option(help: ArgumentHelp("1–100: WebP output lossy at this quality (without it lossless, the PNG's pixels); AVIF output at this quality (default 80; 100 is lossless).", valueName: "q"))
    var quality: Int?

    func validate() throws {
        if let quality, !(1...100).contains(quality) { throw ValidationError("--quality must be from 1 to 100, not \(quality)") }
    }

    /// The usage error for `--quality` when none of `formats` takes one.
    func checkQuality(formats: [String]) throws {
        guard quality != nil, !formats.contains(where: { OutputFormat(rawValue: $0)?.hasQuality == true }) else { return }
        let named = formats.isEmpty ? "png" : formats.joined(separator: ",")
        throw ValidationError("--quality is for WebP and AVIF output; \(named) has no quality")
    }

    func applied(to options: Easel.Options) -> Easel.Options {
        var options = options
        options.pngCompression = pngCompression
        options.quality = quality
        if let dither { options.dither = dither == .yes }
        return options
    }
}

/// The working directory with symlinks resolved, as the paths of the files
/// a compile read are (for depfiles).
func workingDirectory() -> String {
    let cwd = FileManager.default.currentDirectoryPath
    return URL(fileURLWithPath: cwd).resolvingSymlinksInPath().path
}

/// Compiles one scene in its own session; the session holds what it found.
func compile(_ path: String, _ options: Easel.Options) -> (CompileSession, CompiledScene?) {
    var session = CompileSession(options: options)
    var isFolder = false
    guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
        session.report([Diagnostic(.error, .noSuchScene, at: nil)])
        return (session, nil)
    }
    // A folder of scenes is what `easel build` takes: say so, rather than
    // that it cannot be read.
    if isFolder {
        session.report([Diagnostic(.error, .sceneIsAFolder, at: nil)])
        return (session, nil)
    }
    // Messages name the file as it was typed, relative paths included.
    let compiled = session.compile(fileAt: URL(fileURLWithPath: path), displayPath: path)
    return (session, compiled)
}

/// Creates an output folder (and its parents) if missing; a failure is
/// reported once, located at the folder, and ends the run with status 1.
func createFolder(_ path: String) throws {
    guard let reason = AtomicFile.makeFolders(path) else { return }
    diagnosticsOutput.report(.cannotWrite(path, "cannot create the folder: \(reason)"), path: path)
    throw ExitCode(1)
}

/// The run's diagnostics, in the format `--diagnostics-format` chose: each
/// command runs inside `withDiagnostics`. Task-local, as a persistent
/// worker runs several commands at once, each printing into its own
/// response.
enum RunDiagnostics {
    @TaskLocal static var output = DiagnosticsOutput(format: .text)
}

var diagnosticsOutput: DiagnosticsOutput { RunDiagnostics.output }

/// Runs a command's body with `output` as its diagnostics, finished (the
/// SARIF log printed) when the body ends, however it ends.
func withDiagnostics<R>(_ output: DiagnosticsOutput, _ body: () throws -> R) rethrows -> R {
    defer { output.finish() }
    return try RunDiagnostics.$output.withValue(output, operation: body)
}

/// Prints diagnostics; one that belongs to no place in a scene (a write
/// failure) is put on the scene's path.
func report(_ diagnostics: [Diagnostic], input: String) {
    diagnosticsOutput.report(diagnostics, input: input)
}

/// Writes a depfile; one that cannot be written is an error (the build
/// system would lose dependencies without a word).
enum EaselCommandLineTool {
    static func writeDepfile(_ path: String, _ rules: [(outputs: [String], inputs: [String])]) -> Bool {
    do {
        try AtomicFile.write(Array(Depfile.text(rules, relativeTo: workingDirectory()).utf8), to: URL(fileURLWithPath: path))
        return true
    } catch let error as DiagnosticsError {
        report(error.diagnostics, input: path)
    } catch {
        report([Diagnostic(.error, .cannotWrite(path, "\(error)"), at: nil)], input: path)
    }
    return false
    }
}
