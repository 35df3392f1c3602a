import EaselModel
import EaselParse
import EaselTestSupport
import Foundation
import XCTest

/// The XSD and the parser's vocabulary must name the same attributes for
/// every element, so the schema never drifts from what Easel accepts.
final class SchemaVocabularyTests: XCTestCase {
    func testSchemaDeclaresExactlyTheParsersAttributes() throws {
        let url = ExternalTool.repositoryRoot.appendingPathComponent("schemas/easel.xsd")
        let (root, diags) = XMLReader.read(bytes: [UInt8](try Data(contentsOf: url)), file: url.path)
        let schema = try XCTUnwrap(root, diags.all.map(\.description).joined(separator: "\n"))

        var groups: [String: XMLElement] = [:], types: [String: XMLElement] = [:]
        for g in schema.children where g.name == "xs:attributeGroup" {
            if let name = g.attribute("name")?.value { groups[name] = g }
        }
        for t in schema.children where t.name == "xs:complexType" {
            if let name = t.attribute("name")?.value { types[name] = t }
        }
        func attributes(in el: XMLElement) -> Set<String> {
            var out: Set<String> = []
            for c in el.children {
                switch c.name {
                case "xs:attribute": if let n = c.attribute("name")?.value { out.insert(n) }
                case "xs:attributeGroup":
                    if let ref = c.attribute("ref")?.value, let g = groups[ref] { out.formUnion(attributes(in: g)) }
                case "xs:element": break   // a local element's attributes are its own
                default: out.formUnion(attributes(in: c))
                }
            }
            return out
        }
        var declared: [String: Set<String>] = [:]
        for el in schema.children where el.name == "xs:element" {
            guard let name = el.attribute("name")?.value else { continue }
            if let type = el.attribute("type")?.value, let t = types[type] {
                declared[name] = attributes(in: t)
            } else {
                declared[name] = attributes(in: el)
            }
        }
        // An element allowed only inside others (`<span>`) is declared locally
        // with a complex type of its own name, so it cannot be a document's root.
        for (name, t) in types where declared[name] == nil && Vocabulary.attributes[name] != nil { declared[name] = attributes(in: t) }
        XCTAssertEqual(Set(declared.keys), Set(Vocabulary.attributes.keys), "elements")
        for (element, attrs) in Vocabulary.attributes {
            XCTAssertEqual(declared[element], Set(attrs), "attributes of <\(element)>")
        }
        // The graph's own children are local elements of <lineGraph>.
        func find(_ el: XMLElement, named name: String) -> XMLElement? {
            if el.name == "xs:element", el.attribute("name")?.value == name { return el }
            for c in el.children { if let f = find(c, named: name) { return f } }
            return nil
        }
        let graph = try XCTUnwrap(find(schema, named: "lineGraph"))
        for (child, attrs) in Vocabulary.graphChildren {
            let local = try XCTUnwrap(find(graph, named: child), "<\(child)> in <lineGraph>")
            // Inline, or a named type (<series> shares <area>, <line> and <points>).
            let declared = local.attribute("type").flatMap { types[$0.value] }.map(attributes(in:)) ?? attributes(in: local)
            XCTAssertEqual(declared, Set(attrs), "attributes of <lineGraph>'s <\(child)>")
        }
    }
}

/// The fuzzer's dictionary is generated from the vocabulary; the committed
/// file must be what the generator makes. `EASEL_RECORD=1` rewrites it (and
/// still fails, so a new baseline is never accepted silently).
final class FuzzDictionaryTests: XCTestCase {
    func testFuzzDictionaryIsGeneratedFromTheVocabulary() throws {
        let url = ExternalTool.repositoryRoot.appendingPathComponent("fuzz/scene.dict")
        let committed = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
        let expected = FuzzDictionary.text
        if committed != expected, ProcessInfo.processInfo.environment["EASEL_RECORD"] == "1" {
            try expected.write(to: url, atomically: true, encoding: .utf8)
            XCTFail("recorded fuzz/scene.dict; run again without EASEL_RECORD")
            return
        }
        XCTAssertEqual(committed, expected, "fuzz/scene.dict is out of date: run the tests with EASEL_RECORD=1")
        for element in Vocabulary.attributes.keys {
            XCTAssertTrue(committed.contains("\"<\(element)\""), element)
        }
    }
}
