import Foundation
import PackagePlugin

/// A SwiftPM build-tool plugin: every `*.scene.xml` in a target becomes PNGs
/// (NAME.png, NAME@2x.png, NAME@3x.png by default; WebP or AVIF too with
/// `"formats": ["png", "webp"]`) rendered at build time by
/// this package's own `easel` executable into the plugin's work folder,
/// which SwiftPM bundles as the target's resources (`Bundle.module`).
///
/// Scales and fonts come from an optional `easel-plugin.json` in the
/// target's folder: `{"scales": [1, 2], "fontDirectories": ["Fonts"],
/// "systemFonts": false, "formats": ["png", "webp"], "quality": 80}` — font folders relative to that file, passed as
/// `--font-dir`, and `systemFonts: false` for `--system-fonts no` (the same
/// PNGs on every machine). Each scene is one build command whose inputs are
/// the scene, the files it names in `src`/`href` attributes (its `<font
/// src>` files among them) and every file in the font folders, so SwiftPM
/// renders again only the scenes whose inputs changed.
@main
struct EaselPlugin: BuildToolPlugin {
    struct Configuration: Decodable {
        var scales: [Double]?
        /// Folders of fonts, relative to the target's folder (`--font-dir`).
        var fontDirectories: [String]?
        /// false: only declared fonts (`--system-fonts no`).
        var systemFonts: Bool?
        /// Any of png, webp, avif (`--formats`); default png.
        var formats: [String]?
        /// WebP and AVIF quality, 1–100 (`--quality`).
        var quality: Int?
    }

    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        guard let target = target as? SourceModuleTarget else { return [] }
        let easel = try context.tool(named: "easel").url
        let files = target.sourceFiles.map(\.url)
        let configFile = files.first { $0.lastPathComponent == "easel-plugin.json" }
        let config = try configuration(configFile)
        let scales = config.scales ?? [1, 2, 3]
        // Font folders are relative to the configuration file (the target's folder).
        let configFolder = configFile?.deletingLastPathComponent()
        let fontFolders = (config.fontDirectories ?? []).compactMap { configFolder?.appendingPathComponent($0).standardizedFileURL }
        let fontFiles = try fontFolders.flatMap(fonts(in:))
        // A build step, as `easel build`: a character no font has fails it.
        let fontArguments = fontFolders.flatMap { ["--font-dir", $0.path] } + (config.systemFonts == false ? ["--system-fonts", "no"] : [])
            + ["--missing-glyphs", "error"]
        // Easel's Limits().maxScale: a plugin cannot import the library, and
        // `easel render` checks the same range again with its own message.
        guard !scales.isEmpty, scales.allSatisfy({ $0 > 0 && $0 <= 16 }) else {
            throw PluginError("easel-plugin.json: scales must be numbers greater than 0 and at most 16")
        }
        let formats = config.formats ?? ["png"]
        guard !formats.isEmpty, Set(formats).count == formats.count, formats.allSatisfy(["png", "webp", "avif"].contains) else {
            throw PluginError("easel-plugin.json: formats must be distinct names among png, webp and avif")
        }
        let qualityArguments = config.quality.map { ["--quality", String($0)] } ?? []
        let output = context.pluginWorkDirectoryURL.appendingPathComponent("images")
        let scenes = files.filter { $0.lastPathComponent.hasSuffix(".scene.xml") }.sorted { $0.path < $1.path }
        // The scene itself, then each of its <variant>s (NAME~VARIANT@2x.png), as `easel build` names them.
        return scenes.flatMap { scene in
            ([nil] + variants(of: scene)).map { variant -> Command in
                let name = String(scene.lastPathComponent.dropLast(".scene.xml".count)) + (variant.map { "~" + $0 } ?? "")
                let outputs = formats.flatMap { format in scales.map { output.appendingPathComponent(name + suffix($0) + "." + format) } }
                return .buildCommand(
                    displayName: "Rendering \(name) at \(scales.map(label).joined(separator: ", "))",
                    executable: easel,
                    arguments: ["render", scene.path, "--out-dir", output.path, "--scales", scales.map(label).joined(separator: ","), "-j", "1",
                                "--formats", formats.joined(separator: ",")]
                        + qualityArguments + (variant.map { ["--variant", $0] } ?? []) + fontArguments,
                    inputFiles: [scene] + referencedFiles(of: scene) + fontFiles,
                    outputFiles: outputs)
            }
        }
    }

    /// The font files under a font folder (what `--font-dir` reads), sorted.
    func fonts(in folder: URL) throws -> [URL] {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue,
              let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil) else {
            throw PluginError("easel-plugin.json: the font folder '\(folder.path)' is not a folder")
        }
        let extensions: Set<String> = ["ttf", "otf", "ttc", "otc", "woff", "woff2"]
        return walker.compactMap { $0 as? URL }.filter { extensions.contains($0.pathExtension.lowercased()) }.sorted { $0.path < $1.path }
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
