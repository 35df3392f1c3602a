import EaselTestSupport
import Foundation
import XCTest

/// Pango, HarfBuzz, GLib, json-glib, qpdf, librsvg, libwebp and libavif are loaded on their first call
/// (Sources/CLazyTextLibraries), and the release binary is linked without
/// them (scripts/lazy-link): a scene without text must start without
/// mapping them. The loader says what it initialises (`LD_DEBUG=libs`), so
/// these tests count libraries, not milliseconds.
final class LazyTextLibraryTests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }

    struct NoLazyBinary: Error, CustomStringConvertible {
        var description: String { "needs the lazy-linked release binary in EASEL_RELEASE_BINARY (scripts/test sets it)" }
    }

    /// The binary scripts/test lazy-links. Its absence is a failure, not a
    /// skip: a run that cannot check the start-up list has not checked it.
    func lazyBinary() throws -> String {
        guard let easel = ProcessInfo.processInfo.environment["EASEL_RELEASE_BINARY"] else { throw NoLazyBinary() }
        return easel
    }

    /// The libraries a render initialised, by file name
    /// (`libpango-1.0.so.0`): those the loader started with the program
    /// and those loaded after it had control (on first use).
    func librariesInitialised(_ scene: String, _ extra: [String] = [], output: String = "out.png", binary: String)
        throws -> (atStart: Set<String>, later: Set<String>) {
        let path = dir.appendingPathComponent("scene.scene.xml")
        try Data(scene.utf8).write(to: path)
        let r = try ExternalTool.run("env", ["LD_DEBUG=libs", binary, "render", path.path,
                                             "-o", dir.appendingPathComponent(output).path] + extra)
        XCTAssertEqual(r.status, 0, r.stderr)
        let lines = r.stderr.split(separator: "\n")
        guard let started = lines.firstIndex(where: { $0.contains("transferring control:") }) else {
            XCTFail("LD_DEBUG printed no start: \(r.stderr.prefix(500))")
            return ([], [])
        }
        func names(_ part: ArraySlice<Substring>) -> Set<String> {
            Set(part.filter { $0.contains("calling init:") }.compactMap { $0.split(separator: "/").last.map(String.init) })
        }
        let atStart = names(lines[..<started]), later = names(lines[started...])
        XCTAssertFalse(atStart.isEmpty, "LD_DEBUG printed no library: \(r.stderr.prefix(500))")
        return (atStart, later)
    }

    let text = ["libpango-1.0.so.0", "libpangocairo-1.0.so.0", "libpangoft2-1.0.so.0", "libharfbuzz.so.0"]
    /// GLib too: a render no longer hashes the files it reads (SHA-256 was
    /// GLib's `GChecksum`, and the reason every run loaded GLib).
    let objectsAndJSON = ["libglib-2.0.so.0", "libgobject-2.0.so.0", "libjson-glib-1.0.so.0", "libgio-2.0.so.0"]

    let textFree = """
        <scene width="40" height="20"><defs><linearGradient id="g" angle="30"><stop color="#ff0000"/><stop color="#0000ff"/></linearGradient></defs>
        <rect width="40" height="20" fill="url(#g)"/></scene>
        """

    func testASceneWithoutTextLoadsNoTextLibrary() throws {
        let loaded = try librariesInitialised(textFree, binary: try lazyBinary())
        XCTAssert(loaded.atStart.contains("libcairo.so.2"), "\(loaded.atStart.sorted())")
        XCTAssertEqual(loaded.atStart.union(loaded.later).intersection(text + objectsAndJSON + ["libqpdf.so.29"] + svg), [],
                       "\(loaded.atStart.sorted()) then \(loaded.later.sorted())")
    }

    /// qpdf (a C++ library) is loaded by the first Display P3 PDF only.
    func testADisplayP3PDFLoadsQPDF() throws {
        let p3 = textFree.replacingOccurrences(of: #"height="20">"#, with: #"height="20" color-space="display-p3">"#)
        let pdf = try librariesInitialised(p3, output: "out.pdf", binary: try lazyBinary())
        XCTAssertFalse(pdf.atStart.contains("libqpdf.so.29"), "\(pdf.atStart.sorted())")
        XCTAssert(pdf.later.contains("libqpdf.so.29"), "\(pdf.later.sorted())")
        let srgb = try librariesInitialised(textFree, output: "out.pdf", binary: try lazyBinary())
        XCTAssertFalse(srgb.atStart.union(srgb.later).contains("libqpdf.so.29"), "\(srgb.later.sorted())")
    }

    /// librsvg and gdk-pixbuf (which librsvg links) are loaded by the
    /// first SVG image only, after the program had control.
    let svg = ["librsvg-2.so.2", "libgdk_pixbuf-2.0.so.0"]

    func testAnSVGImageLoadsLibrsvgOnFirstUse() throws {
        try Data(##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c33"/></svg>"##.utf8)
            .write(to: dir.appendingPathComponent("logo.svg"))
        let loaded = try librariesInitialised(#"<scene width="40" height="20"><image href="logo.svg" width="20" height="20"/></scene>"#,
                                              binary: try lazyBinary())
        XCTAssertEqual(loaded.atStart.intersection(svg), [], "\(loaded.atStart.sorted())")
        XCTAssert(loaded.later.contains("librsvg-2.so.2"), "\(loaded.later.sorted())")
    }

    /// libwebp (and its mux library) and libavif (and the AV1 encoders
    /// libavif links) are loaded by the first WebP or AVIF only: a PNG
    /// render maps neither.
    let webp = ["libwebp.so.7", "libwebpmux.so.3"]
    let avif = ["libavif.so.15", "libaom.so.3"]

    func testWebPAndAVIFLoadTheirEncodersOnFirstUseAndPNGNeither() throws {
        let png = try librariesInitialised(textFree, binary: try lazyBinary())
        XCTAssertEqual(png.atStart.union(png.later).intersection(webp + avif), [], "\(png.atStart.sorted()) then \(png.later.sorted())")
        let w = try librariesInitialised(textFree, output: "out.webp", binary: try lazyBinary())
        XCTAssertEqual(w.atStart.intersection(webp + avif), [], "\(w.atStart.sorted())")
        // libwebpmux only for an ICC profile or an animation.
        XCTAssert(w.later.contains("libwebp.so.7"), "\(w.later.sorted())")
        XCTAssertEqual(w.later.intersection(avif), [], "\(w.later.sorted())")
        let a = try librariesInitialised(textFree, output: "out.avif", binary: try lazyBinary())
        XCTAssertEqual(a.atStart.intersection(webp + avif), [], "\(a.atStart.sorted())")
        XCTAssert(a.later.isSuperset(of: avif), "\(a.later.sorted())")
    }

    /// The other direction, so that the check above can fail: the debug
    /// build, linked as SwiftPM links it (not processed by
    /// scripts/lazy-link), starts Pango and HarfBuzz for the same scene.
    func testAnUnprocessedBinaryStartsWithTheTextLibraries() throws {
        let loaded = try librariesInitialised(textFree, binary: ExternalTool.easelExecutable)
        XCTAssert(loaded.atStart.isSuperset(of: text), "\(loaded.atStart.sorted())")
    }

    func testTextLoadsPangoAndHarfBuzzWhenItIsShaped() throws {
        // The test's own font, not the machine's.
        let loaded = try librariesInitialised(#"<scene width="80" height="30"><text font-family="Inter" font-size="20">Hi</text></scene>"#,
                                              ["--font-dir", TestFonts.folder.path, "--system-fonts", "no"], binary: try lazyBinary())
        // On first use, after the program had control — not at start, as
        // a binary that was never lazily linked would have them.
        XCTAssertEqual(loaded.atStart.intersection(text), [], "\(loaded.atStart.sorted())")
        // Shaped with PangoFT2 (no lock): PangoCairo is not needed for a PNG.
        let shaping = Set(text).subtracting(["libpangocairo-1.0.so.0"])
        XCTAssert(loaded.later.isSuperset(of: shaping), "\(loaded.later.sorted())")
        XCTAssertFalse(loaded.later.contains("libpangocairo-1.0.so.0"), "\(loaded.later.sorted())")
        // A character no font has is shaped again with PangoCairo: then it is loaded.
        let unknown = try librariesInitialised(#"<scene width="80" height="30"><text font-family="Inter" font-size="20">Hi \#u{10FFFD}</text></scene>"#,
                                           ["--font-dir", TestFonts.folder.path, "--system-fonts", "no"], binary: try lazyBinary())
        XCTAssert(unknown.later.isSuperset(of: text), "\(unknown.later.sorted())")
    }

    /// A JSON string table needs json-glib (and GLib under it), not Pango.
    func testAStringTableLoadsJSONGLibAlone() throws {
        let strings = dir.appendingPathComponent("strings.json")
        try Data(#"{"de": {"title": "Titel"}}"#.utf8).write(to: strings)
        let loaded = try librariesInitialised(##"<scene width="40" height="20"><rect width="40" height="20" fill="#123456"/></scene>"##,
                                              ["--strings", strings.path, "--locale", "de"], binary: try lazyBinary())
        XCTAssert(loaded.later.contains("libjson-glib-1.0.so.0"), "\(loaded.later.sorted())")
        XCTAssertEqual(loaded.atStart.union(loaded.later).intersection(text), [], "\(loaded.atStart.sorted()) then \(loaded.later.sorted())")
    }
}
