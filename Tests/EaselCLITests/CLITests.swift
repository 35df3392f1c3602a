import Easel
import EaselTestSupport
import Foundation
import XCTest

/// End-to-end: the built `easel` executable, its exit codes, stdout and
/// stderr (as swift-argument-parser tests its tools).
final class CLITests: XCTestCase, CommandLineTesting {
    var dir: URL!
    /// A misspelt option gets the nearest one the command has, as misspelt
    /// attributes do (`--colour-space` on render and build, `--depfil`):
    /// still a command-line error, exit 2.
    func testAnUnknownOptionSuggestsTheNearestOne() throws {
        let folder = ExternalTool.temporaryDirectory(name)
        for (arguments, right) in [(["render", "x.scene.xml", "--colour-space", "srgb"], "--color-space"),
                                   (["build", folder.path, "-o", folder.appendingPathComponent("out").path, "--colour-space", "srgb"], "--color-space"),
                                   (["render", "x.scene.xml", "--depfil", "d"], "--depfile"),
                                   (["check", "x.scene.xml", "--max-pixel", "9"], "--max-pixels")] {
            let r = try ExternalTool.run(ExternalTool.easelExecutable, arguments)
            XCTAssertEqual(r.status, 2, r.stderr)
            XCTAssertTrue(r.stderr.lowercased().contains("did you mean '\(right)'?"), "\(arguments[0]): \(r.stderr)")
            XCTAssertEqual(r.stderr.lowercased().components(separatedBy: "did you mean").count, 2, "one suggestion: \(r.stderr)")
        }
        // A misspelt command, which ArgumentParser takes for stray arguments.
        let command = try ExternalTool.run(ExternalTool.easelExecutable, ["rendr", "x.scene.xml"])
        XCTAssertEqual(command.status, 2, command.stderr)
        XCTAssertTrue(command.stderr.contains("did you mean the command 'render'?"), command.stderr)
        let nothingNear = try ExternalTool.run(ExternalTool.easelExecutable, ["render", "x.scene.xml", "--zzzzzzzzzz"])
        XCTAssertEqual(nothingNear.status, 2)
        XCTAssertFalse(nothingNear.stderr.contains("did you mean"), nothingNear.stderr)
    }


    override func setUp() {
        dir = ExternalTool.temporaryDirectory(name)
    }

    let good = """
    <scene width="40" height="20" scale="2"><rect width="20" fill="red"/></scene>
    """

