import Foundation
import XCTest

/// `Tests/Fixtures/platform-assets/check_assets.py`: the platform asset
/// sets read back with Pillow, aapt2 and the platforms' rules typed out
/// there (not read from Easel).
public enum AssetChecks {
    public static let checker = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/platform-assets/check_assets.py").path

    /// The checker's JSON, failing the test on any error it lists.
    @discardableResult
    public static func check(_ arguments: [String], file: StaticString = #filePath, line: UInt = #line) throws -> [String: Any] {
        let r = try ExternalTool.run("python3", [checker] + arguments)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        let json = try JSONSerialization.jsonObject(with: Data(r.stdout.utf8)) as? [String: Any] ?? [:]
        XCTAssertEqual(json["errors"] as? [String], [], "\(arguments)", file: file, line: line)
        return json
    }
}
