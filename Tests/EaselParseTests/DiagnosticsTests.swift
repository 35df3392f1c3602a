import EaselModel
import Easel
@testable import EaselParse
import EaselTestSupport
import Foundation
import XCTest

/// Every message must point where the problem is: markers in the source
/// give the expected line:column.
final class DiagnosticsTests: XCTestCase {
    func check(_ marked: String, _ expectations: [(String, String)], count: Int? = nil,
               file: StaticString = #filePath, line: UInt = #line) {
        assertDiagnostics(marked, expectations, count: count, file: file, line: line)
    }

    func testUnknownElementSuggestsNearestName() {
        check("""
        <scene width="10" height="10">
          1️⃣<rectt width="5"/>
        </scene>
        """, [("1️⃣", "unknown element <rectt>; did you mean 'rect'?")], count: 1)
    }

    func testUnknownAttributeSuggestsNearestName() {
        check("""
        <scene width="10" height="10">
          <rect 1️⃣strok-width="2" 2️⃣fil="red"/>
        </scene>
        """, [("1️⃣", "unknown attribute 'strok-width' on <rect>; did you mean 'stroke-width'?"),
              ("2️⃣", "did you mean 'fill'?")], count: 2)
    }

    func testEveryErrorOfAFileIsReportedInOneRun() {
        check("""
        <scene width="10" height="10">
          <rect fill="1️⃣blu" width="2️⃣ten"/>
          <path d="M 0 0 L 53️⃣"/>
          <view fill="4️⃣url(#nope)" clip-path="5️⃣url(#gone)"/>
          <circle/>
          <circle r="5" cx="1" 6️⃣cx2="3"/>
        </scene>
        """, [("1️⃣", "'blu' is not a colour"), ("1️⃣", "did you mean 'blue'?"),
              ("2️⃣", "'width' must be a length"),
              ("3️⃣", "L needs two numbers"),
              ("4️⃣", "no gradient or pattern with id 'nope'"),
              ("5️⃣", "no <clipPath> with id 'gone'"),
              ("6️⃣", "unknown attribute 'cx2'")], count: 6)
    }

    func testAttributeValueErrorsCarryTheValuesRange() {
        let source = MarkedSource("""
        <scene width="10" height="10">
          <rect fill="1️⃣blu2️⃣"/>
          <rect transform="3️⃣rotate(
            4) skew(1)4️⃣"/>
        </scene>
        """)
        let found = diagnostics(of: source.text)
        func range(_ a: String, _ b: String) -> (Int, Int, Int, Int) {
            let s = source.markers[a]!, e = source.markers[b]!
            return (s.line, s.column, e.line, e.column)
        }
        let ranges = found.compactMap { d in d.range.map { ($0.start.line, $0.start.column, $0.end.line, $0.end.column) } }
        XCTAssertEqual(found.count, 2, found.map(\.description).joined(separator: "\n"))
        XCTAssertTrue(ranges.contains { $0 == range("1️⃣", "2️⃣") }, "the colour's value, quotes excluded: \(ranges)")
        XCTAssertTrue(ranges.contains { $0 == range("3️⃣", "4️⃣") }, "a value over two lines ends on the second: \(ranges)")
    }

    func testPathDataErrorPointsInsideTheValue() {
        check("""
        <scene width="10" height="10">
          <path d="M 0 0 L 5 1️⃣x"/>
        </scene>
        """, [("1️⃣", "malformed path data")], count: 1)
    }

    func testBadNumbersAndRanges() {
        check("""
        <scene width="1️⃣-5" height="2️⃣1e999" scale="3️⃣0">
          <rect opacity="4️⃣1.5" stroke-width="5️⃣-1" corner-radius="6️⃣1 2"/>
          <repeat count="7️⃣2.5"/>
        </scene>
        """, [("1️⃣", "greater than 0"), ("2️⃣", "must be a number"), ("3️⃣", "'scale' is 0"),
              ("4️⃣", "from 0 to 1"), ("5️⃣", "0 or more"), ("6️⃣", "one or four"), ("7️⃣", "whole number")])
    }

    func testMalformedXMLIsLocated() {
        let found = diagnostics(of: "<scene width=\"10\" height=\"10\">\n  <rect>\n</scene>\n")
        XCTAssertFalse(found.isEmpty)
        XCTAssertEqual(found.first?.location?.line, 3, found.map(\.description).joined(separator: "\n"))
        XCTAssertTrue(found.first?.message.text.contains("malformed XML") ?? false)
    }

