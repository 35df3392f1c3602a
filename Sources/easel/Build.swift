import ArgumentParser
import Easel
import Foundation

struct Build: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render every *.scene.xml under a folder into a mirrored asset tree, only what changed.",
        discussion: """
            Names follow asset catalogs: card.png, card@2x.png, card@3x.png; PDF and SVG have no scale suffix. \
            A scene is rendered again only when its file, a file it read, the options or Easel's version changed \
            (a manifest in the output folder records them); outputs of deleted scenes are removed, and files Easel \
            did not write are never touched. With --xcassets the output is an Xcode asset catalog.
            """)

    @Argument(help: "The folder of scenes.")
    var source: String

    @Option(name: .shortAndLong, help: "The output folder (an .xcassets folder with --xcassets).")
    var output: String

    @Option(help: "Comma-separated scales for PNG output, e.g. 1,2,3.")
    var scales: String = "1"

    @Option(help: "Comma-separated formats: png, pdf, svg (--xcassets: png, or pdf for a vector imageset).")
    var formats: String = "png"

    @Option(name: .shortAndLong, help: "Scenes rendered at once (default: the number of cores).")
    var jobs: Int?

    @Flag(help: "Write an Xcode asset catalog: an imageset per scene, a colorset per palette colour.")
    var xcassets = false

    @Option(help: "Write Make-format dependencies: each output depends on its scene and every file it read.")
    var depfile: String?

    @Flag(name: .customLong("dry-run"), help: "Say what would be rendered and removed; write nothing.")
    var dryRun = false

    @OptionGroup var safety: SafetyOptions

    var scaleList: [Double] { scales.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
    var formatList: [OutputFormat] { formats.split(separator: ",").compactMap { OutputFormat(rawValue: $0.trimmingCharacters(in: .whitespaces)) } }

    func validate() throws {
        let parts = scales.split(separator: ",", omittingEmptySubsequences: false)
        guard !parts.isEmpty, parts.count == scaleList.count, scaleList.allSatisfy({ $0 > 0 && $0 <= 16 }) else {
            throw ValidationError("--scales takes numbers greater than 0 and at most 16, separated by commas (1,2,3), not '\(scales)'")
        }
        guard formats.split(separator: ",", omittingEmptySubsequences: false).count == formatList.count, !formatList.isEmpty else {
            throw ValidationError("--formats takes png, pdf and svg, separated by commas, not '\(formats)'")
        }
        if xcassets, formatList.contains(.svg) || Set(formatList).count > 1 {
            throw ValidationError("--xcassets takes --formats png (one image per scale) or pdf (a vector imageset)")
        }
        if let jobs, jobs < 1 { throw ValidationError("-j must be 1 or more") }
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: source, isDirectory: &isFolder), isFolder.boolValue else {
            throw ValidationError("'\(source)' is not a folder")
        }
    }

    func run() throws {
        let start = Date()
        var options = AssetBuild.Options(source: URL(fileURLWithPath: source), output: URL(fileURLWithPath: output))
        options.scales = scaleList
        options.formats = formatList
        options.jobs = jobs ?? ParallelJobs.defaultJobs
        options.xcassets = xcassets
        options.dryRun = dryRun
        options.compile = safety.options()
        if !dryRun {
            do {
                try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
            } catch {
                FileHandle.standardError.write(Data("\(output): error: cannot create the output folder: \(error.localizedDescription)\n".utf8))
                throw ExitCode(1)
            }
        }
        let result = AssetBuild.run(options)
        report(result.warnings, input: output)
        for (scene, diagnostics) in result.diagnostics { report(diagnostics, input: (source as NSString).appendingPathComponent(scene)) }
        let verb = dryRun ? "would render" : "rendered"
        for scene in result.rendered { print("\(verb) \(scene)") }
        for file in result.removed { print("\(dryRun ? "would remove" : "removed") \(file)") }
        if let depfile, !dryRun {
            try? AtomicFile.write(Array(Depfile.text(result.dependencies).utf8), to: URL(fileURLWithPath: depfile))
        }
        let seconds = String(format: "%.2f", Date().timeIntervalSince(start))
        if result.rendered.isEmpty && result.removed.isEmpty && result.failed.isEmpty {
            print("easel build: nothing to do, \(result.upToDate.count) up to date (\(seconds) s)")
        } else {
            print("easel build: \(result.rendered.count) \(verb), \(result.upToDate.count) up to date, "
                  + "\(result.failed.count) failed, \(result.removed.count) removed (\(seconds) s)")
        }
        if !result.failed.isEmpty { throw ExitCode(1) }
    }
}
