import Easel
import EaselParse
import EaselTestSupport
import Foundation
import XCTest

/// String tables and locales (docs/format.md, "Locales and strings"):
/// each format as Xcode and people write it, the fallback chain, and where
/// a table's value stands among the other sources of a parameter's value.
final class LocalizedStringsTests: XCTestCase {
    var folder: URL!

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("easel-strings-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func write(_ text: String, _ name: String, encoding: String.Encoding = .utf8) throws -> String {
        let url = folder.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try XCTUnwrap(text.data(using: encoding)).write(to: url)
        return url.path
    }

    func read(_ path: String) throws -> LocalizedStrings {
        switch StringTableReader.read(path: path) {
        case .success(let s): return s
        case .failure(let d): XCTFail(d.description); throw DiagnosticsError([d])
        }
    }

    static let scene = """
    <scene width="400" height="60">
      <defs>
        <param name="title" type="string" default="Default title"/>
        <param name="steps" type="number" default="3"/>
        <variant name="sale" set="title=Sale"/>
      </defs>
      <text font-size="12">{title}</text>
    </scene>
    """

    /// The text `easel layout` reports for the scene compiled with `options`.
    func title(_ options: Easel.Options, source: String = LocalizedStringsTests.scene) throws -> (String, [Diagnostic]) {
        let compiled = try compileScene(source, options: options)
        return (try XCTUnwrap(compiled.layout.texts.first).text.shaped.text, compiled.warnings)
    }

    func options(_ strings: LocalizedStrings?, locale: String?) -> Easel.Options {
        var o = Easel.Options()
        o.strings = strings
        o.locale = locale
        return o
    }

    /// A String Catalog as Xcode 15 writes it: a translated value, a plural
    /// read as its `other` form, and a key with no source-language value
    /// (the key is its own source text).
    func testStringCatalog() throws {
        let path = try write("""
        {
          "sourceLanguage" : "en",
          "strings" : {
            "title" : {
              "localizations" : {
                "de" : { "stringUnit" : { "state" : "translated", "value" : "Dein Wochenziel" } },
                "en" : { "stringUnit" : { "state" : "translated", "value" : "Your weekly goal" } },
                "ja" : { "variations" : { "plural" : {
                  "one" : { "stringUnit" : { "state" : "translated", "value" : "一" } },
                  "other" : { "stringUnit" : { "state" : "translated", "value" : "今週の目標" } } } } }
              }
            },
            "Move more" : { },
            "subtitle" : {
              "localizations" : {
                "fr" : { "stringUnit" : { "state" : "new", "value" : "" } },
                "en" : { "stringUnit" : { "state" : "translated", "value" : "Every day" } }
              }
            }
          },
          "version" : "1.0"
        }
        """, "Localizable.xcstrings")
        let strings = try read(path)
        XCTAssertEqual(strings.sourceLanguage, "en")
        XCTAssertEqual(strings.value("title", locale: "de")?.value, "Dein Wochenziel")
        XCTAssertEqual(strings.value("title", locale: "ja")?.value, "今週の目標")
        XCTAssertEqual(strings.value("Move more", locale: "en")?.value, "Move more")
        let untranslated = try XCTUnwrap(strings.value("subtitle", locale: "fr"))
        XCTAssertEqual(untranslated.value, "Every day", "an empty value not yet translated is no value")
        XCTAssertTrue(untranslated.fellBack)
        XCTAssertEqual(try title(options(strings, locale: "de")).0, "Dein Wochenziel")
    }

