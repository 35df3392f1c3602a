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
        subcommands: [Render.self, Check.self, Layout.self])

    static func main() {
        // Interrupted mid-write: remove the temporary file, keep the target
        // as it was, exit as a shell expects (128 + signal).
        for sig in [SIGINT, SIGTERM] {
            signal(sig) { received in
                AtomicFile.removeInFlightFile()
                _exit(128 + received)
            }
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
    @Option(name: .customLong("max-paint"), help: "Most pixels painted in all (each fill, stroke, text, image and group counted by the pixels it covers).")
    var maxPaint: Double = Limits().maxPaintedPixels
    @Option(name: .customLong("allow-read"), help: "A folder outside the scene's that href/src may read (repeatable).")
    var allowRead: [String] = []

    func validate() throws {
        for (name, v) in [("--max-pixels", maxPixels), ("--max-nodes", maxNodes), ("--max-depth", maxDepth),
                          ("--max-file-size", maxFileSize)] where v <= 0 {
            throw ValidationError("\(name) must be greater than 0")
        }
        if !(maxPaint > 0) { throw ValidationError("--max-paint must be greater than 0") }
    }

    func options(scale: Double? = nil) -> Easel.Options {
        var limits = Limits()
        limits.maxPixels = maxPixels
        limits.maxNodes = maxNodes
        limits.maxDepth = maxDepth
        limits.maxFileSize = maxFileSize
        limits.maxPaintedPixels = maxPaint
        return Easel.Options(limits: limits,
                             allowedDirectories: allowRead.map { URL(fileURLWithPath: $0) },
                             scale: scale)
    }
}

/// Compiles one scene, printing its diagnostics to stderr.
func compileReporting(_ path: String, _ options: Easel.Options) -> CompiledScene? {
    let url = URL(fileURLWithPath: path)
    guard FileManager.default.fileExists(atPath: url.path) else {
        FileHandle.standardError.write(Data("\(path): error: no such file\n".utf8))
        return nil
    }
    switch Easel.compile(fileAt: url, options: options) {
    case .success(let compiled):
        report(compiled.warnings)
        return compiled
    case .failure(let error):
        report(error.diagnostics)
        return nil
    }
}

func report(_ diagnostics: [Diagnostic]) {
    guard !diagnostics.isEmpty else { return }
    FileHandle.standardError.write(Data(diagnostics.map { $0.description + "\n" }.joined().utf8))
}
