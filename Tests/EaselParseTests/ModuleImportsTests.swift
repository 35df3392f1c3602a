import EaselTestSupport
import Foundation
import XCTest

/// The modules `easel` links import FoundationEssentials, never Foundation:
/// Foundation brings ICU into the static binary (86 MB against 18 MB) and
/// a fifth more conformance records for every start-up's dynamic casts.
final class ModuleImportsTests: XCTestCase {
    func testNoModuleOfTheEaselBinaryImportsFoundation() throws {
        let modules = ["EaselModel", "EaselParse", "EaselLayout", "EaselRender", "Easel", "EaselCommandLine", "EaselCommands", "easel"]
        var offenders: [String] = []
        for module in modules {
            let folder = ExternalTool.repositoryRoot.appendingPathComponent("Sources/\(module)")
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }
            XCTAssertFalse(files.isEmpty, module)
            for file in files {
                let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
                let importsFoundation = text.split(separator: "\n").contains {
                    $0.wholeMatch(of: #/(@\w+ )?((public|internal|package) )?import Foundation/#) != nil
                }
                if importsFoundation { offenders.append("\(module)/\(file)") }
            }
        }
        XCTAssertEqual(offenders, [])
    }
}
