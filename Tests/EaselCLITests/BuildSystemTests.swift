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

    /// The Bazel example copied to `work`, its `tools/easel` the built one.
    func bazelWorkspace(_ work: URL) throws {
        let fm = FileManager.default
        try fm.createDirectory(at: work, withIntermediateDirectories: true)
        for item in try fm.contentsOfDirectory(atPath: examples.appendingPathComponent("bazel").path)
        where !item.hasPrefix("bazel-") && item != ".bazel" {
            try fm.copyItem(at: examples.appendingPathComponent("bazel/" + item), to: work.appendingPathComponent(item))
        }
        try? fm.removeItem(at: work.appendingPathComponent("tools/easel"))
        try? fm.removeItem(at: work.appendingPathComponent("tools/easel-worker"))
        XCTAssertEqual(try ExternalTool.run(work.appendingPathComponent("setup").path, [ExternalTool.easelExecutable]).status, 0)
    }

    /// One Bazel "machine": its own output base and home. `--batch`: no
    /// server outlives the command (a server would also hold the output
    /// pipes open, and the reader would wait for it forever).
    struct BazelMachine {
        var workspace: URL
        var outputRoot: String
        var environment: [String] = []

        func bazel(_ args: [String]) throws -> ToolResult {
            try ExternalTool.run("/usr/bin/env", ["-C", workspace.path] + environment + ["bazel", "--batch", "--output_user_root=\(outputRoot)"] + args)
        }

        /// Builds everything and returns Bazel's execution log, one spawn a
        /// line: "Easel worker ran", "Easel remote-cache-hit hit", …
        func build(_ flags: [String] = [], log: URL) throws -> [String] {
            let r = try bazel(["build", "//...", "--execution_log_json_file=\(log.path)"] + flags)
            XCTAssertEqual(r.status, 0, r.stderr)
            let spawns = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../Fixtures/bazel/spawns.py").standardized
            let lines = try ExternalTool.run("python3", [spawns.path, log.path])
            XCTAssertEqual(lines.status, 0, lines.stderr)
            return lines.stdout.split(separator: "\n").map(String.init)
        }
    }

    /// The example's outputs: every PNG and the catalog's files, by path.
    func bazelOutputs(_ work: URL) throws -> [String: Data] {
        let bin = work.appendingPathComponent(".bazel/bin").resolvingSymlinksInPath()
        var files: [String: Data] = [:]
        let walk = FileManager.default.enumerator(atPath: bin.path)
        while let path = walk?.nextObject() as? String {
            guard path.hasSuffix(".png") || path.hasSuffix(".json") || path.hasSuffix(".webp") else { continue }
            files[path] = try Data(contentsOf: bin.appendingPathComponent(path))
        }
        return files
    }

    /// Bazel 4.2 offline, as the example's .bazelrc sets it up: every Easel
    /// action through one persistent worker (Bazel's own log names the
    /// runner and `--worker_verbose` the one process it started); `bazel
    /// clean` then the same --disk_cache serves every render; an edited
    /// scene runs exactly one action; the hermetic label is the picture
    /// `easel render --system-fonts no` gives outside Bazel.
    func testBazelRendersThroughThePersistentWorkerCachesAndReRunsOnlyAnEditedScene() throws {
        let work = dir.appendingPathComponent("bazel")
        try bazelWorkspace(work)
        let machine = BazelMachine(workspace: work, outputRoot: dir.appendingPathComponent("bazel-root").path)
        let cache = ["--disk_cache=\(dir.appendingPathComponent("cache").path)"]
        let verbose = try machine.bazel(["build", "//...", "--worker_verbose"] + cache)
        XCTAssertEqual(verbose.status, 0, verbose.stderr)
        // "Created new non-sandboxed Easel multiplex-worker (id 2), logging to
        // …/multiplex-worker-1-Easel.log": a proxy per request, one log per process.
        let processes = Set(verbose.stderr.split(separator: "\n").filter { $0.contains("Created new") && $0.contains(" Easel ") }
            .compactMap { $0.components(separatedBy: "logging to ").last })
        XCTAssertEqual(processes.count, 1, "one Easel worker process for the whole build: \(verbose.stderr)")
        let outputs = try bazelOutputs(work)
        XCTAssertEqual(outputs.keys.filter { $0.hasSuffix(".png") }.count, 11, "\(outputs.keys.sorted())")
        XCTAssertEqual(try RasterImage(png: [UInt8](outputs["badge@2x.png"] ?? Data())).width, 128)
        // formats = ["png", "webp"]: each scale twice, the WebP lossless (dwebp decodes the PNG's pixels).
        XCTAssertEqual(outputs.keys.filter { $0.hasSuffix(".webp") }.sorted(), ["badge.webp", "badge@2x.webp", "badge@3x.webp"])
        let decoded = dir.appendingPathComponent("badge@2x-webp.png")
        try (outputs["badge@2x.webp"] ?? Data()).write(to: dir.appendingPathComponent("badge@2x.webp"))
        XCTAssertEqual(try ExternalTool.run("dwebp", [dir.appendingPathComponent("badge@2x.webp").path, "-o", decoded.path]).status, 0)
        let difference = compare(try RasterImage(png: [UInt8](try Data(contentsOf: decoded))),
                                 try RasterImage(png: [UInt8](outputs["badge@2x.png"] ?? Data())), tolerance: 0)
        XCTAssertEqual(difference?.fractionOver, 0, "\(String(describing: difference))")
        XCTAssertNotNil(outputs["Assets.xcassets/dot.imageset/Contents.json"])
        XCTAssertNil(outputs["Assets.xcassets/.easel-build.json"], "a catalog Bazel tracks carries no manifest")

        // One process per action, in Bazel's sandbox (what remote execution
        // runs: `easel worker @PARAMS`, only declared inputs present): the
        // worker's bytes, as the two forms share cache entries.
        XCTAssertEqual(try machine.bazel(["clean"]).status, 0)
        let sandboxed = try machine.build(["--strategy=Easel=sandboxed"], log: dir.appendingPathComponent("sandboxed.json"))
        XCTAssertEqual(sandboxed.filter { $0.hasPrefix("Easel ") }, Array(repeating: "Easel linux-sandbox ran", count: 5), "\(sandboxed)")
        XCTAssertEqual(try bazelOutputs(work), outputs)

        XCTAssertEqual(try machine.bazel(["clean"]).status, 0)
        let cached = try machine.build(cache, log: dir.appendingPathComponent("cached.json"))
        XCTAssertEqual(cached.filter { $0.hasPrefix("Easel ") }, Array(repeating: "Easel remote-cache-hit hit", count: 5), "\(cached)")
        XCTAssertEqual(try bazelOutputs(work), outputs)

        // The label's font is an input and system fonts are off: Bazel's
        // render is the one easel gives anywhere.
        let direct = dir.appendingPathComponent("label@2x.png")
        XCTAssertEqual(try ExternalTool.run(ExternalTool.easelExecutable, ["render", work.appendingPathComponent("label.scene.xml").path,
                                                                          "-o", direct.path, "--scale", "2", "--system-fonts", "no"]).status, 0)
        XCTAssertEqual(outputs["label@2x.png"], try Data(contentsOf: direct))

        let scene = work.appendingPathComponent("badge.scene.xml")
        try String(contentsOf: scene, encoding: .utf8).replacingOccurrences(of: "#e76f51", with: "#2a9d8f")
            .write(to: scene, atomically: true, encoding: .utf8)
        let edited = try machine.build(cache, log: dir.appendingPathComponent("edited.json"))
        XCTAssertEqual(edited.filter { $0.hasPrefix("Easel ") }, ["Easel worker ran"], "one edited scene, one action: \(edited)")

        // Hermetic by default: a text with no declared font fails its
        // target, located, rather than taking this machine's DejaVu Sans.
        try #"<scene width="40" height="20"><text x="2" y="2" font-size="10">Hi</text></scene>"#
            .write(to: work.appendingPathComponent("plain.scene.xml"), atomically: true, encoding: .utf8)
        let build = work.appendingPathComponent("BUILD")
        try (String(contentsOf: build, encoding: .utf8) + "\neasel_image(name = \"plain\", scene = \"plain.scene.xml\")\n")
            .write(to: build, atomically: true, encoding: .utf8)
        let plain = try machine.bazel(["build", "//:plain"] + cache)
        XCTAssertNotEqual(plain.status, 0)
        XCTAssertTrue(plain.stderr.contains("plain.scene.xml:1:31: error: no font of this compile has the characters U+0048 'H'"), plain.stderr)
    }

    /// A real HTTP remote cache (nginx with WebDAV PUT, started here on
    /// 127.0.0.1 by examples/bazel/remote-cache/serve): one machine builds
    /// and fills it, its output base is wiped, a second machine (another
    /// output base, HOME, fontconfig file and cache folder) builds the same
    /// workspace with every Easel action a remote cache hit and the same
    /// bytes; a changed CSV then runs exactly one Easel action.
    func testASecondMachineIsServedEntirelyFromAnHTTPRemoteCache() throws {
        let work = dir.appendingPathComponent("bazel")
        try bazelWorkspace(work)
        let store = dir.appendingPathComponent("remote-cache")
        var server: Process?
        var port = 0
        for attempt in 0..<5 {
            port = 20_000 + Int(getpid() % 20_000) + attempt * 97
            let process = Process()
            process.executableURL = work.appendingPathComponent("remote-cache/serve")
            process.arguments = [String(port), store.path]
            process.standardOutput = FileHandle.nullDevice
            let errors = Pipe()
            process.standardError = errors
            try process.run()
            // Ready when it answers (a miss is a 404); gone if the port was taken.
            var ready = false
            for _ in 0..<100 where process.isRunning {
                // Our nginx (not another server on the port): a miss is its 404.
                if let r = try? ExternalTool.run("curl", ["-s", "-D", "-", "-o", "/dev/null", "http://127.0.0.1:\(port)/ac/none"]),
                   r.stdout.hasPrefix("HTTP/1.1 404"), r.stdout.lowercased().contains("server: nginx"), process.isRunning { ready = true; break }
                Thread.sleep(forTimeInterval: 0.05)
            }
            if ready { server = process; break }
            if process.isRunning { process.terminate() }
        }
        guard let server else { return XCTFail("nginx did not start on 127.0.0.1") }
        defer { server.terminate(); server.waitUntilExit() }
        let remote = ["--remote_cache=http://127.0.0.1:\(port)"]

        let first = BazelMachine(workspace: work, outputRoot: dir.appendingPathComponent("machine-1").path,
                                 environment: ["HOME=\(dir.appendingPathComponent("home-1").path)"])
        let filled = try first.build(remote, log: dir.appendingPathComponent("first.json"))
        XCTAssertEqual(filled.filter { $0.hasPrefix("Easel ") }, Array(repeating: "Easel worker ran", count: 5), "\(filled)")
        let outputs = try bazelOutputs(work)
        XCTAssertEqual(outputs.keys.filter { $0.hasSuffix(".png") }.count, 11)
        XCTAssertEqual(try first.bazel(["clean", "--expunge"]).status, 0)
        _ = try ExternalTool.run("chmod", ["-R", "u+w", first.outputRoot])
        try FileManager.default.removeItem(atPath: first.outputRoot)

        // Another machine: nothing of the first's output base, another
        // home, a fontconfig file with no fonts, another cache folder.
        let fontconfig = dir.appendingPathComponent("empty-fonts.conf")
        try "<fontconfig></fontconfig>\n".write(to: fontconfig, atomically: true, encoding: .utf8)
        let second = BazelMachine(workspace: work, outputRoot: dir.appendingPathComponent("machine-2").path,
                                  environment: ["HOME=\(dir.appendingPathComponent("home-2").path)", "FONTCONFIG_FILE=\(fontconfig.path)",
                                                "XDG_CACHE_HOME=\(dir.appendingPathComponent("xdg-2").path)"])
        let served = try second.build(remote, log: dir.appendingPathComponent("second.json"))
        XCTAssertEqual(served.filter { $0.hasPrefix("Easel ") }, Array(repeating: "Easel remote-cache-hit hit", count: 5),
                       "every Easel action from the remote cache: \(served)")
        XCTAssertEqual(try bazelOutputs(work), outputs, "the second machine's files are the first's, byte for byte")
        // And rendered there rather than fetched: the same bytes again.
        XCTAssertEqual(try second.bazel(["clean"]).status, 0)
        let again = try second.build(remote + ["--noremote_accept_cached", "--noremote_upload_local_results"], log: dir.appendingPathComponent("again.json"))
        XCTAssertEqual(again.filter { $0.hasPrefix("Easel ") }, Array(repeating: "Easel worker ran", count: 5), "\(again)")
        XCTAssertEqual(try bazelOutputs(work), outputs, "rendered on the second machine: the first's bytes")

        let csv = work.appendingPathComponent("data/week.csv")
        try String(contentsOf: csv, encoding: .utf8).replacingOccurrences(of: "Sun,3", with: "Sun,9").write(to: csv, atomically: true, encoding: .utf8)
        let changed = try second.build(remote, log: dir.appendingPathComponent("changed.json"))
        XCTAssertEqual(changed.filter { $0.hasPrefix("Easel ") }, ["Easel worker ran"], "one changed CSV, one action: \(changed)")
        XCTAssertNotEqual(try bazelOutputs(work)["week.png"], outputs["week.png"])
        XCTAssertEqual(try second.bazel(["shutdown"]).status, 0)
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
