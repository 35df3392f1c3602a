import Easel
import Foundation
import XCTest

/// The fonts text tests declare (Tests/Fixtures/fonts), and font files and
/// fontconfig set-ups made for a test with fontTools (`fonttool.py`), which
/// is also the oracle for what a font holds.
public enum TestFonts {
    public static var folder: URL { ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/fonts") }
    /// Inter's variable font cut to Latin (family "Inter", `wght` 100–900).
    public static var inter: URL { folder.appendingPathComponent("InterVariable-Latin.ttf") }
    /// The example card's fonts: Inter, Noto Sans CJK JP, Noto Sans Arabic and Noto Color Emoji, cut to what it uses.
    public static var exampleFolder: URL { ExternalTool.repositoryRoot.appendingPathComponent("examples/fonts") }

    /// Options whose font set is exactly the files of `folders`: no machine fonts.
    public static func declaredOnly(_ folders: [URL] = [folder]) -> Easel.Options {
        var options = Easel.Options()
        options.fontDirectories = folders
        options.systemFonts = false
        return options
    }

    /// Runs `fonttool.py` (fontTools) and returns what it printed.
    @discardableResult
    public static func tool(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> String {
        let r = try ExternalTool.run("python3", [folder.appendingPathComponent("fonttool.py").path] + arguments, file: file, line: line)
        guard r.status == 0 else {
            XCTFail("fonttool.py \(arguments.joined(separator: " ")): \(r.stderr)", file: file, line: line)
            throw NSError(domain: "fonttool", code: Int(r.status))
        }
        return r.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// A copy of `source` whose family is `family` (a decoy, or a second family).
    public static func renamed(_ source: URL, family: String, to target: URL) throws {
        try tool(["rename", source.path, target.path, family])
    }

    /// A fontconfig configuration that names `folders` (and a cache folder of
    /// its own), plus `extra` XML: what a test's "machine" looks like.
    public static func fontconfigFile(in dir: URL, folders: [URL], extra: String = "") throws -> URL {
        let url = dir.appendingPathComponent("fonts.conf")
        var xml = "<?xml version=\"1.0\"?>\n<fontconfig>\n"
        for f in folders { xml += "<dir>\(f.path)</dir>\n" }
        xml += "<cachedir>\(dir.appendingPathComponent("fc-cache").path)</cachedir>\n\(extra)\n</fontconfig>\n"
        try xml.write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The first run of each text, in tree order, from `easel layout` JSON.
    public static func runs(inLayoutJSON json: String) throws -> [[String: Any]] {
        let root = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        var out: [[String: Any]] = []
        func walk(_ node: [String: Any]) {
            out += (node["runs"] as? [[String: Any]]) ?? []
            for child in (node["children"] as? [[String: Any]]) ?? [] { walk(child) }
        }
        walk(root)
        return out
    }
}
