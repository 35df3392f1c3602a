import Easel
import EaselTestSupport
import Foundation
import XCTest

/// `easel build`: incremental by content, removals, manifests, depfiles and
/// asset catalogs, run through the built executable.
final class BuildTests: XCTestCase {
    var dir: URL!, src: URL!, out: URL!
    override func setUp() {
        dir = ExternalTool.temporaryDirectory(name)
        src = dir.appendingPathComponent("scenes")
        out = dir.appendingPathComponent("out")
    }

    func easel(_ args: [String]) throws -> ToolResult { try ExternalTool.run(ExternalTool.easelExecutable, args) }

    func put(_ relative: String, _ text: String) throws {
        let url = src.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func makeTree() throws {
        try put("card.scene.xml", "<scene width=\"20\" height=\"10\"><defs><color name=\"brand\" value=\"#fc4f08\"/></defs><rect fill=\"brand\"/></scene>")
        try put("icons/dot.scene.xml", "<scene width=\"8\" height=\"8\"><circle cx=\"4\" cy=\"4\" r=\"3\"/></scene>")
        try put("graphs/water.scene.xml", "<scene width=\"40\" height=\"20\"><lineGraph src=\"water.csv\" column=\"v\" padding=\"2\"/></scene>")
        try put("graphs/water.csv", "v\n1\n3\n2\n")
    }

    /// Modification times of everything under `out`, by relative path.
    func stamps() throws -> [String: Date] {
        var result: [String: Date] = [:]
        let walker = FileManager.default.enumerator(atPath: out.path)!
        while let item = walker.nextObject() as? String {
            let attrs = try FileManager.default.attributesOfItem(atPath: out.appendingPathComponent(item).path)
            if (attrs[.type] as? FileAttributeType) == .typeRegular { result[item] = attrs[.modificationDate] as? Date }
        }
        return result
    }

    func build(_ extra: [String] = []) throws -> ToolResult {
        try easel(["build", src.path, "-o", out.path, "--scales", "1,2"] + extra)
    }

    /// Adds to the output folder's manifest a scene that is gone, with these
    /// outputs: what the next build must remove (or refuse to).
    func addGoneScene(outputs: [String]) throws {
        let manifest = out.appendingPathComponent(".easel-build.json")
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        var scenes = try XCTUnwrap(json["scenes"] as? [String: Any])
        scenes["gone.scene.xml"] = ["inputs": [], "outputs": outputs]
        json["scenes"] = scenes
        try JSONSerialization.data(withJSONObject: json).write(to: manifest)
    }

    /// A build removes the outputs its manifest lists for scenes that are
    /// gone; a manifest from elsewhere naming a path outside the output
    /// folder is not read (and nothing outside is touched).
    func testManifestCannotRemoveFilesOutsideTheOutputFolder() throws {
        try makeTree()
        XCTAssertEqual(try build().status, 0)
        let victim = dir.appendingPathComponent("victim.txt")
        try Data("keep me".utf8).write(to: victim)
        try addGoneScene(outputs: ["../victim.txt"])
        let manifest = out.appendingPathComponent(".easel-build.json")
        let r = try build()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("is not a build manifest this Easel reads"), r.stderr)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "keep me")
        XCTAssertEqual(AssetBuild.manifestSceneCount(Array(try Data(contentsOf: manifest))), 3, "rewritten, valid")
    }

    /// A manifest naming a stale output behind a symbolic link in the output
    /// folder (`x → elsewhere`) removes nothing there: a warning names the
    /// link, and the file outside and its folder stay.
    func testStaleOutputsAreNeverRemovedThroughALink() throws {
        try makeTree()
        XCTAssertEqual(try build().status, 0)
        let elsewhere = dir.appendingPathComponent("elsewhere")
        let victim = elsewhere.appendingPathComponent("keep/config")
        try FileManager.default.createDirectory(at: victim.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data("keep me".utf8).write(to: victim)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("x"), withDestinationURL: elsewhere)
        try addGoneScene(outputs: ["x/keep/config"])
        let r = try build()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning: not removing 'x/keep/config'") && r.stderr.contains("'x' is a symbolic link"), r.stderr)
        XCTAssertFalse(r.stdout.contains("removed x/keep/config"), r.stdout)
        XCTAssertEqual(try String(contentsOf: victim, encoding: .utf8), "keep me")
        // A stale output inside, reached through real folders, still goes.
        try FileManager.default.removeItem(at: src.appendingPathComponent("icons/dot.scene.xml"))
        let again = try build()
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("removed icons/dot.png"), again.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("icons/dot.png").path))
    }

    /// A manifest that cannot be written (a folder stands at its path) fails
    /// the build with a message naming it: the next build must not trust an
    /// old one.
    func testAManifestThatCannotBeWrittenFailsTheBuild() throws {
        try makeTree()
        let manifest = out.appendingPathComponent(".easel-build.json")
        try FileManager.default.createDirectory(at: manifest, withIntermediateDirectories: true)
        let r = try build()
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("error: cannot") && r.stderr.contains(".easel-build.json"), r.stderr)
    }

    /// A symbolic link inside the output folder where an output's folder
    /// goes is never written through: the build fails naming it, and the
    /// folder it points to stays empty.
    func testOutputsAreNeverWrittenThroughALink() throws {
        try makeTree()
        let elsewhere = dir.appendingPathComponent("elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: out.appendingPathComponent("graphs"), withDestinationURL: elsewhere)
        let r = try build()
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("'graphs' in the output folder is a symbolic link, and a build writes nothing outside its output folder"), r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: elsewhere.path), [])
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("card.png").path), "the other scenes are built")
    }

    /// A catalog whose colour set or group file cannot be written fails the
    /// build naming it (both were written with `try?` and ignored).
    func testCatalogFilesThatCannotBeWrittenFailTheBuild() throws {
        try makeTree()
        let catalog = dir.appendingPathComponent("Assets.xcassets")
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        // A file where the colour set's folder goes.
        try Data("in the way".utf8).write(to: catalog.appendingPathComponent("brand.colorset"))
        let r = try easel(["build", src.path, "-o", catalog.path, "--xcassets"])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("error: cannot write") && r.stderr.contains("brand.colorset/Contents.json"), r.stderr)
        try FileManager.default.removeItem(at: catalog.appendingPathComponent("brand.colorset"))
        // A file where a group's folder goes: the imageset inside it fails,
        // with the reason.
        try FileManager.default.removeItem(at: catalog)
        try FileManager.default.createDirectory(at: catalog, withIntermediateDirectories: true)
        try Data("in the way".utf8).write(to: catalog.appendingPathComponent("graphs"))
        let group = try easel(["build", src.path, "-o", catalog.path, "--xcassets"])
        XCTAssertEqual(group.status, 1, group.stderr)
        XCTAssertTrue(group.stderr.contains("error: cannot write") && group.stderr.contains("graphs/water.imageset/water.png': cannot create its folder")
                      && group.stderr.contains("Not a directory"), group.stderr)
    }

    func testIncrementalByContentRemovalsAndOptions() throws {
        try makeTree()
        var r = try build()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stdout.contains("3 rendered, 0 up to date"), r.stdout)
        for file in ["card.png", "card@2x.png", "icons/dot.png", "icons/dot@2x.png", "graphs/water.png", "graphs/water@2x.png"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent(file).path), file)
        }
        XCTAssertEqual(try RasterImage(png: [UInt8](try Data(contentsOf: out.appendingPathComponent("card@2x.png")))).width, 40)
        try Data("mine".utf8).write(to: out.appendingPathComponent("notes.txt"))   // not Easel's

        r = try build()
        XCTAssertTrue(r.stdout.contains("nothing to do, 3 up to date"), r.stdout)

        // A new mtime with the same bytes is no change; new bytes are.
        let before = try stamps()
        try put("icons/dot.scene.xml", "<scene width=\"8\" height=\"8\"><circle cx=\"4\" cy=\"4\" r=\"3\"/></scene>")
        // A later modification time, set rather than waited for.
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: 5)],
                                              ofItemAtPath: src.appendingPathComponent("icons/dot.scene.xml").path)
        XCTAssertTrue(try build().stdout.contains("nothing to do"))
        try put("graphs/water.csv", "v\n1\n3\n5\n")
        r = try build()
        XCTAssertTrue(r.stdout.contains("rendered graphs/water.scene.xml") && r.stdout.contains("1 rendered, 2 up to date"), r.stdout)
        let after = try stamps()
        XCTAssertEqual(after["card.png"], before["card.png"], "untouched scenes keep their files")
        XCTAssertNotEqual(after["graphs/water.png"], before["graphs/water.png"], "the scene that read the CSV is rendered again")

        // Another option: everything again.
        XCTAssertTrue(try build(["--max-nodes", "5000"]).stdout.contains("3 rendered"))

        // A deleted scene's outputs go; files Easel did not write stay.
        try FileManager.default.removeItem(at: src.appendingPathComponent("icons/dot.scene.xml"))
        r = try build(["--max-nodes", "5000"])
        XCTAssertTrue(r.stdout.contains("removed icons/dot.png") && r.stdout.contains("2 removed"), r.stdout)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.appendingPathComponent("icons").path), "its emptied folder too")
        XCTAssertEqual(try String(contentsOf: out.appendingPathComponent("notes.txt"), encoding: .utf8), "mine")
    }

    /// A build records how its PNGs were encoded (level, filters, libdeflate's
    /// version): outputs recorded with another encoding — an Easel whose
    /// default changed — are written again, not kept as up to date.
    func testOutputsRecordedWithAnotherPNGEncodingAreWrittenAgain() throws {
        try makeTree()
        XCTAssertEqual(try build().status, 0)
        let manifest = out.appendingPathComponent(AssetBuild.manifestName)
        var json = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(contentsOf: manifest)) as? [String: Any])
        let options = try XCTUnwrap(json["options"] as? String)
        XCTAssertTrue(options.contains("png=" + PNGCompression.default.encoding + " "), "the encoding is recorded: \(options)")
        let card = out.appendingPathComponent("card.png")
        let fresh = try Data(contentsOf: card)
        try Data("written by an older encoder".utf8).write(to: card)
        XCTAssertEqual(try build().status, 0)
        XCTAssertEqual(try Data(contentsOf: card).count, "written by an older encoder".utf8.count, "same encoding: up to date")
        json["options"] = options.replacingOccurrences(of: PNGCompression.default.encoding, with: "default 3/2 3/4 libdeflate 1.14")
        try JSONSerialization.data(withJSONObject: json).write(to: manifest)
        XCTAssertEqual(try build().status, 0)
        XCTAssertEqual(try Data(contentsOf: card), fresh, "another encoding: written again")
    }

    /// Outputs are not flushed one by one; a build flushes its output
    /// folder once, after its outputs are in place and before the manifest
    /// that lists them — also when the manifest's bytes do not change (an
    /// output removed by hand and rendered again) — and not at all when it
    /// wrote nothing. strace watches the process from outside.
    func testABuildFlushesOnceBeforeItsManifestAndRenderNever() throws {
        try makeTree()
        // Inputs a minute old: a manifest records an input's time only once
        // it is two seconds old (`FileTime.trusted`), so a build that ran
        // past that age (a slow, sanitized one) would record a new time and
        // rewrite the manifest for that reason alone.
        let enumerator = FileManager.default.enumerator(atPath: src.path)
        while let name = enumerator?.nextObject() as? String {
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -60)],
                                                  ofItemAtPath: src.appendingPathComponent(name).path)
        }
        let log = dir.appendingPathComponent("strace.log")
        func traced(_ args: [String]) throws -> [String] {
            // LeakSanitizer cannot run under ptrace (CI's AddressSanitizer stage).
            let r = try ExternalTool.run("/usr/bin/env", ["ASAN_OPTIONS=detect_leaks=0", "strace", "-f", "-e", "trace=fsync,fdatasync,syncfs,renameat,renameat2",
                                                          "-o", log.path, ExternalTool.easelExecutable] + args)
            XCTAssertEqual(r.status, 0, r.stderr)
            return String(decoding: try Data(contentsOf: log), as: UTF8.self).split(separator: "\n").map(String.init)
                // A call two threads overlap is split in two lines; its "resumed" half is not another call.
                .filter { ($0.contains("sync") || $0.contains("rename")) && !$0.contains("resumed>") }
        }
        func order(_ lines: [String]) -> [String] {
            lines.compactMap { line in
                if line.contains("fsync(") || line.contains("fdatasync(") { return "fsync" }
                if line.contains("syncfs(") { return "syncfs" }
                if line.contains(AssetBuild.manifestName + "\"") { return "manifest" }
                if line.contains("rename") { return "output" }
                return nil
            }
        }
        let first = order(try traced(["build", src.path, "-o", out.path]))
        XCTAssertEqual(first.filter { $0 == "output" }.count, 3, "\(first)")
        XCTAssertEqual(first.filter { $0 != "output" }, ["syncfs", "manifest"], "one flush, then the manifest: \(first)")
        XCTAssertEqual(first.last, "manifest")
        XCTAssertEqual(order(try traced(["build", src.path, "-o", out.path])), [], "nothing written, nothing flushed")
        try FileManager.default.removeItem(at: out.appendingPathComponent("card.png"))
        XCTAssertEqual(order(try traced(["build", src.path, "-o", out.path])), ["output", "syncfs"], "the same manifest, flushed outputs")
        let scene = src.appendingPathComponent("card.scene.xml").path
        XCTAssertEqual(order(try traced(["render", scene, "-o", dir.appendingPathComponent("card.png").path])), ["output"])
    }

    func testCorruptManifestMeansAFullRebuildWithAWarning() throws {
        try makeTree()
        XCTAssertEqual(try build().status, 0)
        try Data("{ not json".utf8).write(to: out.appendingPathComponent(AssetBuild.manifestName))
        let r = try build()
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("warning:") && r.stderr.contains("building everything again"), r.stderr)
        XCTAssertTrue(r.stdout.contains("3 rendered"), r.stdout)
        XCTAssertTrue(try build().stdout.contains("nothing to do"), "the manifest is whole again")
    }

    func testDepfileListsEveryFileEachSceneRead() throws {
        try makeTree()
        try put("dir with space/logo.scene.xml", "<scene width=\"4\" height=\"4\"><rect/></scene>")
        let depfile = dir.appendingPathComponent("build.d")
        XCTAssertEqual(try build(["--depfile", depfile.path]).status, 0)
        // Parsed as Make reads it: unescape "\ ", split targets from prerequisites.
        var rules: [String: [String]] = [:]
        for line in try String(contentsOf: depfile, encoding: .utf8).split(separator: "\n") {
            let parts = line.components(separatedBy: ": ")
            func words(_ s: String) -> [String] {
                s.replacingOccurrences(of: "\\ ", with: "\u{0}").split(separator: " ").map { $0.replacingOccurrences(of: "\u{0}", with: " ") }
            }
            for target in words(parts[0]) { rules[target] = words(parts[1]) }
        }
        let real = { (p: String) in URL(fileURLWithPath: p).resolvingSymlinksInPath().path }
        let water = rules[out.appendingPathComponent("graphs/water@2x.png").path]
        XCTAssertEqual(water?.map(real), [src.appendingPathComponent("graphs/water.scene.xml").path, src.appendingPathComponent("graphs/water.csv").path].map(real))
        XCTAssertNotNil(rules[out.appendingPathComponent("dir with space/logo.png").path], rules.keys.sorted().joined(separator: "\n"))
    }

    /// An SVG image is a file its scene reads: the depfile lists it, a
    /// change to it renders exactly the scenes that draw it again, and a
    /// build with it unchanged renders nothing.
    func testAChangedSVGImageRendersExactlyItsScenes() throws {
        try makeTree()
        let logo = ##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c33"/></svg>"##
        try put("art/logo.svg", logo)
        try put("art/badge.scene.xml", #"<scene width="20" height="20"><image href="logo.svg" width="20" height="20"/></scene>"#)
        try put("art/plain.scene.xml", ##"<scene width="20" height="20"><rect fill="#3c3"/></scene>"##)
        let depfile = dir.appendingPathComponent("build.d")
        var r = try build(["--depfile", depfile.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let deps = try String(contentsOf: depfile, encoding: .utf8)
        let badgeRule = try XCTUnwrap(deps.split(separator: "\n").first { $0.hasPrefix(out.appendingPathComponent("art/badge.png").path + " ") }, deps)
        XCTAssertTrue(badgeRule.contains("art/logo.svg"), String(badgeRule))
        XCTAssertTrue(try build().stdout.contains("nothing to do, 5 up to date"))
        try put("art/logo.svg", logo.replacingOccurrences(of: "#c33", with: "#33c"))
        r = try build()
        XCTAssertTrue(r.stdout.contains("rendered art/badge.scene.xml") && r.stdout.contains("1 rendered, 4 up to date"), r.stdout)
        let badge = try RasterImage(png: [UInt8](try Data(contentsOf: out.appendingPathComponent("art/badge@2x.png"))))
        assertPixel(badge, 20, 20, ExpectedColor(hex: "#3333cc"), tolerance: 2, "the new colour")
    }

    func testAssetCatalogIsValid() throws {
        try makeTree()
        let catalog = dir.appendingPathComponent("Assets.xcassets")
        let r = try easel(["build", src.path, "-o", catalog.path, "--scales", "1,2,3", "--xcassets"])
        XCTAssertEqual(r.status, 0, r.stderr)
        // Every Contents.json parses; every image it names exists at its scale's pixel size.
        let walker = FileManager.default.enumerator(atPath: catalog.path)!
        var imagesets = 0, colorsets = 0
        while let item = walker.nextObject() as? String {
            guard item.hasSuffix("Contents.json") else { continue }
            let url = catalog.appendingPathComponent(item)
            let json = try XCTUnwrap(try JSONSerialization.jsonObject(with: try Data(contentsOf: url)) as? [String: Any], item)
            XCTAssertEqual((json["info"] as? [String: Any])?["version"] as? Int, 1, item)
            if item.contains(".imageset/") {
                imagesets += 1
                let images = try XCTUnwrap(json["images"] as? [[String: Any]])
                XCTAssertEqual(images.compactMap { $0["scale"] as? String }, ["1x", "2x", "3x"], item)
                let sized = item.hasPrefix("card") ? 20 : item.contains("dot") ? 8 : 40
                for image in images {
                    XCTAssertEqual(image["idiom"] as? String, "universal")
                    let file = url.deletingLastPathComponent().appendingPathComponent(image["filename"] as! String)
                    let scale = Int((image["scale"] as! String).dropLast())!
                    XCTAssertEqual(try RasterImage(png: [UInt8](try Data(contentsOf: file))).width, sized * scale, file.path)
                }
            } else if item.contains(".colorset/") {
                colorsets += 1
                let colors = try XCTUnwrap(json["colors"] as? [[String: Any]])
                let c = try XCTUnwrap(colors.first?["color"] as? [String: Any])
                XCTAssertEqual(c["color-space"] as? String, "srgb")
                XCTAssertEqual((c["components"] as? [String: String])?["red"], "0.988")   // #fc = 252/255
            }
        }
        XCTAssertEqual(imagesets, 3)
        XCTAssertEqual(colorsets, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: catalog.appendingPathComponent("Contents.json").path))
        XCTAssertTrue(FileManager.default.fileExists(atPath: catalog.appendingPathComponent("graphs/Contents.json").path), "folders are groups")
        // PDF: one vector image per imageset.
        let vector = dir.appendingPathComponent("Vector.xcassets")
        let pdf = try easel(["build", src.path, "-o", vector.path, "--xcassets", "--formats", "pdf"])
        XCTAssertEqual(pdf.status, 0, pdf.stderr)
        let json = try JSONSerialization.jsonObject(with: try Data(contentsOf: vector.appendingPathComponent("card.imageset/Contents.json"))) as? [String: Any]
        XCTAssertEqual((json?["properties"] as? [String: Any])?["preserves-vector-representation"] as? Bool, true)
    }

    func testBuildsOnThreadsMatchAndFailuresAreIsolated() throws {
        try makeTree()
        try put("broken.scene.xml", "<scene width=\"8\" height=\"8\"><rect fill=\"blu\"/></scene>")
        var trees: [[String: Data]] = []
        for jobs in ["1", "4"] {
            try? FileManager.default.removeItem(at: out)
            let r = try build(["-j", jobs])
            XCTAssertEqual(r.status, 1, "one scene is broken")
            XCTAssertTrue(r.stderr.contains("\(src.path)/broken.scene.xml:1:") && r.stderr.contains("'blu' is not a colour"), r.stderr)
            XCTAssertTrue(r.stdout.contains("3 rendered, 0 up to date, 1 failed"), r.stdout)
            var files: [String: Data] = [:]
            for (path, _) in try stamps() where !path.hasPrefix(".") { files[path] = try Data(contentsOf: out.appendingPathComponent(path)) }
            trees.append(files)
        }
        XCTAssertEqual(trees[0], trees[1], "-j 4 writes the same bytes as -j 1")
        // Fixed, it renders; the others stay up to date.
        try put("broken.scene.xml", "<scene width=\"8\" height=\"8\"><rect fill=\"blue\"/></scene>")
        XCTAssertTrue(try build().stdout.contains("1 rendered, 3 up to date"))
    }

    func testRenderCorrections() throws {
        try makeTree()
        let scene = src.appendingPathComponent("card.scene.xml").path
        var r = try easel(["render", scene, "-o", dir.appendingPathComponent("new/folder/card.png").path])
        XCTAssertEqual(r.status, 0, "-o creates its folder: " + r.stderr)
        r = try easel(["render", scene, "-o", dir.appendingPathComponent("x.svg").path, "--format", "png"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("disagree"), r.stderr)
        r = try easel(["render", scene, "-o", dir.appendingPathComponent("x.png").path, "--bogus", "3"])
        XCTAssertEqual(r.status, 2)
        XCTAssertTrue(r.stderr.contains("unknown option '--bogus'"), r.stderr)
        let depfile = dir.appendingPathComponent("render.d")
        r = try easel(["render", src.appendingPathComponent("graphs/water.scene.xml").path, "-o", dir.appendingPathComponent("w.png").path,
                       "--depfile", depfile.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(try String(contentsOf: depfile, encoding: .utf8).contains("water.csv"))
    }

    func testWatchThreadRebuildsAnEditAndCtrlCStops() throws {
        try makeTree()
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ExternalTool.easelExecutable)
        p.arguments = ["build", src.path, "-o", out.path, "--watch"]
        let pipe = Pipe()
        p.standardOutput = pipe
        p.standardError = FileHandle.nullDevice
        let log = Locked("")
        pipe.fileHandleForReading.readabilityHandler = { h in
            let text = String(decoding: h.availableData, as: UTF8.self)
            log.withLock { $0 += text }
        }
        try p.run()
        defer { if p.isRunning { p.terminate() } }
        func wait(for text: String, after offset: Int, seconds: Double) -> Bool {
            let end = Date().addingTimeInterval(seconds)
            while Date() < end {
                if log.withLock({ String($0.dropFirst(offset)) }).contains(text) { return true }
                Thread.sleep(forTimeInterval: 0.01)
            }
            return false
        }
        XCTAssertTrue(wait(for: "watching", after: 0, seconds: EventWait.timeout), log.withLock { $0 })
        let mark = log.withLock { $0.count }
        try put("graphs/water.csv", "v\n9\n3\n5\n")
        XCTAssertTrue(wait(for: "rendered graphs/water.scene.xml", after: mark, seconds: EventWait.timeout), log.withLock { $0 })
        XCTAssertFalse(log.withLock { String($0.dropFirst(mark)) }.contains("card.scene.xml"), "only the scene that read the CSV")
        kill(p.processIdentifier, SIGINT)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 130, "Ctrl-C ends a watch as it ends every command")
    }

    /// Eight scenes at three scales, built on two threads; each thread is
    /// held after its first PNG (TestPause), and Ctrl-C arrives then: no
    /// scene starts after it, the scenes under way finish, are whole and
    /// recorded, and the build exits 130 — so the next build renders only
    /// the rest, whatever the machine's speed. (Before 1.3 the process ended
    /// at once and recorded nothing: the next build rendered all eight.)
    func testBuildInterruptedOnTwoThreadsRecordsTheScenesItFinished() throws {
        for i in 0..<8 {
            try put("s\(i).scene.xml", """
            <scene width="400" height="300"><defs><linearGradient id="g" angle="\(i * 45)"><stop color="red"/><stop color="blue"/></linearGradient></defs>
            <rect width="400" height="300" fill="url(#g)"/><text x="\(i)" y="20" font-size="30">Scene \(i)</text></scene>
            """)
        }
        let held = try HeldProcess(["build", src.path, "-o", out.path, "--scales", "1,2,3", "-j", "2"], pauseAt: "written:.png")
        XCTAssertTrue(held.channel.waitForPause("written", ".png"), "no PNG written")
        kill(held.process.processIdentifier, SIGINT)
        XCTAssertNotNil(held.channel.errors.waitForLine { $0.contains("stopping once the scenes under way are written") }, "Ctrl-C not noted")
        held.finish()
        XCTAssertEqual(held.process.terminationStatus, 130, "interrupted mid-build: \(held.channel.stderr())")
        let written = (try? FileManager.default.contentsOfDirectory(atPath: out.path)) ?? []
        let pngs = written.filter { $0.hasSuffix(".png") }
        // One or two scenes were under way (the second thread may not have
        // taken its scene yet): each finished at all three scales.
        XCTAssertTrue([3, 6].contains(pngs.count), "the scenes under way, whole: \(pngs.sorted())")
        XCTAssertFalse(written.contains { $0.contains(".easel-") && $0 != AssetBuild.manifestName }, written.joined(separator: " "))
        for name in pngs {
            XCTAssertNoThrow(try RasterImage(png: [UInt8](try Data(contentsOf: out.appendingPathComponent(name)))), name)
        }
        // The next build renders only the scenes that were not finished, and matches a clean one.
        let finished = pngs.count / 3
        let next = try build(["--scales", "1,2,3"])
        XCTAssertEqual(next.status, 0, next.stderr)
        XCTAssertTrue(next.stdout.contains("easel build: \(8 - finished) rendered, \(finished) up to date"), next.stdout)
        let clean = dir.appendingPathComponent("clean")
        XCTAssertEqual(try easel(["build", src.path, "-o", clean.path, "--scales", "1,2,3"]).status, 0)
        for name in try FileManager.default.contentsOfDirectory(atPath: clean.path) where name.hasSuffix(".png") {
            XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent(name)), try Data(contentsOf: clean.appendingPathComponent(name)), name)
        }
    }

    /// A second Ctrl-C stops the build at once, held threads and all.
    func testASecondCtrlCStopsTheBuildAtOnce() throws {
        for i in 0..<4 { try put("s\(i).scene.xml", "<scene width=\"40\" height=\"30\"><rect width=\"\(i + 1)\" height=\"3\"/></scene>") }
        let held = try HeldProcess(["build", src.path, "-o", out.path, "-j", "2"], pauseAt: "written:.png")
        XCTAssertTrue(held.channel.waitForPause("written", ".png"), "no PNG written")
        kill(held.process.processIdentifier, SIGINT)
        XCTAssertNotNil(held.channel.errors.waitForLine { $0.contains("stopping once the scenes under way are written") })
        kill(held.process.processIdentifier, SIGINT)
        XCTAssertTrue(held.waitForExit(), "a second Ctrl-C did not stop the build")
        held.finish()
        XCTAssertEqual(held.process.terminationStatus, 130)
    }

    /// A build held after writing its first file, and a second build of
    /// the same folder that has said it waits for the first.
    func twoBuildsOfOneFolder() throws -> (first: HeldProcess, second: HeldProcess) {
        try put("a.scene.xml", "<scene width=\"40\" height=\"30\"><rect width=\"4\" height=\"3\"/></scene>")
        let first = try HeldProcess(["build", src.path, "-o", out.path], pauseAt: "written:a.png")
        XCTAssertTrue(first.channel.waitForPause("written", "a.png"))
        let second = try HeldProcess(["build", src.path, "-o", out.path], pauseAt: "")
        XCTAssertNotNil(second.channel.errors.waitForLine { $0.contains("easel build: waiting for another build of '\(self.out.path)' to finish") },
                        "the second build did not wait: \(second.channel.stderr())")
        return (first, second)
    }

    /// Two builds of one output folder at once: the second waits for the
    /// first (which holds the folder's lock) and then finds everything up
    /// to date — no interleaved manifests.
    func testASecondBuildOfAFolderWaitsForTheFirst() throws {
        let (first, second) = try twoBuildsOfOneFolder()
        first.finish()
        second.finish()
        XCTAssertEqual(first.process.terminationStatus, 0)
        XCTAssertEqual(second.process.terminationStatus, 0, second.channel.stderr())
        XCTAssertEqual(AssetBuild.manifestSceneCount(Array(try Data(contentsOf: out.appendingPathComponent(AssetBuild.manifestName)))), 1)
    }

    /// Ctrl-C stops a build that waits for another's lock, at once, with
    /// nothing written by it. (A blocking `flock` is restarted after the
    /// signal: the build kept waiting.)
    func testCtrlCStopsABuildWaitingForAnother() throws {
        let (first, second) = try twoBuildsOfOneFolder()
        kill(second.process.processIdentifier, SIGINT)
        XCTAssertTrue(second.waitForExit(), "Ctrl-C did not stop the waiting build")
        second.finish()
        XCTAssertEqual(second.process.terminationStatus, 130, second.channel.stderr())
        first.finish()
        XCTAssertEqual(first.process.terminationStatus, 0)
        XCTAssertEqual(AssetBuild.manifestSceneCount(Array(try Data(contentsOf: out.appendingPathComponent(AssetBuild.manifestName)))), 1)
    }

    /// Every output gets 0644 less the umask, written through an unnamed
    /// temporary file or (where the file system has none) a named one.
    /// (Before 1.3 the named way forced 0644 whatever the umask.)
    func testOutputModesFollowTheUmaskEitherWay() throws {
        try put("a.scene.xml", "<scene width=\"40\" height=\"30\"><rect width=\"4\" height=\"3\"/></scene>")
        for (label, env) in [("unnamed", ""), ("named", "EASEL_TEST_NAMED_TEMPORARY=1 ")] {
            let folder = dir.appendingPathComponent(label)
            let r = try ExternalTool.run("sh", ["-c", "umask 027; \(env)exec \"$0\" build \"$1\" -o \"$2\"", ExternalTool.easelExecutable, src.path, folder.path])
            XCTAssertEqual(r.status, 0, r.stderr)
            for name in ["a.png", AssetBuild.manifestName] {
                let mode = try XCTUnwrap(FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(name).path)[.posixPermissions] as? Int)
                XCTAssertEqual(mode, 0o640, "\(label): \(name) has mode \(String(mode, radix: 8))")
            }
            let left = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.contains(".easel-") && $0 != AssetBuild.manifestName }
            XCTAssertEqual(left, [], "\(label): temporary files left")
        }
    }
}
