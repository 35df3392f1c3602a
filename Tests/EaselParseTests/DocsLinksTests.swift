import Foundation
import XCTest

/// The README and docs/ as a reader meets them: every relative link and
/// image points at a file that exists, every `#anchor` into a page at one
/// of its headings (GitHub's rule), and the README fits on a screen or two.
final class DocsLinksTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var pages: [URL] {
        let docs = root.appendingPathComponent("docs")
        return [root.appendingPathComponent("README.md")]
            + ((try? FileManager.default.contentsOfDirectory(atPath: docs.path)) ?? [])
                .filter { $0.hasSuffix(".md") }.sorted().map { docs.appendingPathComponent($0) }
    }

    /// GitHub's heading anchors: lower case, punctuation but hyphens and
    /// spaces dropped, spaces as hyphens.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().unicodeScalars.filter {
            CharacterSet.alphanumerics.contains($0) || $0 == "-" || $0 == " " || $0 == "_"
        }.map { $0 == " " ? "-" : Character($0) })
    }

    static func anchors(in text: String) -> Set<String> {
        var out = Set<String>()
        var inCode = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            guard !inCode, line.hasPrefix("#") else { continue }
            out.insert(anchor(String(line.drop { $0 == "#" }.drop { $0 == " " })))
        }
        return out
    }

    /// `[text](target)` and `![alt](target)` outside code blocks, by line.
    static func links(in text: String) -> [(line: Int, target: String)] {
        var out: [(line: Int, target: String)] = []
        var inCode = false
        let pattern = try! NSRegularExpression(pattern: #"\]\(([^)\s]+)\)"#)
        for (i, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            guard !inCode else { continue }
            let s = String(line)
            for m in pattern.matches(in: s, range: NSRange(s.startIndex..., in: s)) {
                out.append((i + 1, String(s[Range(m.range(at: 1), in: s)!])))
            }
        }
        return out
    }

    func testEveryLinkAndAnchorResolves() throws {
        var checked = 0
        for page in Self.pages {
            let text = try String(contentsOf: page, encoding: .utf8)
            for (line, target) in Self.links(in: text) {
                if target.hasPrefix("http://") || target.hasPrefix("https://") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let file = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                let name = "\(page.lastPathComponent):\(line): \(target)"
                guard FileManager.default.fileExists(atPath: file.path) else {
                    XCTFail("\(name): no such file")
                    continue
                }
                if parts.count == 2, file.pathExtension == "md" {
                    let anchors = Self.anchors(in: try String(contentsOf: file, encoding: .utf8))
                    XCTAssertTrue(anchors.contains(parts[1]), "\(name): no heading with that anchor")
                }
                checked += 1
            }
        }
        XCTAssertGreaterThan(checked, 50, "links checked")
    }

    func testTheREADMEFitsOnAScreenOrTwo() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        XCTAssertLessThanOrEqual(readme.split(separator: "\n", omittingEmptySubsequences: false).count, 200)
    }

    /// The anchor rule itself, on headings the docs have.
    func testAnchorsFollowGitHubsRule() {
        XCTAssertEqual(Self.anchor("Not supported yet"), "not-supported-yet")
        XCTAssertEqual(Self.anchor("`<lineGraph>`"), "linegraph")
        XCTAssertEqual(Self.anchor("E0103 unknown-attribute"), "e0103-unknown-attribute")
    }
}