    func testRenderWritesPNGAtScale() throws {
        let input = try write("a.scene.xml", good)
        let out = dir.appendingPathComponent("a.png").path
        let r = try easel(["render", input, "-o", out])
        XCTAssertEqual(r.status, 0, r.stderr)
        let image = try RasterImage(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: out))))
        XCTAssertEqual(image.width, 80)
        let scaled = try easel(["render", input, "-o", out, "--scale", "3"])
        XCTAssertEqual(scaled.status, 0, scaled.stderr)
        XCTAssertEqual(try RasterImage(png: [UInt8](try Data(contentsOf: URL(fileURLWithPath: out)))).width, 120)
    }

    func testFormatsFromExtensionAndOutDir() throws {
        let a = try write("one.scene.xml", good), b = try write("two.xml", good)
        for ext in ["pdf", "svg"] {
            let out = dir.appendingPathComponent("x.\(ext)").path
            XCTAssertEqual(try easel(["render", a, "-o", out]).status, 0)
            let head = try Data(contentsOf: URL(fileURLWithPath: out)).prefix(5)
            XCTAssertEqual(String(decoding: head, as: UTF8.self), ext == "pdf" ? "%PDF-" : "<?xml")
        }
        let outDir = dir.appendingPathComponent("out")
        try FileManager.default.createDirectory(at: outDir, withIntermediateDirectories: true)
        let r = try easel(["render", a, b, "--out-dir", outDir.path, "--format", "svg"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: outDir.path).sorted(), ["one.svg", "two.svg"])
    }

    func testUsageErrorsExitTwo() throws {
        let input = try write("a.scene.xml", good)
        for args in [["render", input], ["render", input, "-o", "x.gif"], ["render", input, "-o", "x.png", "--scale", "0"],
                     ["frobnicate"], ["render", input, "-o", "x.png", "--format", "tiff"]] {
            let r = try easel(args)
            XCTAssertEqual(r.status, 2, "\(args): \(r.stderr)")
            XCTAssertFalse(r.stderr.isEmpty)
        }
    }

    func testVersionAndHelp() throws {
        let v = try easel(["--version"])
        XCTAssertEqual(v.status, 0)
        XCTAssertEqual(v.stdout.trimmingCharacters(in: .whitespacesAndNewlines), Easel.version)
        let h = try easel(["render", "--help"])
        XCTAssertEqual(h.status, 0)
        XCTAssertTrue(h.stdout.contains("--out-dir"))
    }

    func testCheckAndLayout() throws {
        let input = try write("a.scene.xml", good)
        XCTAssertEqual(try easel(["check", input]).status, 0)
        let r = try easel(["layout", input])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let rect = (json["children"] as! [[String: Any]])[0]
        XCTAssertEqual(rect["element"] as? String, "rect")
        XCTAssertEqual(rect["frame"] as? [String: Double], ["x": 0, "y": 0, "width": 20, "height": 20])
    }

    /// A PNG cut in half is found by `check`, which paints nothing: the
    /// compile decodes every image. Located at its `<image>`, exit 1, and
    /// `render` leaves the previous output as it was.
    func testCheckFindsABrokenImageAtItsElement() throws {
        var png = try [UInt8](Data(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("docs/scenes/assets/tile.png")))
        png.removeLast(png.count / 2)
        try Data(png).write(to: dir.appendingPathComponent("cut.png"))
        let input = try write("cut.scene.xml", """
            <scene width="60" height="60">
              <rect width="60" height="60" fill="white"/>
              <image href="cut.png" width="40" height="40"/>
            </scene>
            """)
        let r = try easel(["check", input])
        XCTAssertEqual(r.status, 1, r.stderr)
        XCTAssertTrue(r.stderr.contains("cut.scene.xml:3:3: error:"), r.stderr)
        XCTAssertTrue(r.stderr.contains("cut.png"), r.stderr)
        let out = dir.appendingPathComponent("cut.png.out.png")
        try Data("previous".utf8).write(to: out)
        XCTAssertEqual(try easel(["render", input, "-o", out.path]).status, 1)
        XCTAssertEqual(try Data(contentsOf: out), Data("previous".utf8))
    }

    func testLayoutShowsStackAndTextFrames() throws {
        let input = try write("s.scene.xml", """
        <scene width="200" height="100">
          <vstack id="stack" x="10" y="10" padding="5" spacing="4">
            <text id="label" font-size="20">Hi</text>
            <view id="bar" height="3"/>
          </vstack>
        </scene>
        """)
        let r = try easel(["layout", input])
        XCTAssertEqual(r.status, 0, r.stderr)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as! [String: Any]
        let stack = (json["children"] as! [[String: Any]])[0]
        XCTAssertEqual(stack["element"] as? String, "vstack")
        let kids = stack["children"] as! [[String: Any]]
        let label = kids[0]["frame"] as! [String: Double], bar = kids[1]["frame"] as! [String: Double]
        let frame = stack["frame"] as! [String: Double]
        // The text sits inside the padding; the bar follows 4 points below it
        // and stretches to the text's width; the stack fits both.
        XCTAssertEqual(label["x"], 15)
        XCTAssertEqual(label["y"], 15)
        XCTAssertEqual(bar["y"]!, 15 + label["height"]! + 4, accuracy: 1e-9)
        XCTAssertEqual(bar["width"], label["width"])
        XCTAssertEqual(frame["height"]!, 5 + label["height"]! + 4 + 3 + 5, accuracy: 1e-9)
    }

    /// Each bad input: exit 1, a `file:line:col: error:` message that names
    /// the problem, and no output file.
    func testBadInputsAreLocatedAndWriteNothing() throws {
        let cases: [(String, String, String)] = [
            ("malformed", "<scene width=\"10\" height=\"10\">\n<rect>\n</scene>", ":3:"),
            ("unknown-element", "<scene width=\"10\" height=\"10\">\n  <elipse/>\n</scene>", ":2:3: error: unknown element <elipse>; did you mean 'ellipse'?"),
            ("unknown-attribute", "<scene width=\"10\" height=\"10\">\n  <rect fil=\"red\"/>\n</scene>", ":2:9: error: unknown attribute 'fil' on <rect>; did you mean 'fill'?"),
            ("bad-color", "<scene width=\"10\" height=\"10\">\n  <rect fill=\"#12\"/>\n</scene>", ":2:15: error: '#12' is not a colour"),
            ("bad-number", "<scene width=\"ten\" height=\"10\"/>", ":1:15: error: 'width' must be a number"),
            ("bad-path", "<scene width=\"10\" height=\"10\">\n  <path d=\"M 0 0 Q 1\"/>\n</scene>", ":2:21: error: malformed path data: Q needs four numbers"),
            ("missing-reference", "<scene width=\"10\" height=\"10\">\n  <rect fill=\"url(#nope)\"/>\n</scene>", ":2:15: error: no gradient or pattern with id 'nope'"),
            ("cycle", "<scene width=\"10\" height=\"10\"><defs>\n<clipPath id=\"a\" clip-path=\"url(#a)\"><rect/></clipPath>\n</defs></scene>", ":2:1: error: reference cycle: #a → #a"),
            ("missing-image", "<scene width=\"10\" height=\"10\">\n  <image href=\"nowhere.png\"/>\n</scene>", ":2:16: error: cannot read 'nowhere.png': no such file"),
            ("escaping-image", "<scene width=\"10\" height=\"10\">\n  <image href=\"../../../etc/passwd\"/>\n</scene>", ":2:16: error: '../../../etc/passwd' is outside the scene's folder"),
            ("doctype", "<!DOCTYPE scene [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n<scene width=\"10\" height=\"10\"/>", ":1:1: error: a DOCTYPE is not allowed"),
        ]
        for (name, text, expected) in cases {
            let input = try write("\(name).scene.xml", text)
            try ExternalTool.assertRejected(URL(fileURLWithPath: input), expected: input + expected, name: name)
        }
    }

    func testFailedRunLeavesThePreviousOutputUntouched() throws {
        let input = try write("a.scene.xml", good)
        let out = dir.appendingPathComponent("a.png")
        XCTAssertEqual(try easel(["render", input, "-o", out.path]).status, 0)
        let before = try Data(contentsOf: out)
        _ = try write("a.scene.xml", "<scene width=\"40\" height=\"20\"><rect fill=\"nope\"/></scene>")
        XCTAssertEqual(try easel(["render", input, "-o", out.path]).status, 1)
        XCTAssertEqual(try Data(contentsOf: out), before)
        // No temporary files are left behind either.
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".") }, [])
    }

    func testAllowReadOpensAFolderOutsideTheScene() throws {
        let outside = ExternalTool.temporaryDirectory("outside")
        let png = try compileScene("<scene width=\"2\" height=\"2\"><rect fill=\"red\"/></scene>").render(format: .png)
        try Data(png).write(to: outside.appendingPathComponent("p.png"))
        let input = try write("a.scene.xml", "<scene width=\"4\" height=\"4\"><image href=\"\(outside.path)/p.png\"/></scene>")
        let out = dir.appendingPathComponent("a.png").path
        XCTAssertEqual(try easel(["render", input, "-o", out]).status, 1)
        let allowed = try easel(["render", input, "-o", out, "--allow-read", outside.path])
        XCTAssertEqual(allowed.status, 0, allowed.stderr)
    }

    func testScalesFromOneCompileAreNamedAsInAssetCatalogs() throws {
        let input = try write("card.scene.xml", good)
        let out = dir.appendingPathComponent("missing/folder")   // created if missing
        let r = try easel(["render", input, "--scales", "1,2,3", "--out-dir", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: out.path).sorted(),
                       ["card.png", "card@2x.png", "card@3x.png"])
        for (name, width) in [("card.png", 40), ("card@2x.png", 80), ("card@3x.png", 120)] {
            let image = try RasterImage(png: [UInt8](try Data(contentsOf: out.appendingPathComponent(name))))
            XCTAssertEqual(image.width, width, name)
        }
        // Vectors have no scale suffix: one file whatever the scales.
        XCTAssertEqual(try easel(["render", input, "--scales", "1,2", "--out-dir", out.path, "--format", "pdf"]).status, 0)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("card.pdf").path))
        for bad in [["--scales", "1,,2"], ["--scales", "0"], ["--scales", "two"], ["--scales", "1,2", "--scale", "2"]] {
            XCTAssertEqual(try easel(["render", input, "--out-dir", out.path] + bad).status, 2, bad.joined(separator: " "))
        }
        XCTAssertEqual(try easel(["render", input, "-o", "x.png", "--scales", "1,2"]).status, 2, "--scales needs --out-dir")
    }

    func testRendersOnFourThreadsWriteTheSameBytesAndReportInInputOrder() throws {
        let examples = ExternalTool.repositoryRoot.appendingPathComponent("examples")
        let inputs = try FileManager.default.contentsOfDirectory(atPath: examples.path)
            .filter { $0.hasSuffix(".scene.xml") }.sorted().map { examples.appendingPathComponent($0).path }
        let broken = [try write("b1.scene.xml", "<scene width=\"10\" height=\"10\"><rectt/></scene>"),
                      try write("b2.scene.xml", "<scene width=\"10\" height=\"10\"><rect fill=\"blu\"/></scene>")]
        var outputs: [[String: Data]] = []
        var stderrs: [String] = []
        for jobs in ["1", "4"] {
            let out = dir.appendingPathComponent("j\(jobs)")
            let scales = TestSizes.scales.map { String(Int($0)) }.joined(separator: ",")
            let r = try easel(["render"] + [broken[0]] + inputs + [broken[1], "--scales", scales, "--out-dir", out.path, "-j", jobs])
            XCTAssertEqual(r.status, 1, "two scenes are broken")
            stderrs.append(r.stderr)
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: out.path) {
                files[name] = try Data(contentsOf: out.appendingPathComponent(name))
            }
            outputs.append(files)
        }
        XCTAssertEqual(outputs[0].count, inputs.count * TestSizes.scales.count, "every good scene at every scale")
        XCTAssertEqual(outputs[0], outputs[1], "-j 4 writes the same bytes as -j 1")
        XCTAssertEqual(stderrs[0], stderrs[1], "diagnostics in input order whatever finished first")
        let lines = stderrs[0].split(separator: "\n")
        XCTAssertTrue(lines.first?.contains("b1.scene.xml:1:") == true && lines.last?.contains("b2.scene.xml:1:") == true,
                      stderrs[0])
    }

    func testMessagesNameFilesAsTyped() throws {
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("d"), withIntermediateDirectories: true)
        try Data("day,v\nMon,x\n".utf8).write(to: dir.appendingPathComponent("d/a.csv"))
        try Data("<scene width=\"10\" height=\"10\"><lineGraph src=\"a.csv\" column=\"v\"/><rect fill=\"blu\"/></scene>".utf8)
            .write(to: dir.appendingPathComponent("d/g.scene.xml"))
        let p = Process()
        p.executableURL = URL(fileURLWithPath: ExternalTool.easelExecutable)
        p.arguments = ["check", "d/g.scene.xml"]
        p.currentDirectoryURL = dir
        let err = Pipe()
        p.standardError = err
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 1)
        XCTAssertTrue(text.contains("\nd/a.csv:2:1: error:") || text.hasPrefix("d/a.csv:2:1: error:"), text)
        XCTAssertTrue(text.contains("d/g.scene.xml:1:"), text)
        XCTAssertFalse(text.contains(dir.path), "no absolute paths for relative arguments:\n\(text)")
    }

    func testCLIDocsAreGeneratedFromTheParser() throws {
        let script = ExternalTool.repositoryRoot.appendingPathComponent("scripts/cli-docs").path
        let r = try ExternalTool.run("python3", [script, "--check", "--easel", ExternalTool.easelExecutable])
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testHelpShowsIntegerDefaults() throws {
        let help = try easel(["render", "--help"]).stdout
        XCTAssertTrue(help.contains("(default: 2000000000)"), help)
        XCTAssertFalse(help.contains("2000000000.0"))
    }

    func testLimitsCanBeRaised() throws {
        let input = try write("big.scene.xml", "<scene width=\"3000\" height=\"3000\" scale=\"2\"><rect/></scene>")
        let r = try easel(["check", input, "--max-pixels", "1000000"])
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("--max-pixels"), r.stderr)
        XCTAssertEqual(try easel(["check", input, "--max-pixels", "40000000"]).status, 0)
    }

    /// A scene without text builds no font set: neither fontconfig nor any
    /// font file is read (start-up cost, issue 14); a scene with text does,
    /// or the check proves nothing.
    func testOnlyScenesWithTextBuildAFontSet() throws {
        XCTAssertNil(try compileScene(good).fonts)
        XCTAssertNotNil(try compileScene("<scene width=\"80\" height=\"20\"><text>Hi</text></scene>").fonts)
        let graph = "<scene width=\"80\" height=\"80\"><lineGraph values=\"1 2\" labels=\"a b\"><xLabels/></lineGraph></scene>"
        XCTAssertNotNil(try compileScene(graph).fonts, "graph labels are text")
    }

    /// A flood of errors stops at --error-limit (default 20, as clang) with
    /// one line saying so; the exit status and the no-output rule are as
    /// for any error; --error-limit 0 shows every one.
    func testErrorsStopAtTheErrorLimit() throws {
        let attributes = (0..<200).map { "bogus\($0)=\"1\"" }.joined(separator: " ")
        let input = try write("flood.scene.xml", "<scene width=\"10\" height=\"10\"><rect \(attributes)/><rect nope=\"1\"/></scene>")
        let out = dir.appendingPathComponent("flood.png").path
        var r = try easel(["render", input, "-o", out])
        XCTAssertEqual(r.status, 1)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 21, r.stderr)
        XCTAssertTrue(lines.last?.hasSuffix("error: too many errors, stopping; --error-limit 0 shows all [E0704]") == true, r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
        r = try easel(["check", input, "--error-limit", "5"])
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 6, r.stderr)
        r = try easel(["check", input, "--error-limit", "0"])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr.split(separator: "\n").count, 201, "every error, the second <rect>'s too")
        XCTAssertEqual(try easel(["check", input, "--error-limit", "-1"]).status, 2)
    }

    /// 100,000 attributes on one element: refused before libxml2 reads the
    /// element (its duplicate check is quadratic — 2.5·10¹⁰ instructions
    /// for this input), located at the element. The scan skips comments,
    /// CDATA and quoted values, so '=' there does not count.
    func testAttributeFloodIsRefusedBeforeParsing() throws {
        let attributes = (0..<100_000).map { "a\($0)=\"1\"" }.joined(separator: " ")
        let input = try write("attrs.scene.xml", "<scene width=\"10\" height=\"10\">\n<rect \(attributes)/></scene>")
        let r = try easel(["check", input])
        XCTAssertEqual(r.status, 1)
        XCTAssertEqual(r.stderr, input + ":2:1: error: this element has more than 256 attributes (no element of the format takes more than 40) [E0701]\n")
        let equals = String(repeating: "=", count: 300)
        let quiet = try write("quiet.scene.xml", "<scene width=\"10\" height=\"10\"><!-- \(equals) --><text id=\"\(equals)\">\(equals)</text></scene>")
        XCTAssertEqual(try easel(["check", quiet]).status, 0)
    }
}