    func testDoctypeAndEntitiesAreRefused() {
        let source = MarkedSource("""
        <?xml version="1.0"?>
        1️⃣<!DOCTYPE scene [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
        <scene width="10" height="10"><rect id="&xxe;"/></scene>
        """)
        let found = diagnostics(of: source.text)
        assertDiagnostic(found, at: "1️⃣", in: source, contains: "DOCTYPE is not allowed")
        XCTAssertFalse(found.map(\.description).joined().contains("root:"), "no bytes of /etc/passwd in messages")
    }

    /// A malformed XML declaration, then a DOCTYPE declaring entities:
    /// libxml2 builds a document of its own to hold them, which leaked
    /// (fuzz/findings/leak-malformed-declaration-then-doctype.scene.xml,
    /// found by the fuzzer under LeakSanitizer; the ASan stage of CI runs
    /// this test with leak detection on).
    func testMalformedDeclarationThenDoctypeIsRefusedWithoutALeak() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../fuzz/findings/leak-malformed-declaration-then-doctype.scene.xml").standardized
        let text = String(decoding: try Data(contentsOf: url), as: UTF8.self)
        for _ in 0..<3 {
            let found = diagnostics(of: text)
            XCTAssertTrue(found.contains { $0.severity == .error }, found.map(\.description).joined(separator: "\n"))
        }
    }

    /// An empty CSV: Foundation's FileManager.contents(atPath:) leaked 4 KB
    /// for each empty file it read (found by the fuzzer through a graph's
    /// `src`; fuzz/findings/leak-empty-csv.scene.xml carries the CSV after
    /// a NUL). Easel reads files itself now; CI's ASan stage runs this.
    func testEmptyCSVIsAnErrorWithoutALeak() throws {
        let dir = ExternalTool.temporaryDirectory(name)
        try Data().write(to: dir.appendingPathComponent("data.csv"))
        for _ in 0..<3 {
            let found = diagnostics(of: "<scene width=\"60\" height=\"30\"><lineGraph src=\"data.csv\" column=\"v\"/></scene>",
                                    baseDirectory: dir)
            XCTAssertTrue(found.contains { $0.message.text.contains("no header row") }, found.description)
        }
    }

    func testClipPathReferenceCycle() {
        check("""
        <scene width="10" height="10">
          <defs>
            1️⃣<clipPath id="a" clip-path="url(#b)"><rect/></clipPath>
            <clipPath id="b"><rect clip-path="url(#a)"/></clipPath>
          </defs>
          <rect clip-path="url(#a)"/>
        </scene>
        """, [("1️⃣", "reference cycle: #a → #b → #a")], count: 1)
    }

    func testGradientErrors() {
        check("""
        <scene width="10" height="10">
          <defs>
            1️⃣<linearGradient id="empty"/>
            2️⃣<linearGradient id="both" angle="3" direction="up"><stop color="red"/></linearGradient>
            <linearGradient id="dir" direction="3️⃣upp"><stop offset="4️⃣1.5" color="red"/></linearGradient>
            <linearGradient id="5️⃣empty"><stop color="red"/></linearGradient>
          </defs>
        </scene>
        """, [("1️⃣", "needs at least one <stop>"), ("2️⃣", "exactly one of"),
              ("3️⃣", "did you mean 'up'?"), ("4️⃣", "'offset' is 1.5"), ("5️⃣", "duplicate id 'empty'")])
    }

    func testEmptyAnimationAndMisplacedShapes() {
        check("""
        <scene width="10" height="10">
          <defs>1️⃣<animatedGradient id="a"/><clipPath id="c">2️⃣<view/></clipPath></defs>
        </scene>
        """, [("1️⃣", "needs two or more keyframe gradients, not 0"), ("1️⃣", "needs a 'duration' attribute"),
              ("2️⃣", "<view> is not allowed inside <clipPath>")], count: 3)
    }

    func testRootMustBeScene() {
        let found = diagnostics(of: "<svg width=\"1\" height=\"1\"/>")
        XCTAssertEqual(found.first?.message.text, "the root element must be <scene>, not <svg>")
    }

    func testNodeLimitCountsRepeatsExpanded() {
        var options = Easel.Options()
        options.limits.maxNodes = 1000
        let source = MarkedSource("""
        <scene width="10" height="10">
          1️⃣<repeat count="10"><repeat count="200"><rect/></repeat></repeat>
        </scene>
        """)
        let found = diagnostics(of: source.text, options: options)
        assertDiagnostic(found, at: "1️⃣", in: source, contains: "nodes after expanding repeats")
    }

    func testPixelLimit() {
        let found = diagnostics(of: "<scene width=\"100000\" height=\"100000\"/>")
        XCTAssertTrue(found.contains { $0.message.text.contains("more than the limit of 64000000") })
    }
}

