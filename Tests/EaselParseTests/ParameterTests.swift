import Easel
@testable import EaselParse
import EaselTestSupport
import Foundation
import XCTest

/// `<param>`, `{name}`, palette `dark` values and `<variant>` through the
/// library API (docs/format.md, "Parameters and appearances"). Expected
/// colours are read from the hex text in the test, not through Easel.
final class ParameterTests: XCTestCase {
    func hex(_ s: String) -> ExpectedColor { ExpectedColor(hex: s) }

    func options(_ values: [String: String], appearance: Appearance = .light, variant: String? = nil) -> Easel.Options {
        var o = Easel.Options()
        o.parameters = values.mapValues { ParameterSetting($0) }
        o.appearance = appearance
        o.variant = variant
        return o
    }

    let themed = """
        <scene width="40" height="20">
          <defs>
            <param name="accent" type="color" default="#0a84ff"/>
            <param name="inset" type="length" default="4"/>
            <color name="bg" value="#ffffff" dark="#1c1c1e"/>
            <linearGradient id="g" angle="0"><stop color="bg"/><stop color="bg"/></linearGradient>
            <variant name="dark" appearance="dark"/>
            <variant name="promo" set="accent=#ff9f0a; inset=2"/>
          </defs>
          <rect width="20" height="20" fill="bg"/>
          <rect x="20" width="20" height="20" fill="url(#g)"/>
          <rect x="{inset}" y="{inset}" width="8" height="8" fill="{accent}"/>
          <rect x="30" y="14" width="6" height="2" fill="none" stroke="bg" stroke-width="4"/>
        </scene>
        """

    func testSetValuesReachTheirUses() throws {
        for accent in ["#34c759", "#af52de"] {
            let image = try compileScene(themed, options: options(["accent": accent])).renderImage()
            assertPixel(image, 8, 8, hex(accent), tolerance: 1, "accent=\(accent)")
        }
        // The default, where nothing sets it.
        assertPixel(try compileScene(themed).renderImage(), 8, 8, hex("#0a84ff"), tolerance: 1)
        // A length parameter moves the square: with inset 10 it covers (10…18).
        let moved = try compileScene(themed, options: options(["inset": "10"])).renderImage()
        assertPixel(moved, 5, 5, hex("#ffffff"), tolerance: 1)
        assertPixel(moved, 16, 16, hex("#0a84ff"), tolerance: 1)
    }

    func testDarkAppearanceTakesDarkValuesAtEveryUse() throws {
        let light = try compileScene(themed).renderImage()
        let dark = try compileScene(themed, options: options([:], appearance: .dark)).renderImage()
        // A fill, a gradient's stops, and a stroke all name `bg`.
        for (x, y) in [(2, 18), (25, 3), (33, 15)] {
            assertPixel(light, x, y, hex("#ffffff"), tolerance: 1, "light at \(x),\(y)")
            assertPixel(dark, x, y, hex("#1c1c1e"), tolerance: 1, "dark at \(x),\(y)")
        }
        // The variant named dark is the same as --appearance dark.
        let variant = try compileScene(themed, options: options([:], variant: "dark")).renderImage()
        XCTAssertEqual(variant.rgba, dark.rgba)
    }

    func testVariantSettingsOverrideDefaultsAndTheCommandLine() throws {
        let promo = try compileScene(themed, options: options(["accent": "#ff0000"], variant: "promo"))
        XCTAssertEqual(promo.scene.parameters.map(\.value), ["#ff9f0a", "2"])
        let image = try promo.renderImage()
        assertPixel(image, 3, 3, hex("#ff9f0a"), tolerance: 1)   // inset 2 from the variant
        // Without the variant, the command line's value stands.
        assertPixel(try compileScene(themed, options: options(["accent": "#ff0000"])).renderImage(), 8, 8, hex("#ff0000"), tolerance: 1)
        XCTAssertEqual(promo.scene.variants.map(\.name), ["dark", "promo"])
        XCTAssertEqual(promo.scene.variants[0].isAppearanceOnly, true)
    }

    func testWrongTypeIsLocatedAtTheAttributeAndNamesTheParameter() {
        let found = diagnostics(of: themed, options: options(["accent": "bleu"]))
        XCTAssertEqual(found.count, 1, found.map(\.description).joined(separator: "\n"))
        XCTAssertEqual(found.first?.location?.line, 12)
        XCTAssertEqual(found.first?.message.text, "'bleu' is not a colour (from parameter 'accent' = 'bleu', set on the command line)")
        XCTAssertFalse(DiagnosticIndex.commandLineCodes.contains(found.first!.message.code))
        // A length that is not one.
        let length = diagnostics(of: themed, options: options(["inset": "wide"]))
        XCTAssertTrue(length.contains { $0.message.text.contains("'wide' is not a length") && $0.message.text.contains("parameter 'inset'") },
                      length.map(\.description).joined(separator: "\n"))
    }

