import EaselModel
@testable import EaselRender
import EaselTestSupport
import Glibc
import XCTest

/// A long-lived process holds no descriptor past its fonts, however many
/// distinct fonts it has held, and gives no two fonts one path.
final class FontPathsTests: XCTestCase {
    func openDescriptors() -> Int { ((try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []).count }

    /// 700 fonts declared and dropped one after another under a limit of
    /// 1,024 descriptors: each font's descriptor is closed with it. (Before,
    /// fonts were moved to numbers above half the limit that only grew;
    /// past the limit each later font's descriptor stayed open for good.)
    func testFontsHeldOneAfterAnotherHoldNoDescriptorPastThemselves() throws {
        var limit = rlimit()
        XCTAssertEqual(getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
        let saved = limit
        limit.rlim_cur = min(1024, limit.rlim_max)
        XCTAssertEqual(setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit), 0)
        defer { var back = saved; _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &back) }

        let bytes = [UInt8](try Data(contentsOf: ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/fonts/InterVariable-Latin.ttf")))
        let before = openDescriptors(), storedBefore = AnonymousFontFiles.count
        var paths = Set<String>()
        for i in 0..<700 {
            // Another identity is another font to the table, as other bytes are.
            let file = DeclaredFontFile(path: "font-\(i).ttf", identity: "font-paths-test-\(i)", bytes: bytes)
            guard case .success(let stored) = AnonymousFontFiles.store(file) else { return XCTFail("font \(i) not stored") }
            XCTAssertTrue(paths.insert(stored.path).inserted, "font \(i) got a path another font had: \(stored.path)")
            XCTAssertEqual(access(stored.path, R_OK), 0, stored.path)
            AnonymousFontFiles.release([file.identity])
        }
        XCTAssertEqual(AnonymousFontFiles.count, storedBefore, "every font released")
        XCTAssertLessThanOrEqual(openDescriptors(), before + 1, "descriptors kept past their fonts")
    }

    func testPathsSpellTheGenerationInComponentsThatLeadBack() {
        XCTAssertEqual(FontPaths.path(fd: 7, generation: 0), "/proc/self/fd/7")
        XCTAssertEqual(FontPaths.path(fd: 7, generation: 1), "/proc/self/task/../fd/7")
        XCTAssertEqual(FontPaths.path(fd: 7, generation: 2), "/proc/self/task/../fd/../fd/7")
        XCTAssertEqual(FontPaths.path(fd: 7, generation: 3), "/proc/self/task/../task/../fd/7")
        let spelled = Set((0..<4096).map { FontPaths.path(fd: 7, generation: $0) })
        XCTAssertEqual(spelled.count, 4096)
    }
}
