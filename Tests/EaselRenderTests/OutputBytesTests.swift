import Easel
import EaselParse
import EaselTestSupport
import Foundation
import XCTest

/// A regression guard, not an oracle: every docs scene and example renders
/// to the same bytes as the release before the layout cache and the render
/// tree (0.2.0 at 8a4f8db): PNG at 1× and 2×, SVG, PDF, `easel layout`'s
/// JSON, and the frames of animated scenes. The hashes are Easel's own
/// earlier output, so they prove only that nothing moved, never that it was
/// right: the same scenes' correctness is checked against renderers Easel
/// did not write beside this (DocsScenesTests: poppler's page of the PDF
/// and librsvg's picture of the SVG against the PNG; CrossRendererTests and
/// SVGRendererAgreementTests: rsvg-convert and resvg), and the features
/// against the contract's formulas at pixels (docs/testing.md). A
/// deliberate change of output re-records them with `EASEL_RECORD=1` (and
/// says why in its commit).
final class OutputBytesTests: XCTestCase {
    static let fixture = ExternalTool.repositoryRoot.appendingPathComponent("Tests/Fixtures/output-hashes.json")

    static var scenes: [URL] {
        DocsScenesTests.scenes + [ExternalTool.repositoryRoot.appendingPathComponent("examples/localized/promo.scene.xml")]
    }

    /// The outputs of the last `hashes(of:)` runs, kept so that a changed
    /// one can be written out for a look (Tests' artifacts folder).
    nonisolated(unsafe) static var lastOutputs: [String: [UInt8]] = [:]

    static func hashes(of url: URL) throws -> [String: String] {
        let compiled = try Easel.compile(fileAt: url).get()
        var out: [String: String] = [:]
        let outputs: [(String, [UInt8])] = [
            ("png@1x", try compiled.render(format: .png, scale: 1)), ("png@2x", try compiled.render(format: .png, scale: 2)),
            ("svg", try compiled.render(format: .svg)), ("pdf", try compiled.render(format: .pdf)),
        ]
        for (name, bytes) in outputs {
            out[name] = ContentHash.sha256(bytes)
            lastOutputs[url.lastPathComponent + "." + name] = bytes
        }
        // The JSON names font files by absolute path: hashed relative to the clone.
        let layout = try compiled.layoutJSON().replacingOccurrences(of: ExternalTool.repositoryRoot.path + "/", with: "")
        out["layout"] = ContentHash.sha256(Array(layout.utf8))
        if compiled.duration != nil {
            out["frames@10fps"] = ContentHash.sha256(try compiled.renderFrames(fps: 10, scale: 1).flatMap { $0 })
        }
        return out
    }

    func testEveryDocsSceneAndExampleRendersTheCommittedBytes() throws {
        let root = ExternalTool.repositoryRoot.path + "/"
        var now: [String: [String: String]] = [:]
        for url in Self.scenes {
            now[String(url.path.dropFirst(root.count))] = try Self.hashes(of: url)
        }
        XCTAssertGreaterThanOrEqual(now.count, 30)
        if ProcessInfo.processInfo.environment["EASEL_RECORD"] == "1" {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            try encoder.encode(now).write(to: Self.fixture)
            XCTFail("recorded \(Self.fixture.lastPathComponent); run again without EASEL_RECORD")
            return
        }
        let committed = try JSONDecoder().decode([String: [String: String]].self, from: Data(contentsOf: Self.fixture))
        XCTAssertEqual(Set(committed.keys), Set(now.keys), "scenes added or removed: record again")
        for (scene, outputs) in committed.sorted(by: { $0.key < $1.key }) {
            for (output, hash) in outputs.sorted(by: { $0.key < $1.key }) {
                XCTAssertEqual(now[scene]?[output], hash, "\(scene) \(output) changed")
                let name = (scene as NSString).lastPathComponent + "." + output
                if now[scene]?[output] != hash, let bytes = Self.lastOutputs[name] {
                    let folder = URL(fileURLWithPath: "/tmp/easel-test-artifacts/output-bytes")
                    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
                    try? Data(bytes).write(to: folder.appendingPathComponent(name))
                }
            }
        }
    }
}