    func testUnknownSettingIsACommandLineError() {
        let found = diagnostics(of: themed, options: options(["acent": "#fff"]))
        XCTAssertEqual(found.count, 1)
        XCTAssertEqual(found.first?.message.code, .unknownSetting)
        XCTAssertTrue(found.first?.message.text.contains("did you mean 'accent'?") == true, found.description)
        var lenient = options(["acent": "#fff"])
        lenient.ignoresUndeclaredParameters = true
        XCTAssertNoThrow(try compileScene(themed, options: lenient))
        XCTAssertTrue(diagnostics(of: themed, options: options([:], variant: "promp")).contains { $0.message.code == .unknownSetting })
    }

    func testDeclarationErrors() {
        assertDiagnostics("""
            <scene width="10" height="10"><defs>
            <param name="a" type="color" default="1️⃣bleu"/>
            <param name="2️⃣max" type="number" default="1"/>
            <param name="b" type="3️⃣colour" default="1"/>
            <param name="4️⃣a" type="number" default="1"/>
            <param name="5️⃣9lives" type="number" default="1"/>
            <variant name="6️⃣a/b"/>
            <variant name="v" set="7️⃣zz=1"/>
            <variant name="w" set="8️⃣a"/>
            </defs><rect fill="9️⃣{nope}"/></scene>
            """, [("1️⃣", "'bleu' is not a colour (the default of parameter 'a')"),
                  ("2️⃣", "cannot name a parameter"),
                  ("3️⃣", "'type' must be one of color, number, length, angle, string"),
                  ("4️⃣", "parameter 'a' is declared twice"),
                  ("5️⃣", "'name' must be a letter"),
                  ("6️⃣", "letters, digits, '_' and '-' only"),
                  ("7️⃣", "variant 'v' sets 'zz', but the scene has no parameter 'zz'"),
                  ("8️⃣", "'set' must be name=value pairs"),
                  ("9️⃣", "{nope} is not a declared parameter")])
    }

    /// Thousands of declarations are looked up by name: a duplicate at the
    /// end names the first's place, a variant's too, and a misspelt
    /// reference repeated past the error limit is reported up to it.
    func testManyDeclarationsAreCheckedByName() {
        let count = 5_000
        let params = (0..<count).map { "<param name=\"p\($0)\" type=\"number\" default=\"\($0)\"/>" }.joined(separator: "\n")
        let source = """
            <scene width="10" height="10"><defs>
            \(params)
            <param name="p0" type="number" default="1"/>
            <variant name="v" set="p1=2"/>
            <variant name="v" set="p\(count - 1)=3"/>
            </defs><rect id="\(String(repeating: "{p00}", count: 500))"/></scene>
            """
        let found = diagnostics(of: source, options: options([:]))
        XCTAssertTrue(found.contains { $0.description.contains("parameter 'p0' is declared twice (first at 2:1)") }, "\(found.prefix(3))")
        XCTAssertTrue(found.contains { $0.description.contains("variant 'v' is declared twice (first at \(count + 3):1)") }, "\(found.prefix(3))")
        let misspelt = found.filter { $0.description.contains("{p00} is not a declared parameter") }
        XCTAssertFalse(misspelt.isEmpty)
        XCTAssertLessThanOrEqual(found.count, 21, "reported up to the error limit, not once per reference")
        XCTAssertTrue(misspelt.allSatisfy { $0.description.contains("did you mean '{p0}'") }, "\(misspelt.first.map(\.description) ?? "")")
    }

    /// Suggestions are made for the diagnostics printed, once per name:
    /// counted as the candidates compared. 200,000 references to one
    /// undeclared name among 2,000 parameters compare each parameter once
    /// (not 200,000 times); 5,000 unknown paint references among 5,000 ids
    /// compare only for the errors kept (the limit, 20), not for all.
    func testSuggestionsAreMadeOnlyForWhatIsPrinted() {
        let params = (0..<2_000).map { "<param name=\"p\($0)\" type=\"number\" default=\"\($0)\"/>" }.joined()
        var before = Suggestion.comparisons.load(ordering: .relaxed)
        _ = diagnostics(of: "<scene width=\"10\" height=\"10\"><defs>\(params)</defs><rect id=\"\(String(repeating: "{zq}", count: 200_000))\"/></scene>",
                        options: options([:]))
        XCTAssertLessThanOrEqual(Suggestion.comparisons.load(ordering: .relaxed) - before, 2 * 2_000)
        let ids = (0..<5_000).map { "<stripes id=\"s\($0)\" spacing=\"4\"/>" }.joined()
        let uses = (0..<5_000).map { "<rect width=\"1\" height=\"1\" fill=\"url(#x\($0))\"/>" }.joined()
        before = Suggestion.comparisons.load(ordering: .relaxed)
        let found = diagnostics(of: "<scene width=\"10\" height=\"10\"><defs>\(ids)</defs>\(uses)</scene>", options: options([:]))
        XCTAssertEqual(found.count, 21, "20 errors and the one saying the limit was reached")
        XCTAssertLessThanOrEqual(Suggestion.comparisons.load(ordering: .relaxed) - before, 2 * 20 * 5_000)
    }

