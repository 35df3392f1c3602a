import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Every bad input and every fuzz finding, compiled and (when it compiles)
/// rendered to PNG, PDF and SVG in this one process. Under CI's
/// AddressSanitizer stage LeakSanitizer checks the whole process at exit
/// (.ci/lsan-fast-unwind.supp: fontconfig, Cairo, Foundation and XCTest,
/// whose frames are all the fast unwinder sees): a leak of Easel's on any
/// error path fails the run. scripts/leak-check runs the same inputs with
/// whole stacks, where only named library caches are suppressed (all but
/// paint-budget, whose million rectangles are laid out by Swift alone).
final class CorpusInProcessTests: XCTestCase {
    func testBadCorpusAndFindingsInOneProcess() throws {
        let root = ExternalTool.repositoryRoot
        var files: [URL] = []
        for folder in ["Tests/Fixtures/bad", "fuzz/findings"] {
            let dir = root.appendingPathComponent(folder)
            for name in try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted() where name.hasSuffix(".xml") {
                files.append(dir.appendingPathComponent(name))
            }
        }
        XCTAssertGreaterThan(files.count, 100)
        var failed = 0
        for url in files {
            var session = CompileSession()
            guard let scene = session.compile(fileAt: url) else {
                failed += 1
                XCTAssertTrue(session.hasErrors, url.lastPathComponent)
                continue
            }
            if !session.run({
                for format in [OutputFormat.png, .pdf, .svg] { _ = try scene.render(format: format, scale: 1) }
            }) { failed += 1 }
        }
        // Most of the corpus fails, as it should; the rest are scenes that
        // are bad only under a flag (cases.tsv) or render.
        XCTAssertGreaterThan(failed, files.count / 2)
    }
}