    /// `.strings` in UTF-16 with a byte order mark (as Xcode writes them) and
    /// in UTF-8; comments, escapes; the locale from the `.lproj` folder.
    func testStringsFilesInUTF16AndUTF8() throws {
        let de = try write("/* Title */\n\"title\" = \"Fortschritt \\\"heute\\\"\";\n// end\n\"other\" = \"x\\n\\U00E9\";\n",
                           "de.lproj/Localizable.strings", encoding: .utf16)
        XCTAssertEqual(Array(try Data(contentsOf: URL(fileURLWithPath: de)).prefix(2)), [0xFF, 0xFE], "written with a BOM")
        let fr = try write("\"title\" = \"Progrès\";", "fr.lproj/Localizable.strings")
        var strings = try read(de)
        strings.merge(try read(fr))
        XCTAssertEqual(strings.value("title", locale: "de")?.value, "Fortschritt \"heute\"")
        XCTAssertEqual(strings.value("other", locale: "de")?.value, "x\né")
        XCTAssertEqual(try title(options(strings, locale: "fr")).0, "Progrès")
    }

    /// A JSON table, the fallback chain pt-BR → pt → source language →
    /// default, and a warning at the <param> for each fallback.
    func testJSONTableAndFallbackChain() throws {
        let strings = try read(try write(#"{"en": {"title": "Progress"}, "pt": {"title": "Progresso"}, "de": {}}"#, "strings.json"))
        XCTAssertEqual(try title(options(strings, locale: "pt-BR")).0, "Progresso")
        XCTAssertTrue(try title(options(strings, locale: "pt-BR")).1.isEmpty)
        let (fallback, warnings) = try title(options(strings, locale: "de"))
        XCTAssertEqual(fallback, "Progress")
        let warning = try XCTUnwrap(warnings.first)
        XCTAssertEqual(warning.severity, .warning)
        XCTAssertEqual(warning.location?.line, 3, "at the <param>")
        XCTAssertTrue(warning.message.text.contains("no 'de' value for 'title'"), warning.message.text)

        let noSource = try read(try write(#"{"fr": {"title": "Progrès"}}"#, "fr.json"))
        let (text, more) = try title(options(noSource, locale: "de"))
        XCTAssertEqual(text, "Default title")
        XCTAssertTrue(more.first?.message.text.contains("default") ?? false)
    }

    /// A variant's `set`, then `--set`, then the table, then `--set-file`,
    /// then the default; only `string` parameters take table values.
    func testPrecedence() throws {
        let strings = try read(try write(#"{"de": {"title": "Titel", "steps": "9"}}"#, "p.json"))
        var o = options(strings, locale: "de")
        o.parameters["title"] = ParameterSetting("From file", from: .file("params.json"))
        XCTAssertEqual(try title(o).0, "Titel", "the table wins over --set-file")
        o.parameters["title"] = ParameterSetting("From --set", from: .commandLine)
        XCTAssertEqual(try title(o).0, "From --set", "--set wins over the table")
        o.variant = "sale"
        XCTAssertEqual(try title(o).0, "Sale", "a variant's set wins over all")
        let compiled = try compileScene(Self.scene, options: options(strings, locale: "de"))
        XCTAssertEqual(compiled.scene.parameters.first { $0.name == "steps" }?.value, "3", "a number parameter is not a string")
    }

    /// A locale gives the scene its default lang and direction.
    func testLocaleSetsLangAndDirection() throws {
        let ar = try compileScene(Self.scene, options: options(nil, locale: "ar"))
        XCTAssertEqual(ar.scene.lang, "ar")
        XCTAssertEqual(ar.scene.direction, .rtl)
        let de = try compileScene(Self.scene, options: options(nil, locale: "de"))
        XCTAssertEqual(de.scene.direction, .ltr)
        let own = try compileScene(Self.scene.replacingOccurrences(of: "<scene ", with: "<scene dir=\"ltr\" lang=\"en\" "),
                                   options: options(nil, locale: "he"))
        XCTAssertEqual(own.scene.direction, .ltr, "the scene's own dir wins")
        XCTAssertEqual(own.scene.lang, "en")
    }

    /// `pseudo`: every text accented and 40% longer in brackets, spans kept
    /// on their words; a title that fits in English overflows.
    func testPseudoLocale() throws {
        let source = """
        <scene width="400" height="60">
          <text x="0" y="0" width="130" height="16" font-size="12">Weekly steps <span fill="red">goal</span></text>
        </scene>
        """
        XCTAssertTrue(try compileScene(source).warnings.isEmpty)
        let pseudo = try compileScene(source, options: options(nil, locale: "pseudo"))
        let text = try XCTUnwrap(pseudo.layout.texts.first).text
        let plain = "Weekly steps goal"
        XCTAssertTrue(text.shaped.text.hasPrefix("[Ŵééķļý šţéƥš ĝöåļ"), text.shaped.text)
        XCTAssertTrue(text.shaped.text.hasSuffix("]"))
        XCTAssertGreaterThanOrEqual(Double(text.shaped.text.count), Double(plain.count) * 1.4)
        let red = try XCTUnwrap(text.shaped.runs.firstIndex { $0.text.contains("ĝöåļ") })
        XCTAssertEqual(try XCTUnwrap(firstText(pseudo)).spanFills.first?.runs, [red], "the span still holds its word")
        XCTAssertTrue(pseudo.warnings.contains { $0.message.text.contains("overflows its frame") && $0.message.text.contains("locale pseudo") },
                      "\(pseudo.warnings)")
        let rtl = try compileScene(source, options: options(nil, locale: "pseudo-rtl"))
        XCTAssertEqual(rtl.scene.direction, .rtl)
        XCTAssertTrue(try XCTUnwrap(rtl.layout.texts.first).text.shaped.text.hasPrefix("\u{202E}Weekly"))
    }

    /// Malformed tables are located errors.
    func testBadTablesAreLocated() throws {
        let bad = try write("\"title\" = \"unterminated;\n", "de.lproj/Bad.strings")
        guard case .failure(let d) = StringTableReader.read(path: bad) else { return XCTFail("accepted") }
        XCTAssertEqual(d.location?.line, 1)
        XCTAssertEqual(d.location?.column, 11)
        XCTAssertTrue(d.message.text.contains("not closed"), d.message.text)
        let json = try write("{\"de\": {\"a\": 1}}", "bad.json")
        guard case .failure(let j) = StringTableReader.read(path: json) else { return XCTFail("accepted") }
        XCTAssertTrue(j.message.text.contains("must be a string"), j.message.text)
        // A syntax error at its line and column (json-glib's), in JSON and in a String Catalog.
        let broken = try write("{\"de\": {\"title\": \"Titel\",\n  \"x\": }\n}", "broken.json")
        guard case .failure(let b) = StringTableReader.read(path: broken) else { return XCTFail("accepted") }
        XCTAssertEqual(b.location?.line, 2)
        XCTAssertEqual(b.location?.column, 8)
        XCTAssertTrue(b.message.text.contains("not valid JSON"), b.message.text)
        let catalog = try write("{\"sourceLanguage\": \"en\",\n\"strings\": {\n  \"a\": {,}\n}}", "Broken.xcstrings")
        guard case .failure(let c) = StringTableReader.read(path: catalog) else { return XCTFail("accepted") }
        XCTAssertEqual(c.location?.line, 3, c.message.text)
        // Nesting past 512 levels is refused where it passes, before the recursive parser sees it.
        let deep = try write("{\"de\": " + String(repeating: "[", count: 200_000), "deep.json")
        guard case .failure(let n) = StringTableReader.read(path: deep) else { return XCTFail("accepted") }
        XCTAssertEqual(n.location?.column, 8 + 511, n.message.text)
        XCTAssertTrue(n.message.text.contains("deeper than 512"), n.message.text)
        let loose = try write("\"a\" = \"b\";", "Loose.strings")
        guard case .failure(let l) = StringTableReader.read(path: loose) else { return XCTFail("accepted") }
        XCTAssertTrue(l.message.text.contains(".lproj"), l.message.text)
    }
}
