import Foundation
import XCTest

/// A test of the built `easel` executable in a folder of its own: the
/// class makes `dir` in `setUp` (`ExternalTool.temporaryDirectory(name)`)
/// and gets running the tool and writing files into the folder from here.
public protocol CommandLineTesting: XCTestCase {
    var dir: URL! { get }
}

extension CommandLineTesting {
    public func easel(_ args: [String]) throws -> ToolResult {
        try ExternalTool.run(ExternalTool.easelExecutable, args)
    }

    /// Writes `text` to `name` under the test's folder (making the folders
    /// it names) and returns its path.
    public func write(_ name: String, _ text: String) throws -> String {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
        return url.path
    }
}
