import Easel
import EaselTestSupport
import Foundation
import XCTest

/// The build-system examples in examples/ninja, examples/make and
/// examples/bazel, run with the real tools (Debian's ninja-build, make and
/// bazel-bootstrap) on copies of the examples, and the determinism they
/// rely on. Not run under the sanitizers (see .ci/run): they test the
/// tools' view of Easel, and Bazel starts a Java server.
final class BuildSystemTests: XCTestCase {
    var dir: URL!
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples").standardized

    override func setUp() {
        dir = ExternalTool.temporaryDirectory(name)
    }

    /// examples/ copied with only what the Ninja and Make examples use.
    func copyExamples(_ folder: String) throws -> URL {
        let root = dir.appendingPathComponent("examples")
        let fm = FileManager.default
        try fm.createDirectory(at: root, withIntermediateDirectories: true)
        for scene in ["flo-graph", "card", "steps-graph"] {
            try fm.copyItem(at: examples.appendingPathComponent(scene + ".scene.xml"), to: root.appendingPathComponent(scene + ".scene.xml"))
        }
        try fm.copyItem(at: examples.appendingPathComponent("data"), to: root.appendingPathComponent("data"))
        // The build file only: not outputs or logs of a build run in the checkout.
        try fm.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        let buildFile = folder == "ninja" ? "build.ninja" : "Makefile"
        try fm.copyItem(at: examples.appendingPathComponent(folder + "/" + buildFile), to: root.appendingPathComponent(folder + "/" + buildFile))
        return root
    }

    /// Touches a file (now: later than the outputs just written, as file
    /// times have nanoseconds; not in the future, or every build would
    /// find the outputs older than it).
    func touchLater(_ url: URL) throws {
        Thread.sleep(forTimeInterval: 0.05)
        try FileManager.default.setAttributes([.modificationDate: Date()], ofItemAtPath: url.path)
    }

    func testNinjaRebuildsExactlyTheSceneWhoseCSVChanged() throws {
        let root = try copyExamples("ninja")
        let path = URL(fileURLWithPath: ExternalTool.easelExecutable).deletingLastPathComponent().path
        func ninja() throws -> [String] {
            let r = try ExternalTool.run("/usr/bin/env", ["PATH=\(path):/usr/bin:/bin", "ninja", "-C", root.appendingPathComponent("ninja").path])
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            return r.stdout.split(separator: "\n").filter { $0.contains("] easel ") }.map(String.init)
        }
        XCTAssertEqual(try ninja().count, 3, "first build renders all three")
        XCTAssertEqual(try ninja(), [], "second build: nothing to do")
        try touchLater(root.appendingPathComponent("data/steps.csv"))
        let rebuilt = try ninja()
        XCTAssertEqual(rebuilt.count, 1, "\(rebuilt)")
        XCTAssertTrue(rebuilt.first?.contains("steps-graph") == true, "\(rebuilt)")
        XCTAssertEqual(try ninja(), [])
    }

    func testMakeRebuildsExactlyTheSceneWhoseCSVChanged() throws {
        let root = try copyExamples("make")
        func make() throws -> [String] {
            let r = try ExternalTool.run("make", ["-C", root.appendingPathComponent("make").path, "EASEL=\(ExternalTool.easelExecutable)"])
            XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
            return r.stdout.split(separator: "\n").filter { $0.contains(" render ") }.map(String.init)
        }
        XCTAssertEqual(try make().count, 3)
        XCTAssertEqual(try make(), [])
        try touchLater(root.appendingPathComponent("data/steps.csv"))
        let rebuilt = try make()
        XCTAssertEqual(rebuilt.count, 1, "\(rebuilt)")
        XCTAssertTrue(rebuilt.first?.contains("steps-graph") == true, "\(rebuilt)")
    }