    func testSubstitutionIsSinglePassAndBracesEscape() throws {
        let source = """
            <scene width="10" height="10">
              <defs>
                <param name="label" type="string" default="x"/>
                <param name="other" type="string" default="EXPANDED"/>
              </defs>
              <rect id="{label}" width="1" height="1"/>
              <rect id="{{label}}-{label}" width="1" height="1"/>
            </scene>
            """
        let scene = try compileScene(source, options: options(["label": "{other}"])).scene
        XCTAssertEqual(scene.nodes.map(\.common.id), ["{other}", "{label}-{other}"])
    }

    /// A value of lone braces before names (`{a {a {a …`) was rescanned to
    /// its end at every brace. Counted: finding the references of a value
    /// looks at each character at most twice, whatever it holds.
    func testFindingReferencesLooksAtEachCharacterOnce() {
        for unit in ["{a ", "{", "{ab.c-d", "{a}{", "{{a ", "{é "] {
            let scalars = Array(String(repeating: unit, count: 20_000).unicodeScalars)
            var examined = 0
            for i in scalars.indices where scalars[i] == "{" {
                _ = ParameterTypeCheck.referenceClose(in: scalars, openingAt: i, examined: &examined)
            }
            XCTAssertLessThanOrEqual(examined, 2 * scalars.count, "\(unit.debugDescription) × 20,000")
        }
        // and they are still found: `{name}` only, a name's first character a letter or '_'
        let found = { (s: String) -> [String] in
            let scalars = Array(s.unicodeScalars)
            var n = 0
            return scalars.indices.compactMap { i in
                guard scalars[i] == "{", let c = ParameterTypeCheck.referenceClose(in: scalars, openingAt: i, examined: &n) else { return nil }
                return String(String.UnicodeScalarView(scalars[(i + 1)..<c]))
            }
        }
        XCTAssertEqual(found("{a} {1b} {_c.d-e} {} {x y} {{z}} {é} {a{b}"), ["a", "_c.d-e", "z", "b"])
    }

    func testGraphTextKeepsStatisticsAndParameterValuesStayLiteral() throws {
        let source = """
            <scene width="100" height="40">
              <defs><param name="unit" type="string" default="kg"/></defs>
              <lineGraph values="1 5 3">
                <text>{max} {unit} {{max}}</text>
              </lineGraph>
            </scene>
            """
        let graph = try compileScene(source, options: options(["unit": "{min}"])).scene.nodes[0]
        guard case .lineGraph(let g) = graph.kind, case .text(let node) = g.items.first?.item, case .text(let style) = node.kind else {
            return XCTFail("no graph text")
        }
        XCTAssertEqual(style.text, "5 {min} {max}")
    }

    func testExpansionIsBounded() {
        let long = String(repeating: "x", count: 5000)
        let found = diagnostics(of: themed, options: options(["accent": long]))
        XCTAssertTrue(found.contains { $0.message.code == .unknownSetting && $0.message.text.contains("more than the limit of 4096") }, found.description)

        // 1,000 uses of a 1,000-byte value against a 100 KB file limit.
        var o = options([:])
        o.limits.maxFileSize = 100_000
        let uses = String(repeating: "<rect id=\"r{v}\"/>", count: 1000).replacingOccurrences(of: "r{v}", with: "{v}")
        let big = "<scene width=\"10\" height=\"10\"><defs><param name=\"v\" type=\"string\" default=\"\(String(repeating: "y", count: 1000))\"/></defs>\(uses)</scene>"
        let bounded = diagnostics(of: big, options: o)
        XCTAssertTrue(bounded.contains { $0.message.text.contains("parameters make the scene more than 100000 bytes larger") },
                      bounded.prefix(3).description)
        // All in one attribute: stopped while expanding it, not after.
        let refs = String(repeating: "{v}", count: 50_000)
        let one = "<scene width=\"10\" height=\"10\"><defs><param name=\"v\" type=\"string\" default=\"\(String(repeating: "y", count: 4000))\"/></defs><rect id=\"\(refs)\"/></scene>"
        o.limits.maxFileSize = 1_000_000
        let single = diagnostics(of: one, options: o)
        XCTAssertTrue(single.contains { $0.message.text.contains("parameters make the scene more than 1000000 bytes larger") },
                      single.prefix(3).description)
    }

    func testPaletteColoursKeepBothValues() throws {
        let scene = try compileScene(themed, options: options([:], appearance: .dark)).scene
        let bg = try XCTUnwrap(scene.definitions.paletteColors.first { $0.name == "bg" })
        XCTAssertEqual(bg.light, Color(r8: 255, g8: 255, b8: 255))
        XCTAssertEqual(bg.dark, Color(r8: 0x1c, g8: 0x1c, b8: 0x1e))
        XCTAssertEqual(scene.appearance, .dark)
    }
}
