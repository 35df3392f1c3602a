import EaselParse
import EaselTestSupport
import Foundation
import XCTest

/// docs/format.md against the parser's vocabulary (the table that drives
/// "did you mean"), both ways: every element and attribute Easel accepts is
/// documented, and the page documents nothing Easel does not accept.
///
/// The page's conventions, which this test reads: one `### `<element>``
/// heading per element (`(graph layer)` or `(in a graph)` after it for a
/// child of `<lineGraph>`), attribute tables whose rows start with
/// `` | `name` | ``, and a line starting `Takes:` whose links include
/// shared attribute groups or another element's attributes.
final class FormatDocsTests: XCTestCase {
    struct Section {
        var key: String
        var attributes: Set<String> = []
        var includes: [String] = []   // anchors
    }

    /// GitHub's heading anchors: lower case, punctuation dropped, spaces to
    /// hyphens, repeats numbered.
    static func anchor(_ heading: String, seen: inout [String: Int]) -> String {
        let slug = String(heading.lowercased().compactMap { c -> Character? in
            if c.isLetter || c.isNumber || c == "-" || c == "_" { return c }
            return c == " " ? "-" : nil
        })
        let n = seen[slug, default: 0]
        seen[slug] = n + 1
        return n == 0 ? slug : "\(slug)-\(n)"
    }

    func readSections() throws -> (sections: [String: Section], anchors: [String: String], text: String) {
        let url = ExternalTool.repositoryRoot.appendingPathComponent("docs/format.md")
        let text = try String(contentsOf: url, encoding: .utf8)
        var sections: [String: Section] = [:], anchors: [String: String] = [:], seen: [String: Int] = [:]
        var current: String?
        var inCode = false
        let heading = try NSRegularExpression(pattern: "^### `<([A-Za-z]+)>`( \\((graph layer|in a graph)\\))?$")
        let row = try NSRegularExpression(pattern: "^\\| `([A-Za-z0-9-]+)` \\|")
        let link = try NSRegularExpression(pattern: "\\]\\(#([\\w-]+)\\)")
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            if inCode { continue }
            let range = NSRange(line.startIndex..., in: line)
            if line.hasPrefix("#") {
                let title = line.drop(while: { $0 == "#" }).trimmingCharacters(in: .whitespaces)
                let a = Self.anchor(title, seen: &seen)
                current = nil
                guard line.hasPrefix("### ") else { continue }
                if let m = heading.firstMatch(in: line, range: range), let r = Range(m.range(at: 1), in: line) {
                    let name = String(line[r])
                    let inGraph = m.range(at: 2).location != NSNotFound
                        || (Vocabulary.attributes[name] == nil && Vocabulary.graphChildren[name] != nil)
                    current = inGraph ? "graph:\(name)" : name
                } else {
                    current = "group:\(a)"
                }
                XCTAssertNil(sections[current!], "two sections for \(current!)")
                sections[current!] = Section(key: current!)
                anchors[a] = current!
                continue
            }
            guard let key = current else { continue }
            if let m = row.firstMatch(in: line, range: range), let r = Range(m.range(at: 1), in: line) {
                sections[key]?.attributes.insert(String(line[r]))
            }
            if line.hasPrefix("Takes:") || line.contains(". Takes:") {
                for m in link.matches(in: line, range: range) {
                    if let r = Range(m.range(at: 1), in: line) { sections[key]?.includes.append(String(line[r])) }
                }
            }
        }
        return (sections, anchors, text)
    }

    /// A section's attributes with everything its `Takes:` line includes.
    func attributes(_ key: String, _ sections: [String: Section], _ anchors: [String: String]) -> Set<String> {
        guard let s = sections[key] else { return [] }
        return s.includes.reduce(s.attributes) { all, a in
            guard let target = anchors[a] else {
                XCTFail("\(key) includes #\(a), which is no heading")
                return all
            }
            return all.union(attributes(target, sections, anchors))
        }
    }

    func testEveryElementAndAttributeIsDocumented() throws {
        let (sections, anchors, _) = try readSections()
        for (element, accepted) in Vocabulary.attributes {
            XCTAssertNotNil(sections[element], "docs/format.md has no section for <\(element)>")
            let documented = attributes(element, sections, anchors)
            for a in Set(accepted).subtracting(documented).sorted() { XCTFail("<\(element)> accepts '\(a)', not documented") }
            for a in documented.subtracting(accepted).sorted() { XCTFail("<\(element)>: the docs name '\(a)', which it does not accept") }
        }
        for (child, accepted) in Vocabulary.graphChildren {
            let key = "graph:\(child)"
            XCTAssertNotNil(sections[key], "docs/format.md has no section for <\(child)> in a graph")
            let documented = attributes(key, sections, anchors)
            for a in Set(accepted).subtracting(documented).sorted() { XCTFail("<\(child)> in a graph accepts '\(a)', not documented") }
            for a in documented.subtracting(accepted).sorted() { XCTFail("<\(child)> in a graph: the docs name '\(a)', which it does not accept") }
        }
    }

    func testDocsNameNoElementTheParserRejects() throws {
        let (sections, _, text) = try readSections()
        for key in sections.keys where !key.hasPrefix("group:") {
            let name = key.replacingOccurrences(of: "graph:", with: "")
            XCTAssertTrue(Vocabulary.attributes[name] != nil || Vocabulary.graphChildren[name] != nil, "a section for unknown <\(name)>")
        }
        // Every `<name` in running text is an element Easel accepts, or one
        // it knows is not supported yet.
        let known = Set(Vocabulary.attributes.keys).union(Vocabulary.graphChildren.keys).union(Vocabulary.planned)
        let mention = try NSRegularExpression(pattern: "`<([A-Za-z]+)")
        for m in mention.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let r = Range(m.range(at: 1), in: text) else { continue }
            XCTAssertTrue(known.contains(String(text[r])), "docs/format.md mentions <\(text[r])>, which Easel does not accept")
        }
    }

    func testDocsScenesAreShownAsTheyAre() throws {
        let r = try ExternalTool.run("python3", [ExternalTool.repositoryRoot.appendingPathComponent("scripts/sync-docs").path, "--check"])
        XCTAssertEqual(r.status, 0, r.stderr)
    }
}