final class PaintServerDiagnosticsTests: XCTestCase {
    func check(_ marked: String, _ expectations: [(String, String)], count: Int? = nil,
               file: StaticString = #filePath, line: UInt = #line) {
        assertDiagnostics(marked, expectations, count: count, file: file, line: line)
    }

    func testPatternThatPaintsItself() {
        check("""
        <scene width="10" height="10">
          <defs>
            1️⃣<pattern id="a" width="4" height="4"><rect fill="url(#b)"/></pattern>
            <pattern id="b" width="4" height="4"><circle r="2" fill="url(#a)"/></pattern>
            <pattern id="self" width="4" height="4"><view><rect stroke="url(#self)"/></view></pattern>
          </defs>
          <rect fill="url(#a)"/>
        </scene>
        """, [("1️⃣", "reference cycle: #a → #b → #a")], count: 1)   // one cycle of a file is enough to fix first
        let single = MarkedSource("""
        <scene width="10" height="10"><defs>
        1️⃣<pattern id="self" width="4" height="4"><view><rect stroke="url(#self)"/></view></pattern>
        </defs></scene>
        """)
        assertDiagnostic(diagnostics(of: single.text), at: "1️⃣", in: single, contains: "reference cycle: #self → #self")
    }

    func testStripesAndPatternSizes() {
        check("""
        <scene width="10" height="10">
          <defs>
            <stripes id="s" spacing="1️⃣0"/>
            <stripes id="t" spacing="2️⃣-3" line-width="3️⃣-1"/>
            <pattern id="p" width="4️⃣0" height="4"/>
            5️⃣<pattern id="q" width="4"/>
          </defs>
        </scene>
        """, [("1️⃣", "'spacing' is 0 but must be greater than 0"), ("2️⃣", "'spacing' is -3"),
              ("3️⃣", "'line-width' is -1"), ("4️⃣", "'width' is 0"), ("5️⃣", "needs a 'height' attribute")])
    }

    /// A chain of references is followed by recursion when the scene is laid
    /// out and painted: longer than 256 links is an error at the parse (a
    /// chain of 30,000 overflowed the stack), found without recursion.
    func testReferenceChainsHaveALimit() throws {
        func chain(_ n: Int) -> String {
            let clips = (0..<n).map { i in
                "<clipPath id=\"c\(i)\"><rect width=\"5\" height=\"5\"\(i + 1 < n ? " clip-path=\"url(#c\(i + 1))\"" : "")/></clipPath>"
            }.joined()
            return "<scene width=\"10\" height=\"10\"><defs>\(clips)</defs><rect width=\"5\" height=\"5\" clip-path=\"url(#c0)\"/></scene>"
        }
        // 30,000 links overflowed the stack when followed by recursion (5,000
        // under sanitizers, whose frames are larger: the same depth of stack).
        let links = TestSizes.pick(30_000, small: 5_000)
        let long = SceneParser.parse(source: chain(links), baseDirectory: URL(fileURLWithPath: "/tmp"))
        XCTAssertNil(long.scene)
        XCTAssertEqual(long.diagnostics.filter { $0.severity == .error }.map(\.message.text),
                       ["references chained more than 256 deep (a clip path clipped by a clip path, a pattern filled with a pattern, and so on)"])
        XCTAssertNotNil(SceneParser.parse(source: chain(200), baseDirectory: URL(fileURLWithPath: "/tmp")).scene)
        // Patterns filled with patterns: the node count (which follows them)
        // is not made for a chain already refused.
        let patterns = (0..<links).map { i in
            "<pattern id=\"p\(i)\" width=\"4\" height=\"4\"><rect width=\"2\" height=\"2\"\(i + 1 < links ? " fill=\"url(#p\(i + 1))\"" : "")/></pattern>"
        }.joined()
        let deep = SceneParser.parse(source: "<scene width=\"10\" height=\"10\"><defs>\(patterns)</defs><rect width=\"5\" height=\"5\" fill=\"url(#p0)\"/></scene>",
                                     baseDirectory: URL(fileURLWithPath: "/tmp"))
        XCTAssertNil(deep.scene)
        XCTAssertTrue(deep.diagnostics.contains { $0.message.text.hasPrefix("references chained more than 256 deep") })
    }

    /// Bounds on what resolving a paint or a run keeps per use: stops per
    /// gradient, axes per `font-variation`.
    func testStopsAndAxesHaveLimits() {
        let stops = String(repeating: "<stop color=\"red\"/>", count: 1024)
        let axes = (0..<65).map { String(format: "a%03d 1", $0) }.joined(separator: ", ")
        check("""
        <scene width="10" height="10">
          <defs><linearGradient id="g">\(stops)1️⃣<stop color="blue"/><stop color="red"/></linearGradient></defs>
          <text font-variation="2️⃣\(axes)">x</text>
        </scene>
        """, [("1️⃣", "a gradient may have at most 1024 stops"), ("2️⃣", "'font-variation' may set at most 64 axes")], count: 2)
    }

    func testGradientKindsNeedStopsAndKnownNames() {
        check("""
        <scene width="10" height="10">
          <defs>
            1️⃣<radialGradient id="r"/>
            2️⃣<conicGradient id="c"/>
            3️⃣<sweepGradient id="s"/>
            <radialGradient id="x" 4️⃣centre="0.5 0.5"><stop color="red"/></radialGradient>
            <conicGradient id="y" center="5️⃣0.5"><stop color="red"/></conicGradient>
          </defs>
        </scene>
        """, [("1️⃣", "gradient 'r' needs at least one <stop>"), ("2️⃣", "gradient 'c' needs at least one <stop>"),
              ("3️⃣", "unknown element <sweepGradient>"), ("4️⃣", "did you mean 'center'?"),
              ("5️⃣", "'center' must be two numbers")])
    }
}