    /// Bazel 4.2 offline: build, `bazel clean`, build again with the same
    /// --disk_cache (every render served from the cache), then edit one
    /// scene (exactly one action runs).
    func testBazelCachesEveryRenderAndReRunsOnlyAnEditedScene() throws {
        let work = dir.appendingPathComponent("bazel")
        let fm = FileManager.default
        try fm.createDirectory(at: work, withIntermediateDirectories: true)
        for item in try fm.contentsOfDirectory(atPath: examples.appendingPathComponent("bazel").path)
        where !item.hasPrefix("bazel-") {
            try fm.copyItem(at: examples.appendingPathComponent("bazel/" + item), to: work.appendingPathComponent(item))
        }
        try? fm.removeItem(at: work.appendingPathComponent("tools/easel"))
        XCTAssertEqual(try ExternalTool.run(work.appendingPathComponent("setup").path, [ExternalTool.easelExecutable]).status, 0)
        let userRoot = dir.appendingPathComponent("bazel-root").path, cache = dir.appendingPathComponent("cache").path
        // --batch: no server outlives the command (a server would also hold
        // the output pipes open, and the reader would wait for it forever).
        func bazel(_ args: [String]) throws -> ToolResult {
            try ExternalTool.run("/usr/bin/env", ["-C", work.path, "bazel", "--batch", "--output_user_root=\(userRoot)"] + args)
        }
        func build() throws -> String {
            let r = try bazel(["build", "//...", "--disk_cache=\(cache)"])
            XCTAssertEqual(r.status, 0, r.stderr)
            return r.stderr.split(separator: "\n").first { $0.contains(" processes: ") }.map(String.init) ?? r.stderr
        }
        func count(_ kind: String, in line: String) -> Int {
            // "INFO: 3 processes: 2 remote cache hit, 1 internal."
            guard let range = line.range(of: " " + kind) else { return 0 }
            return Int(line[..<range.lowerBound].split(separator: " ").last ?? "") ?? 0
        }
        let first = try build()
        XCTAssertEqual(count("linux-sandbox", in: first) + count("processwrapper-sandbox", in: first) + count("local", in: first), 3, first)
        let badge = work.appendingPathComponent("bazel-bin/badge@2x.png")
        let firstBytes = try Data(contentsOf: badge)
        XCTAssertEqual(try RasterImage(png: [UInt8](firstBytes)).width, 128)

        XCTAssertEqual(try bazel(["clean"]).status, 0)
        let cached = try build()
        XCTAssertEqual(count("remote cache hit", in: cached), 3, "every render from the disk cache: \(cached)")
        XCTAssertEqual(try Data(contentsOf: badge), firstBytes)
        // The label's font is an input and system fonts are off: Bazel's
        // sandboxed render is the one easel gives anywhere.
        let label = work.appendingPathComponent("bazel-bin/label@2x.png"), direct = dir.appendingPathComponent("label@2x.png")
        XCTAssertEqual(try ExternalTool.run(ExternalTool.easelExecutable, ["render", work.appendingPathComponent("label.scene.xml").path,
                                                                          "-o", direct.path, "--scale", "2", "--system-fonts", "no"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: label), try Data(contentsOf: direct))

        let scene = work.appendingPathComponent("badge.scene.xml")
        try String(contentsOf: scene, encoding: .utf8).replacingOccurrences(of: "#e76f51", with: "#2a9d8f")
            .write(to: scene, atomically: true, encoding: .utf8)
        let edited = try build()
        XCTAssertEqual(count("remote cache hit", in: edited), 0, edited)
        XCTAssertEqual(count("linux-sandbox", in: edited) + count("processwrapper-sandbox", in: edited) + count("local", in: edited), 1,
                       "one edited scene, one action: \(edited)")
    }

    /// The same scene gives the same bytes from another folder, another
    /// working directory, a relative or absolute path, another time, other
    /// -j, and an environment stripped or set to another locale and zone.
    func testOutputsDependOnlyOnTheSceneAndWhatItReads() throws {
        let fm = FileManager.default
        var outputs: [String: [Data]] = [:]
        let variants: [(folder: String, cwdIsFolder: Bool, env: [String], jobs: String)] = [
            ("one", false, [], "1"),
            ("two/deeper", true, ["LANG=de_DE.UTF-8", "LC_ALL=de_DE.UTF-8", "TZ=Pacific/Auckland", "HOME=/nonexistent"], "4"),
            ("three", true, ["-i", "PATH=/usr/bin:/bin"], "2"),
        ]
        for (index, v) in variants.enumerated() {
            let folder = dir.appendingPathComponent(v.folder)
            try fm.createDirectory(at: folder, withIntermediateDirectories: true)
            try fm.copyItem(at: examples.appendingPathComponent("steps-graph.scene.xml"), to: folder.appendingPathComponent("steps-graph.scene.xml"))
            try fm.copyItem(at: examples.appendingPathComponent("card.scene.xml"), to: folder.appendingPathComponent("card.scene.xml"))
            try fm.copyItem(at: examples.appendingPathComponent("data"), to: folder.appendingPathComponent("data"))
            if index > 0 { Thread.sleep(forTimeInterval: 1.1) }   // another second on the clock
            for format in ["png", "pdf", "svg"] {
                let out = folder.appendingPathComponent("out-\(format)")
                let scenes = ["steps-graph.scene.xml", "card.scene.xml"].map { v.cwdIsFolder ? $0 : folder.appendingPathComponent($0).path }
                var args = v.env + [ExternalTool.easelExecutable, "render"] + scenes
                args += ["--out-dir", out.path, "--format", format, "-j", v.jobs]
                if v.cwdIsFolder { args = ["-C", folder.path] + args }
                let r = try ExternalTool.run("/usr/bin/env", args)
                XCTAssertEqual(r.status, 0, r.stderr)
                for name in ["steps-graph", "card"] {
                    outputs["\(name).\(format)", default: []].append(try Data(contentsOf: out.appendingPathComponent("\(name).\(format)")))
                }
            }
        }
        XCTAssertEqual(outputs.count, 6)
        for (file, versions) in outputs {
            XCTAssertEqual(versions.count, 3)
            XCTAssertTrue(versions.allSatisfy { $0 == versions[0] }, "\(file) differs between folders, directories, times, -j or environments")
        }
    }
}
