import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Every file in Tests/Fixtures/bad (listed with its expected exit code and
/// message in cases.tsv, written by make-corpus.py), plus inputs too big to
/// commit, made here. Each must stay within 512 MB, exit as
/// expected with a `file:line:col: error:` message, write nothing, and never
/// show a byte of /etc/passwd.
final class BadInputCorpusTests: XCTestCase {
    static let corpus = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/bad")
    /// The release build, which `scripts/test` builds and names in
    /// EASEL_RELEASE_BINARY, else the debug one. Time is not asserted: a
    /// test never reads a clock. What bounds it is counted work — the layout
    /// and paint budgets (LayoutBudgetTests, PaintBudgetTests, LayoutWorkTests
    /// count it) and the size limits these cases hit — and bench/ measures
    /// it. Memory is asserted: GNU time's peak is a count, not a clock.
    static let releaseBinary = ProcessInfo.processInfo.environment["EASEL_RELEASE_BINARY"]
    static let binary = releaseBinary ?? ExternalTool.easelExecutable
    static let maxMegabytes = 512.0

    struct Outcome { var status: Int32; var stderr: String; var megabytes: Double }

    /// Runs easel under GNU time, which reports the peak memory.
    func render(_ scene: URL, extra: [String] = [], output: URL) throws -> Outcome {
        let r = try ExternalTool.run("/usr/bin/time", ["-f", "easel-peak-kb=%M", Self.binary, "render",
                                                      scene.path, "-o", output.path] + extra)
        var lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var kb = 0.0
        if let i = lines.lastIndex(where: { $0.hasPrefix("easel-peak-kb=") }) {
            kb = Double(lines[i].dropFirst("easel-peak-kb=".count)) ?? 0
            lines.remove(at: i)
        }
        lines.removeAll { $0.hasPrefix("Command exited with non-zero status") }
        return Outcome(status: r.status, stderr: lines.joined(separator: "\n"), megabytes: kb / 1024)
    }

    func check(_ name: String, _ outcome: Outcome, code: Int32, fragment: String, output: URL,
               file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(outcome.status, code, "\(name): \(outcome.stderr)", file: file, line: line)
        XCTAssertTrue(outcome.stderr.contains(fragment), "\(name): expected '\(fragment)' in:\n\(outcome.stderr)", file: file, line: line)
        if code == 1 {
            let first = outcome.stderr.split(separator: "\n").first.map(String.init) ?? ""
            XCTAssertNotNil(first.range(of: #"^[^\n]+:[0-9]+:[0-9]+: error: "#, options: .regularExpression),
                            "\(name): not a located message: \(first)", file: file, line: line)
        }
        XCTAssertLessThanOrEqual(outcome.megabytes, Self.maxMegabytes, "\(name) used \(outcome.megabytes) MB", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: output.path), "\(name) wrote an output", file: file, line: line)
        XCTAssertFalse(outcome.stderr.contains("root:x:0:0"), "\(name) showed /etc/passwd", file: file, line: line)
    }

    func testEveryCommittedBadInput() throws {
        let manifest = try String(contentsOf: Self.corpus.appendingPathComponent("cases.tsv"), encoding: .utf8)
        let out = ExternalTool.temporaryDirectory()
        var count = 0
        for row in manifest.split(separator: "\n") where !row.hasPrefix("#") {
            let fields = row.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count >= 3, let code = Int32(fields[1]) else { XCTFail("bad manifest row: \(row)"); continue }
            let extra = fields.count > 3 ? fields[3].split(separator: " ").map(String.init) : []
            let output = out.appendingPathComponent(fields[0] + ".png")
            let outcome = try render(Self.corpus.appendingPathComponent(fields[0]), extra: extra, output: output)
            check(fields[0], outcome, code: code, fragment: fields[2], output: output)
            count += 1
        }
        XCTAssertGreaterThanOrEqual(count, 80, "the corpus has at least 80 cases")
    }

    /// An SVG image blurred over nearly the most device pixels an image
    /// with a filter may cover (`PaintCost.maxSVGSurfacePixels` over its
    /// surfaces: 3200² with the picture and six surfaces) renders within
    /// the memory bound; 3300² is a located error.
    func testTheLargestBlurredSVGImageStaysWithinTheMemoryBound() throws {
        let dir = ExternalTool.temporaryDirectory()
        try Data(##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f" x="-1000" y="-1000" width="3000" height="3000" filterUnits="userSpaceOnUse"><feGaussianBlur stdDeviation="100000"/></filter><rect width="100" height="100" fill="red" filter="url(#f)"/></svg>"##.utf8)
            .write(to: dir.appendingPathComponent("blur.svg"))
        for (side, code) in [(3200, Int32(0)), (3300, 1)] {
            let scene = dir.appendingPathComponent("blur-\(side).scene.xml")
            try Data("<scene width=\"\(side)\" height=\"\(side)\">\n<image href=\"blur.svg\" width=\"\(side)\" height=\"\(side)\"/>\n</scene>".utf8).write(to: scene)
            let output = dir.appendingPathComponent("blur-\(side).png")
            let outcome = try render(scene, output: output)
            if code == 0 {
                XCTAssertEqual(outcome.status, 0, outcome.stderr)
                XCTAssertLessThanOrEqual(outcome.megabytes, Self.maxMegabytes, "\(side)²: \(outcome.megabytes) MB")
            } else {
                check("blur-\(side)", outcome, code: 1, fragment: "would cover 10890000 device pixels with 6 layers or filter surfaces", output: output)
            }
        }
    }

    /// Inputs too large to commit, made in a temporary folder.
    func testGeneratedHostileInputs() throws {
        let dir = ExternalTool.temporaryDirectory()
        func write(_ name: String, _ text: String) throws -> URL {
            let url = dir.appendingPathComponent(name)
            try Data(text.utf8).write(to: url)
            return url
        }
        var cases: [(URL, String)] = []
        // A 10 MB attribute.
        cases.append((try write("attribute.scene.xml", "<scene width=\"10\" height=\"10\"><rect id=\"" + String(repeating: "a", count: 10_500_000) + "\"/></scene>"),
                      "malformed XML"))
        // 100,000 levels of nesting.
        cases.append((try write("deep.scene.xml", "<scene width=\"10\" height=\"10\">" + String(repeating: "<group>", count: 100_000)
                                + String(repeating: "</group>", count: 100_000) + "</scene>"), "error:"))
        // A CSV bomb: a million and a half rows, drawn as points.
        var csv = "v\n"
        csv.reserveCapacity(3_100_000)
        for i in 0..<1_500_000 { csv += i % 2 == 0 ? "1\n" : "2\n" }
        _ = try write("bomb.csv", csv)
        cases.append((try write("csv-bomb.scene.xml", "<scene width=\"100\" height=\"100\"><lineGraph src=\"bomb.csv\" column=\"v\"><points/></lineGraph></scene>"),
                      "nodes after expanding repeats"))
        // A symlink from inside the scene's folder to a file outside it.
        try? FileManager.default.removeItem(at: dir.appendingPathComponent("escape.png"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("escape.png").path, withDestinationPath: "/etc/passwd")
        cases.append((try write("symlink.scene.xml", "<scene width=\"10\" height=\"10\"><image href=\"escape.png\"/></scene>"),
                      "'escape.png' is outside the scene's folder"))
        try FileManager.default.createSymbolicLink(atPath: dir.appendingPathComponent("up").path, withDestinationPath: "/etc")
        cases.append((try write("symlink-dir.scene.xml", "<scene width=\"10\" height=\"10\"><lineGraph src=\"up/passwd\" column=\"root\"/></scene>"),
                      "is outside the scene's folder"))
        // An SVG image of 1.2 million elements (refused before a tree of it
        // is built), and one of 4,000 nested groups (past libxml2's depth).
        _ = try write("million.svg", #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">"#
                      + String(repeating: "<g/>", count: 1_200_000) + "</svg>")
        cases.append((try write("svg-million.scene.xml", #"<scene width="10" height="10"><image href="million.svg"/></scene>"#),
                      "'million.svg' draws 1200001 elements"))
        _ = try write("nested.svg", #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">"#
                      + String(repeating: "<g>", count: 4000) + String(repeating: "</g>", count: 4000) + "</svg>")
        cases.append((try write("svg-nested.scene.xml", #"<scene width="10" height="10"><image href="nested.svg"/></scene>"#),
                      "'nested.svg' line 1, column"))
        // 990,000 empty groups: under --max-nodes, but librsvg's parse of
        // them (5 s, 1.4 GB) is refused before Easel reads them into a tree.
        _ = try write("groups.svg", #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">"#
                      + String(repeating: "<g/>", count: 990_000) + "</svg>")
        cases.append((try write("svg-groups.scene.xml", #"<scene width="10" height="10"><image href="groups.svg"/></scene>"#),
                      "'groups.svg' has 990001 elements; parsing it"))
        // 1,000 style rules over 14,000 elements: librsvg matches each rule
        // against each element as it parses (135 ns a pair).
        _ = try write("cascade.svg", #"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><style>"#
                      + (0..<1000).map { ".c\($0) rect { fill: red }" }.joined(separator: "\n") + "</style>"
                      + String(repeating: #"<rect width="1" height="1"/>"#, count: 14_000) + "</svg>")
        cases.append((try write("svg-cascade.scene.xml", #"<scene width="10" height="10"><image href="cascade.svg"/></scene>"#),
                      "1000 style rules over 14002 elements"))
        // A blur and a translucent group on an image drawn 150 times its
        // size into a small frame: librsvg sizes their surfaces by the
        // whole image, so the whole image is what is bounded.
        _ = try write("blur.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><filter id="f"><feGaussianBlur stdDeviation="10"/></filter><rect width="100" height="100" fill="red" filter="url(#f)"/></svg>"##)
        _ = try write("translucent.svg", ##"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100"><g opacity="0.5"><rect width="100" height="100" fill="red"/></g></svg>"##)
        for name in ["blur", "translucent"] {
            cases.append((try write("svg-\(name)-unclipped.scene.xml", "<scene width=\"100\" height=\"100\"><image href=\"\(name).svg\" width=\"15000\" height=\"15000\"/></scene>"),
                          "would cover 225000000 device pixels"))
        }
        for (scene, fragment) in cases {
            let output = dir.appendingPathComponent(scene.lastPathComponent + ".png")
            check(scene.lastPathComponent, try render(scene, output: output), code: 1, fragment: fragment, output: output)
        }
    }
}
