import EaselTestSupport
import Foundation
import XCTest

/// Pango, HarfBuzz, GLib and json-glib are loaded on their first call
/// (Sources/CLazyTextLibraries), and the release binary is linked without
/// them (scripts/lazy-link): a scene without text must start without
/// mapping them. The loader says what it initialises (`LD_DEBUG=libs`), so
/// these tests count libraries, not milliseconds.
final class LazyTextLibraryTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }

    /// The libraries a render initialised, by file name (`libpango-1.0.so.0`).
    func librariesInitialised(_ scene: String, _ extra: [String] = []) throws -> Set<String> {
        // The binary scripts/test and .ci/run lazy-link; a plain `swift build`
        // links the libraries at start (SwiftPM gives the linker no way to
        // leave them out), so there is nothing to check without it.
        guard let easel = ProcessInfo.processInfo.environment["EASEL_RELEASE_BINARY"] else {
            throw XCTSkip("needs the lazy-linked release binary in EASEL_RELEASE_BINARY (scripts/test sets it)")
        }
        let path = dir.appendingPathComponent("scene.scene.xml")
        try Data(scene.utf8).write(to: path)
        let r = try ExternalTool.run("env", ["LD_DEBUG=libs", easel, "render", path.path,
                                             "-o", dir.appendingPathComponent("out.png").path] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n").filter { $0.contains("calling init:") }
        XCTAssertFalse(lines.isEmpty, "LD_DEBUG printed nothing: \(r.stderr.prefix(500))")
        return Set(lines.compactMap { $0.split(separator: "/").last.map(String.init) })
    }

    let text = ["libpango-1.0.so.0", "libpangocairo-1.0.so.0", "libpangoft2-1.0.so.0", "libharfbuzz.so.0"]
    /// GLib itself is loaded by every compile: it hashes the scene file
    /// (SHA-256, ContentHash), for about half a million instructions.
    let objectsAndJSON = ["libgobject-2.0.so.0", "libjson-glib-1.0.so.0", "libgio-2.0.so.0"]

    func testASceneWithoutTextLoadsNoTextLibrary() throws {
        let loaded = try librariesInitialised("""
            <scene width="40" height="20"><defs><linearGradient id="g" angle="30"><stop color="#ff0000"/><stop color="#0000ff"/></linearGradient></defs>
            <rect width="40" height="20" fill="url(#g)"/></scene>
            """)
        XCTAssert(loaded.contains("libcairo.so.2"), "\(loaded.sorted())")
        XCTAssertEqual(loaded.intersection(text + objectsAndJSON), [], "\(loaded.sorted())")
    }

    func testTextLoadsPangoAndHarfBuzzWhenItIsShaped() throws {
        // The test's own font, not the machine's.
        let loaded = try librariesInitialised(#"<scene width="80" height="30"><text font-family="Inter" font-size="20">Hi</text></scene>"#,
                                              ["--font-dir", TestFonts.folder.path, "--system-fonts", "no"])
        XCTAssert(loaded.isSuperset(of: text + ["libglib-2.0.so.0"]), "\(loaded.sorted())")
    }

    /// A JSON string table needs json-glib (and GLib under it), not Pango.
    func testAStringTableLoadsJSONGLibAlone() throws {
        let strings = dir.appendingPathComponent("strings.json")
        try Data(#"{"de": {"title": "Titel"}}"#.utf8).write(to: strings)
        let loaded = try librariesInitialised(##"<scene width="40" height="20"><rect width="40" height="20" fill="#123456"/></scene>"##,
                                              ["--strings", strings.path, "--locale", "de"])
        XCTAssert(loaded.contains("libjson-glib-1.0.so.0"), "\(loaded.sorted())")
        XCTAssertEqual(loaded.intersection(text), [], "\(loaded.sorted())")
    }
}