/// The machine-readable format: every example validates against the XSD
/// with xmllint, and a broken scene does not.
final class SchemaTests: XCTestCase {
    let schema = ExternalTool.repositoryRoot.appendingPathComponent("schemas/easel.xsd").path

    func testEveryExampleAndDocsSceneValidates() throws {
        var files: [String] = []
        for folder in ["examples", "examples/localized", "examples/app-icon", "examples/sheets", "docs/scenes", "docs/scenes/assets"] {
            let dir = ExternalTool.repositoryRoot.appendingPathComponent(folder)
            files += try FileManager.default.contentsOfDirectory(atPath: dir.path)
                .filter { $0.hasSuffix(".scene.xml") }.map { dir.appendingPathComponent($0).path }
        }
        XCTAssertGreaterThanOrEqual(files.count, 30)
        let r = try ExternalTool.run("xmllint", ["--noout", "--nonet", "--schema", schema] + files)
        XCTAssertEqual(r.status, 0, r.stderr)
    }

    func testSchemaRejectsWhatTheParserRejects() throws {
        let dir = ExternalTool.temporaryDirectory()
        for (name, text) in [("element", "<scene width=\"1\" height=\"1\"><rectt/></scene>"),
                             ("attribute", "<scene width=\"1\" height=\"1\"><rect fil=\"red\"/></scene>"),
                             ("number", "<scene width=\"one\" height=\"1\"/>"),
                             ("keyword", "<scene width=\"1\" height=\"1\"><rect line-cap=\"flat\"/></scene>")] {
            let file = dir.appendingPathComponent("\(name).xml")
            try Data(text.utf8).write(to: file)
            let r = try ExternalTool.run("xmllint", ["--noout", "--nonet", "--schema", schema, file.path])
            XCTAssertNotEqual(r.status, 0, "the schema accepted a bad \(name)")
            XCTAssertFalse(diagnostics(of: text).isEmpty, "the parser accepted a bad \(name)")
        }
    }
}

