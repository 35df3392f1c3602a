import Foundation
import PackagePlugin

/// A SwiftPM build-tool plugin: every `*.scene.xml` in a target becomes PNGs
/// (NAME.png, NAME@2x.png, NAME@3x.png by default) rendered at build time by
/// this package's own `easel` executable into the plugin's work folder,
/// which SwiftPM bundles as the target's resources (`Bundle.module`).
///
/// Scales come from an optional `easel-plugin.json` in the target's folder
/// (excluded from the target: it is the plugin's, not a resource):
/// `{"scales": [1, 2]}`. Each scene is one build command whose inputs are
/// the scene and the files it names in `src`/`href` attributes, so SwiftPM
/// renders again only the scenes whose inputs changed.
@main
struct EaselPlugin: BuildToolPlugin {
    struct Configuration: Decodable {
        var scales: [Double]?
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let easel = try context.tool(named: "easel").url
        let files = target.sourceFiles.map(\.url)
        let scales = try configuration(files.first { $0.lastPathComponent == "easel-plugin.json" }).scales ?? [1, 2, 3]
        guard !scales.isEmpty, scales.allSatisfy({ $0 > 0 && $0 <= 16 }) else {
            throw PluginError("easel-plugin.json: scales must be numbers greater than 0 and at most 16")
        }
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("images")
        let scenes = files.filter { $0.lastPathComponent.hasSuffix(".scene.xml") }.sorted { $0.path < $1.path }
        // The scene itself, then each of its <variant>s (NAME~VARIANT@2x.png), as `easel build` names them.
        return scenes.flatMap { scene in
            ([nil] + variants(of: scene)).map { variant -> Command in
                let name = String(scene.lastPathComponent.dropLast(".scene.xml".count)) + (variant.map { "~" + $0 } ?? "")
                let outputs = scales.map { output.appendingPathComponent(name + suffix($0) + ".png") }
                return .buildCommand(
                    displayName: "Rendering \(name) at \(scales.map(label).joined(separator: ", "))",
                    executable: easel,
                    arguments: ["render", scene.path, "--out-dir", output.path, "--scales", scales.map(label).joined(separator: ","), "-j", "1"]
                        + (variant.map { ["--variant", $0] } ?? []),
                    inputFiles: [scene] + referencedFiles(of: scene),
                    outputFiles: outputs)
            }
        }
    }

    func configuration(_ file: URL?) throws -> Configuration {
        guard let file, let data = FileManager.default.contents(atPath: file.path) else { return Configuration() }
        return try JSONDecoder().decode(Configuration.self, from: data)
    }

    /// The names of the scene's `<variant name="…">`s. A plugin must name
    /// its outputs before anything runs, so it reads them from the text; a
    /// name this misreads makes `easel` fail the build with a located error.
    func variants(of scene: URL) -> [String] {
        guard let text = try? String(contentsOf: scene, encoding: .utf8) else { return [] }
        var names: [String] = []
        var rest = text[...]
        while let start = rest.range(of: "<variant") {
            rest = rest[start.upperBound...]
            guard let close = rest.firstIndex(of: ">") else { break }
            let element = rest[..<close]
            if let n = element.range(of: "name=\""), let end = element[n.upperBound...].firstIndex(of: "\"") {
                names.append(String(element[n.upperBound..<end]).trimmingCharacters(in: .whitespaces))
            }
        }
        return names
    }

    /// The files a scene names in `src="…"` or `href="…"` (CSVs, images),
    /// resolved beside it: declared as inputs so an edited CSV renders its
    /// scene again. Easel itself decides what a scene may read; a name this
    /// misses only means a missed rebuild, never a wider read.
    func referencedFiles(of scene: URL) -> [URL] {
        guard let text = try? String(contentsOf: scene, encoding: .utf8) else { return [] }
        let folder = scene.deletingLastPathComponent()
        var files: [URL] = []
        for attribute in ["src=\"", "href=\""] {
            var rest = text[...]
            while let start = rest.range(of: attribute) {
                rest = rest[start.upperBound...]
                guard let end = rest.firstIndex(of: "\"") else { break }
                let value = String(rest[..<end])
                if !value.hasPrefix("#"), !value.hasPrefix("url(") {
                    let url = value.hasPrefix("/") ? URL(fileURLWithPath: value) : folder.appendingPathComponent(value)
                    if FileManager.default.fileExists(atPath: url.path) { files.append(url.standardizedFileURL) }
                }
            }
        }
        return files
    }

    func suffix(_ scale: Double) -> String { scale == 1 ? "" : "@\(label(scale))x" }
    func label(_ scale: Double) -> String { scale == scale.rounded() ? String(Int(scale)) : String(scale) }
}

struct PluginError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
