import EaselLayout
import EaselModel
import EaselParse
import Foundation
import XCTest

/// A text engine where every character is 0.6 em wide and a line 1.2 em
/// high, words wrap greedily, and a word wider than the width breaks: the
/// fit search is checked against sizes worked out by hand, and its work is
/// counted (layouts asked for, and how many font sizes they needed).
final class CountingMeasurer: TextMeasuring, @unchecked Sendable {
    private let lock = NSLock()
    private(set) var fitCalls = 0
    private(set) var scales = Set<Double>()

    func metrics(_ r: TextRequest) -> (size: Size, lines: Int, broken: String?) {
        let em = (r.font.size ?? 12) * r.fontScale
        let advance = 0.6 * em, lineHeight = 1.2 * em
        var lines = 0, broken: String?
        var widest = 0.0
        for source in r.text.split(separator: "\n", omittingEmptySubsequences: false) {
            var current = 0.0
            lines += 1
            for word in source.split(separator: " ") {
                let w = Double(word.count) * advance
                if let width = r.wrapWidth, w > width + 1e-9 { broken = broken ?? String(word) }
                let next = current == 0 ? w : current + advance + w
                if let width = r.wrapWidth, next > width + 1e-9, current > 0 { lines += 1; current = w } else { current = next }
                widest = max(widest, current)
            }
        }
        return (Size(r.wrapWidth ?? widest, Double(lines) * lineHeight), lines, broken)
    }

    func measure(_ r: TextRequest) -> Size { metrics(r).size }
    func shape(_ r: TextRequest) -> ShapedText {
        let m = metrics(r)
        var s = ShapedText(text: r.text, size: m.size, lineBounds: Rect(x: 0, y: 0, width: m.size.width, height: m.size.height),
                           lines: [], runs: [])
        s.fontSize = (r.font.size ?? 12) * r.fontScale
        return s
    }
    func fitMeasure(_ r: TextRequest) -> TextFitMeasure {
        lock.withLock { fitCalls += 1; scales.insert(r.fontScale) }
        let m = metrics(r)
        return TextFitMeasure(size: m.size, lineCount: m.lines, brokenWord: m.broken, fontSize: r.font.size ?? 12)
    }
}

struct LayoutMissing: Error, CustomStringConvertible { var description: String }

final class TextFitTests: XCTestCase {
    func fitted(_ text: String, attributes: String) throws -> (ShapedTextLayout, CountingMeasurer) {
        let source = "<scene width=\"1000\" height=\"1000\"><text \(attributes) fit=\"shrink\">\(text)</text></scene>"
        let parsed = try XCTUnwrap(SceneParser.parse(source: source, baseDirectory: URL(fileURLWithPath: "/tmp")).scene)
        let measurer = CountingMeasurer()
        let laid = LayoutEngine.resolveFrames(parsed, text: measurer)
        // A text that lays out to no text drawing is the regression itself: a failure, never a skip.
        guard let node = laid.nodes.first, let t = laid.text(of: node) else {
            throw LayoutMissing(description: "no text drawing for <text \(attributes)>: \(String(describing: laid.nodes.first))")
        }
        return (t, measurer)
    }

    /// One 20-letter word in 240 points: it fits while 20 · 0.6 · s ≤ 240,
    /// so at 20 points exactly; from 40, the search lands on it.
    func testOneWordShrinksToTheLargestGridSizeThatFits() throws {
        let (t, m) = try fitted(String(repeating: "a", count: 20), attributes: "width=\"240\" font-size=\"40\"")
        XCTAssertEqual(t.fitting.fontSize, 20)
        XCTAssertNil(t.fitting.overflow)
        // 22 points: 20 · 0.6 · 22.125 > 264 ≥ 20 · 0.6 · 22 — on the grid.
        let (u, _) = try fitted(String(repeating: "a", count: 20), attributes: "width=\"264\" font-size=\"40\"")
        XCTAssertEqual(u.fitting.fontSize, 22)
        // Bisection over 160 grid sizes, probed at the text's own size: the
        // size itself, the minimum, about log2(160) probes and one exact check.
        XCTAssertLessThanOrEqual(m.fitCalls, 12)
        XCTAssertLessThanOrEqual(m.scales.count, 3, "font sizes loaded: \(m.scales.sorted())")
    }

    /// Three lines of words in a 30-point-high frame: the largest size whose
    /// wrapped lines are at most 30 points high.
    func testHeightLimitsAWrappedText() throws {
        // "aaaa bbbb cccc" (14 characters): at s, a line holds floor(100 / (0.6 s)) characters.
        let (t, _) = try fitted("aaaa bbbb cccc", attributes: "width=\"100\" height=\"30\" font-size=\"24\"")
        // 24 (one line needs 14 · 0.6 · 24 = 201.6 > 100): two lines ("aaaa bbbb" = 9 chars, 9 · 0.6 · s ≤ 100
        // → s ≤ 18.5) are 2.4 · s high ≤ 30 → s ≤ 12.5; one line needs s ≤ 11.9 and is 1.2 · s high.
        XCTAssertEqual(t.fitting.fontSize, 12.5)
        XCTAssertNil(t.fitting.overflow)
    }

    /// Fitting at no size: set at min-font-size, with what overflows.
    func testNoFitReportsTheOverflow() throws {
        let (t, _) = try fitted(String(repeating: "a", count: 40), attributes: "width=\"100\" font-size=\"20\" min-font-size=\"10\"")
        XCTAssertEqual(t.fitting.fontSize, 10)
        XCTAssertEqual(t.fitting.overflow?.brokenWord, String(repeating: "a", count: 40))
        XCTAssertEqual(t.fitting.overflow?.minFontSize, 10)
    }
}
