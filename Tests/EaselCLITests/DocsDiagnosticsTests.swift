import EaselTestSupport
import Foundation
import XCTest

/// What the docs quote Easel saying is what Easel says. Every diagnostic
/// quoted whole in README.md or docs/*.md — a line of a code block, or an
/// inline quote ending in its code — must be printed, exactly, by one of
/// the cases in Tests/Fixtures/docs-diagnostics (`cases.tsv`: a folder and
/// the command run in it, whose files are the scenes the pages show). A
/// message reworded in the code fails here until the docs quote it anew.
/// And every Bazel target docs/build-systems.md shows is one the example
/// has (examples/bazel/BUILD).
final class DocsDiagnosticsTests: XCTestCase {
    static let root = ExternalTool.repositoryRoot

    /// Whole diagnostics quoted on a page: `file:line:col: error: … [E0103]`.
    static func quotedDiagnostics(in text: String) -> [String] {
        let diagnostic = try! NSRegularExpression(pattern: #"^\S+:\d+:\d+: (error|warning): .+$"#)
        var out: [String] = []
        var inCode = false
        var paragraph = ""
        func inline() {
            // Inline quotes, the paragraph's lines joined: those that end in their code.
            let spans = try! NSRegularExpression(pattern: #"`([^`]+: (?:error|warning): [^`]+ \[[EW]\d{4}\])`"#)
            for m in spans.matches(in: paragraph, range: NSRange(paragraph.startIndex..., in: paragraph)) {
                let quote = String(paragraph[Range(m.range(at: 1), in: paragraph)!])
                if !quote.contains("…"), quote.range(of: #"^\S+:\d+:\d+: "#, options: .regularExpression) != nil { out.append(quote) }
            }
            paragraph = ""
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") { inline(); inCode.toggle(); continue }
            if inCode {
                if diagnostic.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)) != nil { out.append(line) }
            } else if line.trimmingCharacters(in: .whitespaces).isEmpty {
                inline()
            } else {
                paragraph += (paragraph.isEmpty ? "" : " ") + line.trimmingCharacters(in: .whitespaces)
            }
        }
        inline()
        return out
    }

    func testEveryQuotedDiagnosticIsOneEaselPrints() throws {
        let fixtures = Self.root.appendingPathComponent("Tests/Fixtures/docs-diagnostics")
        var printed = Set<String>()
        for line in try String(contentsOf: fixtures.appendingPathComponent("cases.tsv"), encoding: .utf8).split(separator: "\n") {
            let parts = line.split(separator: "\t", maxSplits: 1).map(String.init)
            let folder = fixtures.appendingPathComponent(parts[0])
            let r = try ExternalTool.run("sh", ["-c", "cd \"$0\" && exec \"$1\" \(parts[1])", folder.path, ExternalTool.easelExecutable])
            XCTAssertNotEqual(r.stderr, "", "\(parts[0]): \(parts[1]) says nothing")
            printed.formUnion(r.stderr.split(separator: "\n").map(String.init))
        }
        let docs = Self.root.appendingPathComponent("docs")
        let pages = [Self.root.appendingPathComponent("README.md")]
            + (try FileManager.default.contentsOfDirectory(atPath: docs.path)).filter { $0.hasSuffix(".md") && $0 != "diagnostics.md" }
                .sorted().map { docs.appendingPathComponent($0) }
        var quoted = 0
        for page in pages {
            for quote in Self.quotedDiagnostics(in: try String(contentsOf: page, encoding: .utf8)) {
                quoted += 1
                XCTAssertTrue(printed.contains(quote), "\(page.lastPathComponent) quotes a diagnostic no case prints (reworded?):\n\(quote)\nprinted:\n\(printed.sorted().joined(separator: "\n"))")
            }
        }
        XCTAssertGreaterThanOrEqual(quoted, 6, "the quotes were found")
    }

    func testEveryBazelTargetTheDocsShowIsInTheExample() throws {
        let page = try String(contentsOf: Self.root.appendingPathComponent("docs/build-systems.md"), encoding: .utf8)
        let build = try String(contentsOf: Self.root.appendingPathComponent("examples/bazel/BUILD"), encoding: .utf8)
        // A target is its rule and name, then its scene or folder.
        func targets(_ text: String) -> Set<String> {
            let call = try! NSRegularExpression(pattern: #"(easel_image|easel_asset_catalog)\(\s*name = "([^"]+)",\s*(?:scene|folder) = "([^"]+)""#)
            return Set(call.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { m in
                (1...3).map { String(text[Range(m.range(at: $0), in: text)!]) }.joined(separator: " ")
            })
        }
        let shown = targets(page), there = targets(build)
        XCTAssertGreaterThanOrEqual(shown.count, 3)
        XCTAssertEqual(shown.subtracting(there), [], "docs/build-systems.md shows targets examples/bazel/BUILD lacks")
    }
}
