import Easel
import EaselParse
import Foundation
import XCTest

/// Compiles a scene written inline in a test.
public func compileScene(_ source: String, file: StaticString = #filePath, line: UInt = #line,
                         baseDirectory: URL = URL(fileURLWithPath: NSTemporaryDirectory()),
                         options: Easel.Options = Easel.Options()) throws -> CompiledScene {
    switch Easel.compile(source: source, file: "test.scene.xml", baseDirectory: baseDirectory, options: options) {
    case .success(let s): return s
    case .failure(let e):
        XCTFail("scene did not compile:\n\(e)", file: file, line: line)
        throw e
    }
}

/// Diagnostics of a scene that must fail.
public func diagnostics(of source: String, baseDirectory: URL = URL(fileURLWithPath: NSTemporaryDirectory()),
                        options: Easel.Options = Easel.Options()) -> [Diagnostic] {
    switch Easel.compile(source: source, file: "test.scene.xml", baseDirectory: baseDirectory, options: options) {
    case .success(let s): return s.warnings
    case .failure(let e): return e.diagnostics
    }
}

/// Scene text with location markers (1️⃣, 2️⃣, …) as swift-format's rule
/// tests use them: the markers are removed and their line:column (UTF-8
/// bytes, 1-based) recorded, so a test can assert where a message points.
public struct MarkedSource {
    public var text: String
    public var markers: [String: (line: Int, column: Int)] = [:]

    public static let symbols = ["1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣"]

    public init(_ marked: String) {
        var out = ""
        var line = 1, column = 1
        var rest = Substring(marked)
        while !rest.isEmpty {
            if let m = MarkedSource.symbols.first(where: { rest.hasPrefix($0) }) {
                markers[m] = (line, column)
                rest = rest.dropFirst(m.count)
                continue
            }
            let c = rest.removeFirst()
            out.append(c)
            if c == "\n" { line += 1; column = 1 } else { column += c.utf8.count }
        }
        text = out
    }
}

/// Compiles marked scene text and asserts each (marker, fragment) pair;
/// with `count`, also how many diagnostics there are in all.
public func assertDiagnostics(_ marked: String, _ expectations: [(String, String)], count: Int? = nil,
                              file: StaticString = #filePath, line: UInt = #line) {
    let source = MarkedSource(marked)
    let found = diagnostics(of: source.text)
    // A marker nobody checks is a test that claims more than it asserts.
    for marker in Set(source.markers.keys).subtracting(expectations.map(\.0)).sorted() {
        XCTFail("marker \(marker) has no expectation", file: file, line: line)
    }
    for (marker, fragment) in expectations {
        assertDiagnostic(found, at: marker, in: source, contains: fragment, file: file, line: line)
    }
    if let count {
        XCTAssertEqual(found.count, count, found.map(\.description).joined(separator: "\n"), file: file, line: line)
    }
}

/// Asserts that a diagnostic containing `fragment` points at `marker`.
public func assertDiagnostic(_ diagnostics: [Diagnostic], at marker: String, in source: MarkedSource,
                             contains fragment: String, file: StaticString = #filePath, line: UInt = #line) {
    guard let want = source.markers[marker] else {
        XCTFail("no marker \(marker) in the source", file: file, line: line)
        return
    }
    let hit = diagnostics.contains {
        $0.location?.line == want.line && $0.location?.column == want.column && $0.message.text.contains(fragment)
    }
    XCTAssertTrue(hit, "expected an error containing '\(fragment)' at \(want.line):\(want.column); got:\n"
                  + diagnostics.map(\.description).joined(separator: "\n"), file: file, line: line)
}
