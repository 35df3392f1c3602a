import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Diagnostics as data (the contract's "Command line, 1.1"): stable codes
/// from one table, each documented with an example that reports it; JSON
/// lines and a SARIF log validated against the OASIS schema by Python's
/// `jsonschema`; outputs that collide and depfiles that cannot be written.
final class DiagnosticsOutputTests: XCTestCase, CommandLineTesting {
    var dir: URL!

    override func setUp() {
        dir = ExternalTool.temporaryDirectory(name)
    }

    /// Every scene example in the table, compiled: it reports its own code
    /// (the index would otherwise document a code with a wrong example).
    /// A folder given as a scene says it is a folder and what to do
    /// instead, not that it cannot be read.
    func testAFolderGivenAsASceneSaysSo() throws {
        let folder = dir.appendingPathComponent("icons")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for args in [["render", folder.path, "-o", dir.appendingPathComponent("x.png").path], ["check", folder.path]] {
            let r = try easel(args)
            XCTAssertEqual(r.status, 1, args[0])
            XCTAssertTrue(r.stderr.contains("\(folder.path): error: a folder, not a scene file") && r.stderr.contains("easel build")
                          && r.stderr.contains("[E0808]"), r.stderr)
        }
    }

    func testEveryExampleReportsItsCode() throws {
        let folder = dir.appendingPathComponent("scenes/deeper")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data("not a font".utf8).write(to: folder.appendingPathComponent("notes.txt"))
        var checked = 0
        for code in DiagnosticCode.allCases where !code.example.hasPrefix("$") {
            let options = Easel.Options()
            let found: [Diagnostic]
            switch Easel.compile(source: code.example, baseDirectory: folder, options: options) {
            case .success(let scene): found = scene.warnings
            case .failure(let error): found = error.diagnostics
            }
            XCTAssertTrue(found.contains { $0.message.code == code },
                          "\(code.code(code.usualSeverity)) \(code.name): \(found.map { "\($0.code) \($0.message.text)" })")
            checked += 1
        }
        XCTAssertGreaterThanOrEqual(checked, 25)
    }

    /// Numbers are unique and the docs are generated from the table.
    func testTheIndexIsGeneratedFromTheTable() throws {
        XCTAssertEqual(Set(DiagnosticCode.allCases.map(\.rawValue)).count, DiagnosticCode.allCases.count)
        let url = ExternalTool.repositoryRoot.appendingPathComponent("docs/diagnostics.md")
        let generated = DiagnosticIndex.markdown()
        if ProcessInfo.processInfo.environment["EASEL_RECORD"] == "1" {
            try Data(generated.utf8).write(to: url)
            XCTFail("recorded docs/diagnostics.md")
        }
        XCTAssertEqual((try? String(contentsOf: url, encoding: .utf8)) ?? "", generated,
                       "docs/diagnostics.md is out of date: EASEL_RECORD=1 swift test --filter DiagnosticsOutputTests")
    }

    /// Three errors, one after a non-ASCII character: JSON columns count
    /// UTF-8 bytes, SARIF's code points.
    let broken = """
    <scene width="100" height="100">
      <rectangle width="10" height="10"/>
      <view width="10" height="10" id="é" fil="red"/>
      <view width="200px" height="10"/>
    </scene>
    """

    func testJSONIsOneObjectALineWithTheContractsFields() throws {
        let input = try write("broken.scene.xml", broken)
        let r = try easel(["check", input, "--diagnostics-format", "json"])
        XCTAssertEqual(r.status, 1, r.stderr)
        let lines = r.stderr.split(separator: "\n")
        XCTAssertEqual(lines.count, 3, r.stderr)
        let objects = try lines.map { try JSONSerialization.jsonObject(with: Data($0.utf8), options: [.fragmentsAllowed]) as! [String: Any] }
        for o in objects {
            XCTAssertEqual(Set(o.keys), ["file", "line", "column", "endLine", "endColumn", "severity", "code", "message", "suggestion"])
            XCTAssertEqual(o["file"] as? String, input)
        }
        XCTAssertEqual(objects.map { $0["code"] as? String }, ["E0101", "E0103", "E0201"])
        XCTAssertEqual(objects.map { $0["line"] as? Int }, [2, 3, 4])
        XCTAssertEqual(objects[0]["suggestion"] as? String, "rect")
        XCTAssertEqual(objects[1]["suggestion"] as? String, "fill")
        // `fil` starts after `id="é" `: byte 40 (é is two bytes), character 39.
        XCTAssertEqual(objects[1]["column"] as? Int, 40)
    }

    func testSARIFValidatesAgainstTheOASISSchemaAndPointsAtTheErrors() throws {
        let input = try write("broken.scene.xml", broken)
        let r = try easel(["check", input, "--diagnostics-format", "sarif"])
        XCTAssertEqual(r.status, 1)
        let log = dir.appendingPathComponent("easel.sarif")
        try Data(r.stderr.utf8).write(to: log)
        let schema = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/sarif/sarif-schema-2.1.0.json")
        let check = try ExternalTool.run("python3", ["-c", """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            log = json.load(open(sys.argv[2]))
            jsonschema.Draft4Validator.check_schema(schema)
            errors = sorted(jsonschema.Draft4Validator(schema).iter_errors(log), key=str)
            for e in errors: print(list(e.absolute_path), e.message)
            sys.exit(1 if errors else 0)
            """, schema.path, log.path])
        XCTAssertEqual(check.status, 0, check.stdout + check.stderr)
        let root = try JSONSerialization.jsonObject(with: Data(r.stderr.utf8)) as! [String: Any]
        let run = (root["runs"] as! [[String: Any]])[0]
        let results = run["results"] as! [[String: Any]]
        XCTAssertEqual(results.map { $0["ruleId"] as? String }, ["E0101", "E0103", "E0201"])
        let regions = results.map { (($0["locations"] as! [[String: Any]])[0]["physicalLocation"] as! [String: Any])["region"] as! [String: Any] }
        XCTAssertEqual(regions.map { $0["startLine"] as? Int }, [2, 3, 4])
        XCTAssertEqual(regions[0]["startColumn"] as? Int, 3)
        XCTAssertEqual(regions[1]["startColumn"] as? Int, 39)
        let rules = ((run["tool"] as! [String: Any])["driver"] as! [String: Any])["rules"] as! [[String: Any]]
        XCTAssertEqual(rules.map { $0["id"] as? String }, ["E0101", "E0103", "E0201"])
        // A run without problems is a valid log with no results.
        let clean = try write("clean.scene.xml", #"<scene width="10" height="10"/>"#)
        let ok = try easel(["check", clean, "--diagnostics-format", "sarif"])
        XCTAssertEqual(ok.status, 0, ok.stderr)
        let okRun = ((try JSONSerialization.jsonObject(with: Data(ok.stderr.utf8)) as! [String: Any])["runs"] as! [[String: Any]])[0]
        XCTAssertEqual((okRun["results"] as! [Any]).count, 0)
    }

    func testOutputsThatCollideAreAUsageErrorBeforeRendering() throws {
        let good = #"<scene width="10" height="10" background="red"/>"#
        let a = try write("a/card.scene.xml", good), b = try write("b/card.scene.xml", good)
        let out = dir.appendingPathComponent("out")
        let r = try easel(["render", a, b, "--out-dir", out.path])
        XCTAssertEqual(r.status, 2, r.stderr)
        XCTAssertTrue(r.stderr.contains("[E0803]"), r.stderr)
        // Said of the scene that would overwrite, not of the first input.
        XCTAssertTrue(r.stderr.hasPrefix("\(b): error: '\(a)' and '\(b)' would both write"), r.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "nothing rendered")
        // Frames too: two scenes' NAME-0000.png… would interleave.
        let frames = try easel(["render", a, b, "--out-dir", out.path, "--fps", "2"])
        XCTAssertEqual(frames.status, 2, frames.stderr)
        // A variant makes the names differ only for both scenes alike.
        XCTAssertEqual(try easel(["render", a, "--out-dir", out.path]).status, 0)
    }

    func testDepfilesAreWrittenForEveryOutputKindAndFailuresAreErrors() throws {
        let scene = try write("pulse.scene.xml", """
            <scene width="20" height="20" duration="1">
              <defs><animatedGradient id="a" duration="1"><linearGradient angle="0"><stop color="red"/><stop color="blue"/></linearGradient>
                <linearGradient angle="90"><stop color="blue"/><stop color="red"/></linearGradient></animatedGradient></defs>
              <view width="20" height="20" fill="url(#a)"/>
            </scene>
            """)
        let apng = dir.appendingPathComponent("pulse.png").path, dep = dir.appendingPathComponent("pulse.d").path
        let r = try easel(["render", scene, "-o", apng, "--fps", "4", "--depfile", dep])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rule = try String(contentsOfFile: dep, encoding: .utf8)
        XCTAssertTrue(rule.contains("pulse.png:") && rule.contains("pulse.scene.xml"), rule)
        let frames = dir.appendingPathComponent("frames").path
        XCTAssertEqual(try easel(["render", scene, "--out-dir", frames, "--fps", "4", "--depfile", dep]).status, 0)
        let frameRule = try String(contentsOfFile: dep, encoding: .utf8)
        XCTAssertTrue(frameRule.contains("pulse-0000.png") && frameRule.contains("pulse-0004.png"), frameRule)
        // A depfile that cannot be written: exit 1, located at the depfile.
        for args in [["render", scene, "-o", dir.appendingPathComponent("x.png").path],
                     ["build", dir.path, "-o", dir.appendingPathComponent("built").path]] {
            let failed = try easel(args + ["--depfile", "/nonexistent/folder/x.d"])
            XCTAssertEqual(failed.status, 1, "\(args): \(failed.stderr)")
            XCTAssertTrue(failed.stderr.contains("/nonexistent/folder/x.d: error: cannot write") && failed.stderr.contains("[E0801]"),
                          failed.stderr)
        }
    }
}