/// Bad graph data: exit 1, a located message, no output.
final class GraphDataCLITests: XCTestCase {
    func testBadDataIsLocatedAndWritesNothing() throws {
        let dir = ExternalTool.temporaryDirectory()
        try Data("a,b\n1,2\n3\n".utf8).write(to: dir.appendingPathComponent("ragged.csv"))
        try Data("day,glasses\nMon,4\n".utf8).write(to: dir.appendingPathComponent("ok.csv"))
        try Data("day,glasses\nMon,four\n".utf8).write(to: dir.appendingPathComponent("words.csv"))
        let cases: [(String, String, String)] = [
            ("empty", "<lineGraph values=\"\"/>", ":2:22: error: the series is empty"),
            ("word", "<lineGraph values=\"1 x 3\"/>", ":2:24: error: 'x' in 'values' is not a number"),
            ("nan", "<lineGraph values=\"1 NaN\"/>", ":2:24: error: 'NaN' in 'values' is not a number"),
            ("no-data", "<lineGraph/>", ":2:3: error: <lineGraph> needs data"),
            ("missing-file", "<lineGraph src=\"nope.csv\" column=\"a\"/>", ":2:19: error: cannot read 'nope.csv': no such file"),
            ("missing-column", "<lineGraph src=\"ok.csv\" column=\"glass\"/>", ":2:35: error: the CSV has no column 'glass' (its columns: day, glasses); did you mean 'glasses'?"),
            ("ragged", "<lineGraph src=\"ragged.csv\" column=\"a\"/>", "ragged.csv:3:1: error: this row has 1 field but the header has 2"),
            ("csv-word", "<lineGraph src=\"words.csv\" column=\"glasses\"/>", "words.csv:2:1: error: 'four' in column 'glasses' is not a number"),
            ("min-max", "<lineGraph values=\"1 2\" min=\"5\" max=\"3\"/>", ":2:32: error: 'min' (5) is greater than 'max' (3)"),
            ("placeholder", "<lineGraph values=\"1 2\"><text>{avg}</text></lineGraph>", "error: unknown placeholder {avg}"),
            ("format", "<lineGraph values=\"1 2\"><text format=\"%s\">{max}</text></lineGraph>", ":2:41: error: 'format' must be one printf number conversion"),
        ]
        for (name, graph, expected) in cases {
            let input = dir.appendingPathComponent("\(name).scene.xml")
            try Data("<scene width=\"100\" height=\"100\">\n  \(graph)\n</scene>\n".utf8).write(to: input)
            try ExternalTool.assertRejected(input, expected: expected, name: name)
        }
    }
}