final class ExpansionLimitTests: XCTestCase {
    /// Patterns of patterns multiply: 100 children each filled with a
    /// pattern of 100 children… is counted in full and refused.
    func testPatternsOfPatternsCountTowardsTheNodeLimit() {
        let hundred = { (fill: String) in String(repeating: "<rect fill=\"\(fill)\"/>", count: 100) }
        let source = """
        <scene width="10" height="10">
          <defs>
            <pattern id="a" width="4" height="4">\(hundred("red"))</pattern>
            <pattern id="b" width="4" height="4">\(hundred("url(#a)"))</pattern>
            <pattern id="c" width="4" height="4">\(hundred("url(#b)"))</pattern>
          </defs>
          <repeat count="2"><rect fill="url(#c)"/></repeat>
        </scene>
        """
        let found = diagnostics(of: source)
        XCTAssertTrue(found.contains { $0.message.text.contains("nodes after expanding repeats") },
                      found.map(\.description).joined(separator: "\n"))
        // Raised far enough, the same scene parses (layout is not run here).
        var limits = Limits()
        limits.maxNodes = 3_000_000
        let parsed = SceneParser.parse(source: source, baseDirectory: URL(fileURLWithPath: "/tmp"),
                                       options: ParseOptions(limits: limits))
        let raised = parsed.diagnostics
        XCTAssertNotNil(parsed.scene)
        XCTAssertTrue(raised.isEmpty, raised.map(\.description).joined(separator: "\n"))
    }
}

final class TextAndStackDiagnosticsTests: XCTestCase {
    func testTextAndStackErrors() {
        let source = MarkedSource("""
        <scene width="100" height="100">
          <text font-weight="1️⃣heavyy">a</text>
          <vstack spacing="2️⃣-4"><text max-lines="3️⃣0">b</text></vstack>
          <rect>4️⃣<text>not here</text></rect>
          <defs><clipPath id="c">5️⃣<text>nor here</text></clipPath></defs>
          <vstack><view height="6️⃣50%"/></vstack>
          <hstack alignment="7️⃣leading"/>
          8️⃣<text>   </text>
          <zstack alignment="9️⃣top-leadin"/>
        </scene>
        """)
        let found = diagnostics(of: source.text)
        assertDiagnostic(found, at: "1️⃣", in: source, contains: "'font-weight' must be a number from 1 to 1000")
        assertDiagnostic(found, at: "1️⃣", in: source, contains: "did you mean 'heavy'?")
        assertDiagnostic(found, at: "2️⃣", in: source, contains: "'spacing' is -4 but must be 0 or more")
        assertDiagnostic(found, at: "3️⃣", in: source, contains: "'max-lines' is 0")
        assertDiagnostic(found, at: "4️⃣", in: source, contains: "<text> is not allowed inside <rect>")
        assertDiagnostic(found, at: "5️⃣", in: source, contains: "<text> is not allowed inside <clipPath>")
        assertDiagnostic(found, at: "6️⃣", in: source, contains: "sizes itself to its children")
        assertDiagnostic(found, at: "7️⃣", in: source, contains: "must be one of bottom, center, top")
        assertDiagnostic(found, at: "8️⃣", in: source, contains: "<text> has no text")
        assertDiagnostic(found, at: "9️⃣", in: source, contains: "did you mean 'top-leading'?")
    }

    func testTextContentDropsIndentation() {
        XCTAssertEqual(SceneBuilder.textContent("\n    Line one\n      Line two\n  "), "Line one\nLine two")
        XCTAssertEqual(SceneBuilder.textContent("Hello"), "Hello")
    }
}
