import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Shaping work is bounded before Pango sees the text: stream-safe text
/// (UAX #15), marks per character, characters per unwrapped line, and
/// characters per scene. bench/shaping.py shows the time staying linear.
final class TextBoundsTests: XCTestCase {
    func styleText(_ scene: CompiledScene) -> String? {
        guard case .text(let style) = scene.scene.nodes.first?.kind else { return nil }
        return style.text
    }

    /// UAX #15: after 30 non-starters in a row, a COMBINING GRAPHEME JOINER.
    func testTextIsMadeStreamSafe() throws {
        let marks = String(repeating: "\u{0301}", count: 40)
        let scene = try compileScene("<scene width=\"100\" height=\"40\"><text>a\(marks)b</text></scene>")
        let scalars = Array(try XCTUnwrap(styleText(scene)).unicodeScalars)
        XCTAssertEqual(scalars.count, 1 + 40 + 1 + 1)
        XCTAssertEqual(scalars[31], "\u{034F}", "the joiner follows the 30th mark")
        XCTAssertEqual(scalars.filter { $0 == "\u{034F}" }.count, 1)
        XCTAssertTrue(scene.warnings.isEmpty)
        // Real text is untouched.
        let plain = try compileScene("<scene width=\"100\" height=\"40\"><text>Crème brûlée, Ελληνικά, हिन्दी</text></scene>")
        XCTAssertEqual(styleText(plain), "Crème brûlée, Ελληνικά, हिन्दी")
    }

    /// A letter with 100,000 accents took 135 s to shape (HarfBuzz positions
    /// each mark by looking back over all of them); now 255 are kept, with a
    /// located warning.
    func testMarksOnOneCharacterAreBounded() throws {
        let marks = String(repeating: "\u{0301}", count: 100_000)
        let scene = try compileScene("<scene width=\"100\" height=\"40\">\n<text>a\(marks)</text></scene>")
        let text = try XCTUnwrap(styleText(scene))
        XCTAssertEqual(text.unicodeScalars.filter { $0 == "\u{0301}" }.count, 255)
        XCTAssertEqual(scene.warnings.map(\.description), ["test.scene.xml:2:1: warning: 99745 combining marks dropped: Easel draws at most 255 on one character (shaping costs the square of a character's marks)"])
    }

    func testCharactersPerSceneAreBounded() throws {
        var options = Easel.Options()
        options.limits.maxTextCharacters = 1_000
        let text = String(repeating: "x", count: 600)
        let found = diagnostics(of: "<scene width=\"100\" height=\"40\">\n<text>\(text)</text>\n<text>\(text)</text></scene>", options: options)
        XCTAssertEqual(found.map(\.description), ["test.scene.xml:3:1: error: the scene's texts have more than 1000 characters in all (raise the limit with --max-text)"])
        // Graph labels count too.
        let labels = (0..<400).map { "label\($0)" }.joined(separator: " ")
        let graph = diagnostics(of: "<scene width=\"100\" height=\"40\"><lineGraph values=\"\((0..<400).map(String.init).joined(separator: " "))\" labels=\"\(labels)\"/></scene>",
                                options: options)
        XCTAssertTrue(graph.contains { $0.message.text.contains("more than 1000 characters") }, graph.description)
    }

    func testUnwrappedLinesAreBounded() throws {
        let line = String(repeating: "漢", count: 10_001)
        let found = diagnostics(of: "<scene width=\"100\" height=\"40\"><text>\(line)</text></scene>")
        XCTAssertTrue(found.contains { $0.message.text.contains("a line of this text has 10001 characters") }, found.description)
        // With a width it wraps, and is fine.
        XCTAssertNoThrow(try compileScene("<scene width=\"100\" height=\"40\"><text width=\"100\">\(line)</text></scene>"))
    }
}
