import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Contract 1.3, "Nothing lost, nothing malformed", for `easel build`: a
/// folder that cannot be read is never taken for an empty one, and every
/// output path of a build is checked for collisions before the first
/// file is written.
final class NothingLostTests: XCTestCase {
    var dir: URL!, src: URL!, out: URL!

    override func setUp() {
        dir = ExternalTool.temporaryDirectory(name)
        src = dir.appendingPathComponent("scenes")
        out = dir.appendingPathComponent("out")
    }

    override func tearDown() {
        // A folder the test made unreadable must not stop its removal.
        _ = try? ExternalTool.run("chmod", ["-R", "u+rwx", dir.path])
        try? FileManager.default.removeItem(at: dir)
    }

    func put(_ relative: String, _ text: String) throws {
        let url = src.appendingPathComponent(relative)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: url)
    }

    func easel(_ args: [String]) throws -> ToolResult { try ExternalTool.run(ExternalTool.easelExecutable, args) }

    /// Everything under the output folder (files only), relative.
    func outputFiles(_ folder: URL? = nil) -> [String] {
        let root = folder ?? out!
        guard let walker = FileManager.default.enumerator(atPath: root.path) else { return [] }
        var files: [String] = []
        while let item = walker.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: root.appendingPathComponent(item).path, isDirectory: &isFolder), !isFolder.boolValue {
                files.append(item)
            }
        }
        return files.sorted()
    }

    static let dot = ##"<scene width="8" height="8"><circle cx="4" cy="4" r="3" fill="#336699"/></scene>"##
    static let card = ##"""
    <scene width="20" height="10" background="white">
      <defs><param name="ink" type="color" default="#000000"/><variant name="dark" appearance="dark" set="ink=#ffffff"/></defs>
      <rect width="20" height="10" fill="{ink}"/>
    </scene>
    """##

    // MARK: read errors never delete

    /// Runs `easel` as an ordinary user: root reads any folder whatever its
    /// permissions, so as root the command runs as `nobody` (setpriv), with
    /// the test's folder handed to it.
    func easelAsUser(_ args: [String]) throws -> ToolResult {
        guard getuid() == 0 else { return try easel(args) }
        _ = try ExternalTool.run("chown", ["-R", "65534:65534", dir.path])
        // The folders above the test's must be searchable by nobody (they are: /tmp).
        return try ExternalTool.run("setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "--", ExternalTool.easelExecutable] + args)
    }

    /// A folder of scenes that cannot be listed: the build fails naming it
    /// (exit 1), its scenes' outputs and records stay, the other scenes
    /// build; once readable again, nothing is rendered or removed. (Before
    /// 1.3: "removed icons/dot.png", exit 0.)
    func testAnUnreadableFolderKeepsItsOutputs() throws {
        try put("card.scene.xml", Self.dot)
        try put("icons/dot.scene.xml", Self.dot)
        try put("icons/deeper/ring.scene.xml", Self.dot)
        let first = try easelAsUser(["build", src.path, "-o", out.path])
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertEqual(outputFiles().filter { $0.hasSuffix(".png") }, ["card.png", "icons/deeper/ring.png", "icons/dot.png"])
        let manifest = try Data(contentsOf: out.appendingPathComponent(".easel-build.json"))

        for mode in ["000", "444"] {   // not listable; listable but not searchable
            _ = try ExternalTool.run("chmod", [mode, src.appendingPathComponent("icons").path])
            let r = try easelAsUser(["build", src.path, "-o", out.path])
            XCTAssertEqual(r.status, 1, "mode \(mode): \(r.stdout)\(r.stderr)")
            XCTAssertTrue(r.stderr.contains("cannot read the folder '\(src.path)/icons"), r.stderr)
            XCTAssertTrue(r.stderr.contains("[E0809]"), r.stderr)
            XCTAssertFalse(r.stdout.contains("removed"), r.stdout)
            XCTAssertEqual(outputFiles().filter { $0.hasSuffix(".png") }, ["card.png", "icons/deeper/ring.png", "icons/dot.png"], "mode \(mode)")
            _ = try ExternalTool.run("chmod", ["755", src.appendingPathComponent("icons").path])
        }
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent(".easel-build.json")), manifest, "the records are kept")
        // A scene that cannot be read fails, and keeps its output.
        _ = try ExternalTool.run("chmod", ["000", src.appendingPathComponent("card.scene.xml").path])
        let unreadableScene = try easelAsUser(["build", src.path, "-o", out.path])
        XCTAssertEqual(unreadableScene.status, 1, unreadableScene.stdout + unreadableScene.stderr)
        XCTAssertTrue(unreadableScene.stderr.contains("card.scene.xml"), unreadableScene.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("card.png").path))
        _ = try ExternalTool.run("chmod", ["644", src.appendingPathComponent("card.scene.xml").path])
        let again = try easelAsUser(["build", src.path, "-o", out.path])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("nothing to do, 3 up to date"), again.stdout)
    }

    /// Other options (`--scales` changed) make every scene outdated: one
    /// that cannot be read then keeps its record and outputs, and they go
    /// (the dropped scale's file among them) once it builds again. (Before,
    /// its record was dropped: its old @2x was listed nowhere, never removed.)
    func testAnUnreadableSceneKeepsItsRecordWhenTheOptionsChange() throws {
        try put("card.scene.xml", Self.dot)
        try put("other.scene.xml", Self.dot)
        XCTAssertEqual(try easelAsUser(["build", src.path, "-o", out.path, "--scales", "1,2"]).status, 0)
        _ = try ExternalTool.run("chmod", ["000", src.appendingPathComponent("card.scene.xml").path])
        let r = try easelAsUser(["build", src.path, "-o", out.path, "--scales", "1"])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertEqual(outputFiles().filter { $0.hasSuffix(".png") }, ["card.png", "card@2x.png", "other.png"])
        _ = try ExternalTool.run("chmod", ["644", src.appendingPathComponent("card.scene.xml").path])
        let again = try easelAsUser(["build", src.path, "-o", out.path, "--scales", "1"])
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertTrue(again.stdout.contains("removed card@2x.png"), again.stdout)
        XCTAssertEqual(outputFiles().filter { $0.hasSuffix(".png") }, ["card.png", "other.png"])
    }

    /// A scene renamed in case only (`Badge` to `badge`): the old file is
    /// not removed, since on a disk that ignores case (macOS's default) it
    /// is the file just written. (Before, it was removed by its old name.)
    func testARenameInCaseOnlyRemovesNothing() throws {
        try put("Badge.scene.xml", Self.dot)
        XCTAssertEqual(try easel(["build", src.path, "-o", out.path]).status, 0)
        try FileManager.default.moveItem(at: src.appendingPathComponent("Badge.scene.xml"), to: src.appendingPathComponent("badge.scene.xml"))
        let r = try easel(["build", src.path, "-o", out.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertFalse(r.stdout.contains("removed Badge.png"), r.stdout)
        XCTAssertTrue(r.stdout.contains("0 removed"), r.stdout)
        XCTAssertTrue(outputFiles().contains("badge.png"), outputFiles().joined(separator: " "))
    }

    /// The source folder itself unreadable: an error, nothing removed.
    func testAnUnreadableSourceRemovesNothing() throws {
        try put("card.scene.xml", Self.dot)
        XCTAssertEqual(try easelAsUser(["build", src.path, "-o", out.path]).status, 0)
        _ = try ExternalTool.run("chmod", ["000", src.path])
        let r = try easelAsUser(["build", src.path, "-o", out.path])
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr)
        XCTAssertTrue(r.stderr.contains("cannot read the folder"), r.stderr)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out.appendingPathComponent("card.png").path))
    }

    // MARK: collisions before writing

    func assertCollision(_ r: ToolResult, naming names: [String], path: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, 1, r.stdout + r.stderr, file: file, line: line)
        for name in names { XCTAssertTrue(r.stderr.contains(name), "'\(name)' not named in:\n\(r.stderr)", file: file, line: line) }
        XCTAssertTrue(r.stderr.contains("'\(path)'"), "'\(path)' not named in:\n\(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains("[E0803]") || r.stderr.contains("[E0905]"), r.stderr, file: file, line: line)
    }

    /// `card~dark.scene.xml` beside `card.scene.xml` with a `dark` variant:
    /// both would write `card~dark.png` — an error naming both, and nothing
    /// written. (Before 1.3 the last one won, exit 0.)
    func testAVariantAndASceneOfItsNameCollide() throws {
        try put("card.scene.xml", Self.card)
        try put("card~dark.scene.xml", Self.dot)
        let r = try easel(["build", src.path, "-o", out.path])
        assertCollision(r, naming: ["card.scene.xml' (variant dark)", "card~dark.scene.xml'"], path: "card~dark.png")
        XCTAssertEqual(outputFiles(), [], "nothing written, not even the manifest")
    }

    /// The same when one of the two was built before (its record holds the
    /// path): the new scene fails the build and the old file is untouched.
    func testANewSceneCollidingWithABuiltOneWritesNothing() throws {
        try put("card.scene.xml", Self.card)
        XCTAssertEqual(try easel(["build", src.path, "-o", out.path]).status, 0)
        let before = try Data(contentsOf: out.appendingPathComponent("card~dark.png"))
        try put("card~dark.scene.xml", Self.dot)
        let r = try easel(["build", src.path, "-o", out.path])
        assertCollision(r, naming: ["card.scene.xml'", "card~dark.scene.xml'"], path: "card~dark.png")
        XCTAssertEqual(try Data(contentsOf: out.appendingPathComponent("card~dark.png")), before)
    }

    /// `de/card.scene.xml` beside a localized `card.scene.xml` built with
    /// `--locales en,de`: both would write `de/card.png`.
    func testASceneInALocaleFolderCollidesWithALocale() throws {
        try put("card.scene.xml", """
        <scene width="40" height="10"><defs><param name="title" type="string" default="T"/></defs>
        <rect width="40" height="10" fill="white"/></scene>
        """)
        try put("de/card.scene.xml", Self.dot)
        let strings = dir.appendingPathComponent("strings.json")
        try Data(#"{"en": {"title": "Hi"}, "de": {"title": "Hallo"}}"#.utf8).write(to: strings)
        let r = try easel(["build", src.path, "-o", out.path, "--locales", "en,de", "--strings", strings.path])
        assertCollision(r, naming: ["card.scene.xml' (locale de)", "de/card.scene.xml'"], path: "de/card.png")
        XCTAssertEqual(outputFiles(), [])
    }

    /// `Badge` and `badge` make `Badge.imageset` and `badge.imageset`: one
    /// folder on a disk that ignores case (macOS's default).
    func testNamesThatDifferOnlyInCaseCollide() throws {
        try put("Badge.scene.xml", Self.dot)
        try put("badge.scene.xml", Self.dot)
        let r = try easel(["build", src.path, "-o", dir.appendingPathComponent("App.xcassets").path, "--xcassets"])
        assertCollision(r, naming: ["Badge.scene.xml'", "badge.scene.xml'"], path: "badge.imageset/badge.png")
        XCTAssertTrue(r.stderr.contains("differ only in case"), r.stderr)
        XCTAssertEqual(outputFiles(dir.appendingPathComponent("App.xcassets")), [])
    }

    /// Two scenes that become one Android resource (`My Card`, `my_card`):
    /// reported, and now nothing of either (or of any scene) is written.
    func testAnAndroidNameClashWritesNothing() throws {
        try put("My Card.scene.xml", Self.dot)
        try put("my_card.scene.xml", Self.dot)
        try put("other.scene.xml", Self.dot)
        let res = dir.appendingPathComponent("res")
        let r = try easel(["build", src.path, "--android", res.path])
        assertCollision(r, naming: ["My Card.scene.xml", "my_card.scene.xml"], path: "drawable-*/my_card.png")
        XCTAssertEqual(outputFiles(res), [])
    }

    /// A scene `card.png/x.scene.xml` needs a folder where `card.scene.xml`
    /// writes a file.
    func testAFileWhereAnotherNeedsAFolderCollides() throws {
        try put("card.scene.xml", Self.dot)
        try put("card.png/x.scene.xml", Self.dot)
        let r = try easel(["build", src.path, "-o", out.path])
        assertCollision(r, naming: ["card.scene.xml'", "card.png/x.scene.xml'"], path: "card.png")
        XCTAssertEqual(outputFiles(), [])
    }

    /// An app icon whose layer id is a parameter (`id="{layer}"`) builds
    /// its adaptive icon: the plan, made before the compile, holds every
    /// layer the id could be. (Before, the build refused the layers' files
    /// as unplanned, "changed during the build", every time.)
    func testALayerIdFromAParameterIsPlanned() throws {
        try put("icon.scene.xml", """
        <scene width="108" height="108" asset="app-icon">
          <defs><param name="front" type="string" default="foreground"/></defs>
          <group id="background"><rect width="108" height="108" fill="#336699"/></group>
          <group id="{front}"><circle cx="54" cy="54" r="20" fill="white"/></group>
        </scene>
        """)
        let res = dir.appendingPathComponent("res")
        let r = try easel(["build", src.path, "-o", out.path, "--android", res.path])
        XCTAssertEqual(r.status, 0, r.stdout + r.stderr)
        // Nor does the other target (no Android folder) warn of Android's layers.
        XCTAssertFalse(r.stderr.contains("W0907"), r.stderr)
        XCTAssertTrue(outputFiles(res).contains("mipmap-xxxhdpi/ic_launcher_foreground.png"), outputFiles(res).joined(separator: " "))
        XCTAssertTrue(outputFiles(res).contains("mipmap-anydpi-v26/ic_launcher.xml"), outputFiles(res).joined(separator: " "))
    }

    /// The plan is what the build writes: variants, locales and scales of a
    /// scene that collide with nothing build as before.
    func testAPlanWithoutCollisionsBuilds() throws {
        try put("card.scene.xml", Self.card)
        try put("icons/dot.scene.xml", Self.dot)
        let r = try easel(["build", src.path, "-o", out.path, "--scales", "1,2", "--formats", "png,svg"])
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertEqual(outputFiles(), [".easel-build.json", "card.png", "card.svg", "card@2x.png", "card~dark.png", "card~dark.svg",
                                       "card~dark@2x.png", "icons/dot.png", "icons/dot.svg", "icons/dot@2x.png"])
    }
}
