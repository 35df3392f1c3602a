import EaselParse
import FoundationEssentials

extension AssetBuild {
    /// Reads build-manifest bytes as `easel build` does (for the fuzzer):
    /// the number of scenes recorded, or nil if they are not a manifest
    /// this Easel reads.
    public static func manifestSceneCount(_ bytes: [UInt8]) -> Int? {
        BuildManifest.decode(Data(bytes))?.scenes.count
    }
}

/// The build's record in the output folder: for each scene, the files it
/// read (with their hashes) and the files it wrote. Versioned JSON; anything
/// unreadable means a full rebuild, with a warning.
struct BuildManifest: Codable, Sendable {
    struct Entry: Codable, Sendable {
        var inputs: [FileRecord]
        var outputs: [String]
        /// With `--locales`: the scene's `string` parameters, and what the
        /// string tables gave each locale for them.
        var stringParameters: [String]?
        var strings: [String: [String: String]]?
        /// In an asset catalog: the palette colours the scene exports.
        var colors: [ExportedColor]?
        /// The record was kept through a change of options while its scene
        /// could not be read: it is built again once it can be.
        var outdated: Bool?
    }
    static let currentVersion = 1
    var version = BuildManifest.currentVersion
    var easel = ""
    var options = ""
    var scenes: [String: Entry] = [:]
    /// In an asset catalog: the colour sets' `Contents.json` files the
    /// build wrote (colour sets belong to the build, not to one scene).
    var colorSets: [String]?

    static func load(from url: URL, warnings: inout [Diagnostic]) -> BuildManifest {
        guard let data = (try? FileBytes.read(url.path).get()).map({ Data($0) }) else { return BuildManifest() }
        guard let m = decode(data) else {
            warnings.append(Diagnostic(.warning, .staleManifest(url.path), at: nil))
            return BuildManifest()
        }
        return m
    }

    /// A manifest from its bytes, or nil. The output folder may come from
    /// anywhere (a checkout, an archive), and a build removes the outputs a
    /// manifest lists for scenes that are gone: a manifest naming any path
    /// that is absolute or climbs out of the folder (`..`) is not one.
    static func decode(_ data: Data) -> BuildManifest? {
        guard let m = try? JSONDecoder().decode(BuildManifest.self, from: data), m.version == currentVersion else { return nil }
        for entry in m.scenes.values {
            for output in entry.outputs where !isInsideFolder(output) { return nil }
        }
        for scene in m.scenes.keys where !isInsideFolder(scene) { return nil }
        for set in m.colorSets ?? [] where !isInsideFolder(set) { return nil }
        return m
    }

    /// A relative path with no `..`, `.` or empty component.
    static func isInsideFolder(_ path: String) -> Bool {
        guard !path.isEmpty, !path.hasPrefix("/"), !path.contains("\0") else { return false }
        return path.split(separator: "/", omittingEmptySubsequences: false).allSatisfy { !$0.isEmpty && $0 != ".." && $0 != "." }
    }

    func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return try encoder.encode(self)
    }
}