/// A run killed while it writes leaves the old file or the new one, never a
/// torn one; SIGINT and SIGTERM also leave no temporary file.
final class InterruptedWriteTests: XCTestCase {
    /// A render held at each point of its write (TestPause: half the bytes
    /// in the unnamed file; about to be named; named) and sent SIGINT,
    /// SIGTERM or SIGKILL there. Where the signal lands is an event the
    /// test waits for, not a delay, so each outcome is the one expected:
    /// before the commit the previous file stays and the process exits at
    /// once; a commit under way finishes (Ctrl-C waits for it) unless the
    /// process is killed; after it the new file stays. Never a torn file,
    /// never a temporary file left.
    func testSignalsMidWriteNeverTearTheOutput() throws {
        let dir = ExternalTool.temporaryDirectory()
        let scene = dir.appendingPathComponent("big.scene.xml")
        try Data("""
        <scene width="300" height="300" scale="1">
          <defs><conicGradient id="g"><stop color="red"/><stop color="blue"/><stop color="red"/></conicGradient></defs>
          <rect width="300" height="300" fill="url(#g)"/>
        </scene>
        """.utf8).write(to: scene)
        let target = dir.appendingPathComponent("out.png"), complete = dir.appendingPathComponent("complete.png")
        XCTAssertEqual(try ExternalTool.run(ExternalTool.easelExecutable, ["render", scene.path, "-o", complete.path]).status, 0)
        let newBytes = try Data(contentsOf: complete)
        let oldBytes = Data("the previous output".utf8)
        for phase in ["writing", "committing", "written"] {
            for sig in [SIGINT, SIGTERM, SIGKILL] {
                let round = "signal \(sig) at \(phase)"
                try oldBytes.write(to: target)
                let held = try HeldProcess(["render", scene.path, "-o", target.path], pauseAt: "\(phase):out.png")
                XCTAssertTrue(held.channel.waitForPause(phase, target.path), "\(round): never held")
                kill(held.process.processIdentifier, sig)
                // A commit under way is the one place a Ctrl-C waits: once the
                // handler says the signal is pending, let the commit go on.
                let waits = phase == "committing" && sig != SIGKILL
                if waits {
                    XCTAssertTrue(held.channel.waitForSignalNoted(), "\(round): the signal was not noted")
                    held.channel.releaseAll()
                }
                XCTAssertTrue(held.waitForExit(), "\(round): still running, held")
                held.finish()
                let now = try Data(contentsOf: target)
                let expectsNew = phase == "written" || waits
                XCTAssertTrue(now == (expectsNew ? newBytes : oldBytes),
                              "\(round): \(now == oldBytes ? "the previous file" : now == newBytes ? "the new file" : "a torn file of \(now.count) bytes")")
                if sig == SIGKILL {
                    XCTAssertEqual(held.process.terminationReason, .uncaughtSignal, round)
                } else {
                    XCTAssertEqual(held.process.terminationStatus, 128 + sig, round)
                }
                let leftovers = try FileManager.default.contentsOfDirectory(atPath: dir.path).filter { $0.hasPrefix(".out.png.easel-") }
                // The output is written to an unnamed O_TMPFILE until complete:
                // not even SIGKILL leaves a temporary file behind.
                XCTAssertEqual(leftovers, [], "\(round) left a temporary file")
                for l in leftovers { try? FileManager.default.removeItem(at: dir.appendingPathComponent(l)) }
            }
        }
    }
}
