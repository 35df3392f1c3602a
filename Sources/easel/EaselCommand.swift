import ArgumentParser
import Easel
import Foundation

/// Exit status: 0 success, 1 a scene or its inputs had errors, 2 the
/// command line was wrong (the contract's rule, not ArgumentParser's 64).
@main
struct EaselCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "easel",
        abstract: "Compile declarative graphics scenes (XML) to PNG, PDF or SVG.",
        version: Easel.version,
        subcommands: [Render.self, Build.self, Check.self, Layout.self])

    static func main() {
        // Interrupted mid-write: the target stays as it was (writes go to an
        // unnamed file until complete); exit as a shell expects (128 + signal).
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { received in _exit(128 + received) }
        }
        let code: Int32
        do {
            var command = try parseAsRoot()
            try command.run()
            code = 0
        } catch let exit as ExitCode {
            code = exit.rawValue          // 1: the scenes' errors were already printed
        } catch {
            // Help, version, and everything ArgumentParser rejects.
            let message = fullMessage(for: error)
            if exitCode(for: error) == .success {
                if !message.isEmpty { print(message) }
                code = 0
            } else {
                FileHandle.standardError.write(Data((message + "\n").utf8))
                code = 2
            }
        }
        Foundation.exit(code)
    }
}

/// Limits and file access, shared by every subcommand.
struct SafetyOptions: ParsableArguments {
    @Option(name: .customLong("max-pixels"), help: "Most output pixels allowed.")
    var maxPixels: Int = Limits().maxPixels
    @Option(name: .customLong("max-nodes"), help: "Most painted nodes allowed, after expanding repeats.")
    var maxNodes: Int = Limits().maxNodes
    @Option(name: .customLong("max-depth"), help: "Deepest element nesting allowed.")
    var maxDepth: Int = Limits().maxDepth
    @Option(name: .customLong("max-file-size"), help: "Largest input file, in bytes.")
    var maxFileSize: Int = Limits().maxFileSize
    @Option(name: .customLong("max-paint"), help: "Most painting work, in units of about 1 ns (see Security in the README).")
    var maxPaint: Int = Int(Limits().maxPaintCost)
    @Option(name: .customLong("max-text"), help: "Most characters of text shaped per scene (all texts and graph labels).")
    var maxText: Int = Limits().maxTextCharacters
    @Option(name: .customLong("error-limit"), help: "Most errors reported per file before stopping; 0 reports all.")
    var errorLimit: Int = Limits().maxErrors
    @Option(name: .customLong("allow-read"), help: "A folder outside the scene's that href/src may read.")
    var allowRead: [String] = []

    func validate() throws {
        for (name, v) in [("--max-pixels", maxPixels), ("--max-nodes", maxNodes), ("--max-depth", maxDepth),
                          ("--max-file-size", maxFileSize), ("--max-paint", maxPaint), ("--max-text", maxText)] where v <= 0 {
            throw ValidationError("\(name) must be greater than 0")
        }
        if errorLimit < 0 { throw ValidationError("--error-limit must be 0 (no limit) or more") }
    }

    func options(scale: Double? = nil, scales: [Double] = []) -> Easel.Options {
        var limits = Limits()
        limits.maxPixels = maxPixels
        limits.maxNodes = maxNodes
        limits.maxDepth = maxDepth
        limits.maxFileSize = maxFileSize
        limits.maxPaintCost = Double(maxPaint)
        limits.maxErrors = errorLimit
        limits.maxTextCharacters = maxText
        return Easel.Options(limits: limits,
                             allowedDirectories: allowRead.map { URL(fileURLWithPath: $0) },
                             scale: scale, scales: scales)
    }
}

extension PNGCompression: ExpressibleByArgument {}

struct PNGEncodingOptions: ParsableArguments {
    @Option(name: .customLong("png-compression"),
            help: "fast (about 3× faster to encode, files about 30% larger), default, or small (several times slower, about 20% smaller).")
    var pngCompression: PNGCompression = .default

    func applied(to options: Easel.Options) -> Easel.Options {
        var options = options
        options.pngCompression = pngCompression
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
    guard FileManager.default.fileExists(atPath: path) else {
        session.report([Diagnostic(.error, .init("no such file"), at: nil)])
        return (session, nil)
    }
    // Messages name the file as it was typed, relative paths included.
    let compiled = session.compile(fileAt: URL(fileURLWithPath: path), displayPath: path)
    return (session, compiled)
}

/// Creates an output folder (and its parents) if missing; a failure is
/// reported once, located at the folder, and ends the run with status 1.
func createFolder(_ path: String) throws {
    do {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    } catch {
        FileHandle.standardError.write(Data("\(path): error: cannot create the output folder: \(error.localizedDescription)\n".utf8))
        throw ExitCode(1)
    }
}

/// Prints diagnostics as `file:line:col: error: message`; one that belongs
/// to no place in a scene (a write failure) is prefixed with the scene's path.
func report(_ diagnostics: [Diagnostic], input: String) {
    guard !diagnostics.isEmpty else { return }
    let lines = diagnostics.map { d in d.location == nil ? "\(input): \(d)\n" : "\(d)\n" }
    FileHandle.standardError.write(Data(lines.joined().utf8))
}
