import Easel
import EaselTestSupport
import Foundation
import XCTest

/// Fonts through the built `easel`, with the machine's font set-up played
/// by a fontconfig configuration of the test's own (`FONTCONFIG_FILE`):
/// declared fonts win, system fonts off means the same bytes whatever the
/// machine has, missing characters stop a build, fonts are inputs.
final class FontSetCLITests: XCTestCase {
    var dir: URL!
    override func setUp() { dir = ExternalTool.temporaryDirectory(name) }

    /// `easel` with `environment` added (`FONTCONFIG_FILE`, `LANG`, …).
    func easel(_ args: [String], environment: [String: String] = [:]) throws -> ToolResult {
        let assignments = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
        return try ExternalTool.run("/usr/bin/env", assignments + [ExternalTool.easelExecutable] + args)
    }

    func folder(_ name: String) throws -> URL {
        let url = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    func write(_ url: URL, _ text: String) throws { try Data(text.utf8).write(to: url) }

    func bytes(_ url: URL) throws -> [UInt8] { [UInt8](try Data(contentsOf: url)) }

    /// A "machine" whose fonts are one folder holding DejaVu Sans renamed to
    /// the family "Inter" (a decoy), and optionally other rules.
    func decoyMachine(extra: String = "") throws -> URL {
        let fonts = try folder("machine-fonts")
        try TestFonts.renamed(URL(fileURLWithPath: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), family: "Inter",
                              to: fonts.appendingPathComponent("Decoy.ttf"))
        return try TestFonts.fontconfigFile(in: try folder("machine"), folders: [fonts], extra: extra)
    }

    /// The decoy is on the machine and claims "Inter" (a scene that asks
    /// for Inter without declaring it gets the decoy); a scene that
    /// declares Inter draws the declared file, to the very bytes it gives
    /// with only that file visible.
    func testADeclaredFamilyWinsOverAMachineFontClaimingItsName() throws {
        let config = try decoyMachine()
        let scenes = try folder("scenes")
        try FileManager.default.copyItem(at: TestFonts.inter, to: scenes.appendingPathComponent("Inter.ttf"))
        let plain = scenes.appendingPathComponent("plain.scene.xml"), declared = scenes.appendingPathComponent("declared.scene.xml")
        let text = "<text x=\"4\" y=\"4\" font-family=\"Inter\" font-size=\"24\">Hamburgefonts</text>"
        try write(plain, "<scene width=\"240\" height=\"40\" background=\"white\">\(text)</scene>")
        try write(declared, "<scene width=\"240\" height=\"40\" background=\"white\"><defs><font src=\"Inter.ttf\"/></defs>\(text)</scene>")
        let machine = ["FONTCONFIG_FILE": config.path]

        let undeclared = try easel(["layout", plain.path], environment: machine)
        XCTAssertEqual(undeclared.status, 0, undeclared.stderr)
        XCTAssertEqual(try TestFonts.runs(inLayoutJSON: undeclared.stdout).first?["file"] as? String,
                       dir.appendingPathComponent("machine-fonts/Decoy.ttf").path, "the decoy is the machine's Inter")

        let layout = try easel(["layout", declared.path], environment: machine)
        XCTAssertEqual(try TestFonts.runs(inLayoutJSON: layout.stdout).first?["file"] as? String,
                       scenes.appendingPathComponent("Inter.ttf").path, "the declared file wins")
        for format in ["png", "pdf", "svg"] {
            let withMachine = dir.appendingPathComponent("machine.\(format)"), alone = dir.appendingPathComponent("alone.\(format)")
            XCTAssertEqual(try easel(["render", declared.path, "-o", withMachine.path], environment: machine).status, 0)
            XCTAssertEqual(try easel(["render", declared.path, "-o", alone.path, "--system-fonts", "no"]).status, 0)
            XCTAssertEqual(try bytes(withMachine), try bytes(alone), format)
        }
    }

    /// With system fonts off, nothing of the machine's font set-up changes a
    /// byte: its own configuration, an empty one, one with decoy fonts and
    /// every pixel-changing rule set otherwise, another locale and language.
    func testWithSystemFontsOffTheMachinesFontSetUpChangesNoByte() throws {
        let decoyRules = try decoyMachine(extra: """
            <match target="font"><edit name="hinting" mode="assign"><bool>true</bool></edit>
              <edit name="hintstyle" mode="assign"><const>hintfull</const></edit>
              <edit name="rgba" mode="assign"><const>rgb</const></edit>
              <edit name="embeddedbitmap" mode="assign"><bool>true</bool></edit>
              <edit name="antialias" mode="assign"><bool>false</bool></edit></match>
            <match target="pattern"><test name="family"><string>Noto Sans CJK JP</string></test>
              <edit name="family" mode="prepend" binding="strong"><string>Inter</string></edit></match>
            """)
        let empty = dir.appendingPathComponent("empty.conf")
        try write(empty, "<?xml version=\"1.0\"?>\n<fontconfig></fontconfig>\n")
        let machines: [(String, [String: String])] = [
            ("this machine", [:]),
            ("an empty configuration", ["FONTCONFIG_FILE": empty.path]),
            ("decoys and other rules", ["FONTCONFIG_FILE": decoyRules.path]),
            ("another language", ["LANG": "ja_JP.UTF-8", "LANGUAGE": "ja:zh", "PANGO_LANGUAGE": "ja", "LC_ALL": "ja_JP.UTF-8"]),
        ]
        // The example card (declared fonts, system-fonts="false"), and a
        // scene without lang given its fonts by --font-dir: its Han
        // characters (直 differs between Chinese and Japanese forms, which
        // the collection's faces switch by language) must not take a
        // language from the environment.
        let card = ExternalTool.repositoryRoot.appendingPathComponent("examples/hello-world.scene.xml")
        let plain = dir.appendingPathComponent("plain.scene.xml")
        try write(plain, """
        <scene width="300" height="60" background="white">
          <text x="4" y="4" font-family="sans-serif, emoji" font-size="18">Hello 直 世界 مرحبا ✨</text>
        </scene>
        """)
        let cjk = try folder("cjk")
        try FileManager.default.createSymbolicLink(at: cjk.appendingPathComponent("NotoSansCJK-Regular.ttc"),
                                                   withDestinationURL: URL(fileURLWithPath: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"))
        for format in ["png", "pdf", "svg"] {
            var first: [String: [UInt8]] = [:]
            for (machine, environment) in machines {
                for (name, scene, extra) in [("card", card, [String]()),
                                             ("plain", plain, ["--font-dir", cjk.path, "--font-dir", TestFonts.exampleFolder.path,
                                                               "--system-fonts", "no"])] {
                    let out = dir.appendingPathComponent("\(name).\(format)")
                    let r = try easel(["render", scene.path, "-o", out.path] + extra, environment: environment)
                    XCTAssertEqual(r.status, 0, "\(machine): \(r.stderr)")
                    let b = try bytes(out)
                    if let reference = first[name] {
                        XCTAssertEqual(b, reference, "\(name).\(format) with \(machine)")
                    } else {
                        first[name] = b
                    }
                }
            }
        }
    }

    /// A machine whose fontconfig configuration cannot be read has no
    /// system fonts: a compile that wanted them says so (it fell back to
    /// its declared fonts without a word); one without system fonts does not.
    func testAnUnreadableFontconfigConfigurationIsAWarning() throws {
        let scene = dir.appendingPathComponent("a.scene.xml"), out = dir.appendingPathComponent("a.png")
        try write(scene, "<scene width=\"200\" height=\"40\">\n  <text font-family=\"Inter\">Hi</text>\n</scene>")
        let broken = ["FONTCONFIG_FILE": dir.appendingPathComponent("none.conf").path]
        let fonts = ["--font-dir", TestFonts.folder.path]
        let r = try easel(["render", scene.path, "-o", out.path] + fonts, environment: broken)
        XCTAssertEqual(r.status, 0, r.stderr)
        XCTAssertTrue(r.stderr.contains("a.scene.xml:1:1: warning: fontconfig's configuration '\(broken["FONTCONFIG_FILE"]!)' names no font folder (missing or unreadable?): this compile has no system fonts"), r.stderr)
        // Nothing but diagnostics on standard error: JSON stays parseable.
        let json = try easel(["render", scene.path, "-o", out.path, "--diagnostics-format", "json"] + fonts, environment: broken)
        for line in json.stderr.split(separator: "\n") {
            XCTAssertNoThrow(try JSONSerialization.jsonObject(with: Data(line.utf8)), String(line))
        }
        let declaredOnly = try easel(["render", scene.path, "-o", out.path, "--system-fonts", "no"] + fonts, environment: broken)
        XCTAssertFalse(declaredOnly.stderr.contains("names no font folder"), declaredOnly.stderr)
        XCTAssertFalse(try easel(["render", scene.path, "-o", out.path] + fonts).stderr.contains("names no font folder"))
    }

    /// `--missing-glyphs error`: exit 1, the characters named at their
    /// text, and a previous output left as it was. `easel build` has it by default.
    func testMissingGlyphsAsErrorsWriteNothing() throws {
        let scene = dir.appendingPathComponent("a.scene.xml"), out = dir.appendingPathComponent("a.png")
        try write(scene, "<scene width=\"200\" height=\"40\">\n  <text font-family=\"Inter\">Hi 世界</text>\n</scene>")
        try write(out, "previous")
        let options = ["--font-dir", TestFonts.folder.path, "--system-fonts", "no"]
        let r = try easel(["render", scene.path, "-o", out.path, "--missing-glyphs", "error"] + options)
        XCTAssertEqual(r.status, 1)
        XCTAssertTrue(r.stderr.contains("a.scene.xml:2:3: error: no font of this compile has the characters U+4E16 '世', U+754C '界'"), r.stderr)
        XCTAssertEqual(String(decoding: try bytes(out), as: UTF8.self), "previous")

        let warned = try easel(["render", scene.path, "-o", out.path] + options)
        XCTAssertEqual(warned.status, 0)
        XCTAssertTrue(warned.stderr.contains("a.scene.xml:2:3: warning: no font of this compile has"), warned.stderr)

        let src = try folder("src")
        try FileManager.default.copyItem(at: scene, to: src.appendingPathComponent("a.scene.xml"))
        let build = try easel(["build", src.path, "-o", dir.appendingPathComponent("built").path] + options)
        XCTAssertEqual(build.status, 1, "a build stops on a missing character")
        XCTAssertTrue(build.stderr.contains("error: no font of this compile has"), build.stderr)
        XCTAssertEqual(try easel(["build", src.path, "-o", dir.appendingPathComponent("built").path, "--missing-glyphs", "warning"] + options).status, 0)
    }

    /// A declared font and a used system font are in the depfile; a font
    /// the text did not use is not.
    func testFontsTheTextUsedAreInTheDepfile() throws {
        let scenes = try folder("scenes")
        try FileManager.default.copyItem(at: TestFonts.inter, to: scenes.appendingPathComponent("Inter.ttf"))
        let scene = scenes.appendingPathComponent("a.scene.xml")
        try write(scene, """
        <scene width="300" height="40"><defs><font src="Inter.ttf"/></defs>
          <text font-family="Inter">Latin</text><text y="20" font-family="Inter, serif">Ελληνικά</text></scene>
        """)
        let depfile = dir.appendingPathComponent("a.d")
        let r = try easel(["render", scene.path, "-o", dir.appendingPathComponent("a.png").path, "--depfile", depfile.path,
                           "--font-dir", TestFonts.exampleFolder.path])
        XCTAssertEqual(r.status, 0, r.stderr)
        let rule = String(decoding: try bytes(depfile), as: UTF8.self)
        XCTAssertTrue(rule.contains(scenes.appendingPathComponent("Inter.ttf").path), rule)
        XCTAssertTrue(rule.contains("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf"), "Greek came from the machine's serif: \(rule)")
        XCTAssertFalse(rule.contains("NotoSansArabic-Subset.ttf"), "an unused declared font is not an input: \(rule)")
    }

    /// `easel build` with a font folder: replacing one font's file renders
    /// again exactly the scenes whose text used it.
    func testReplacingADeclaredFontRendersAgainExactlyTheScenesThatUsedIt() throws {
        let fonts = try folder("fonts"), src = try folder("src"), out = dir.appendingPathComponent("out")
        try FileManager.default.copyItem(at: TestFonts.inter, to: fonts.appendingPathComponent("Inter.ttf"))
        try TestFonts.renamed(TestFonts.inter, family: "Other Sans", to: fonts.appendingPathComponent("Other.ttf"))
        try write(src.appendingPathComponent("inter.scene.xml"), "<scene width=\"100\" height=\"30\"><text font-family=\"Inter\">Inter</text></scene>")
        try write(src.appendingPathComponent("other.scene.xml"), "<scene width=\"100\" height=\"30\"><text font-family=\"Other Sans\">Other</text></scene>")
        try write(src.appendingPathComponent("shape.scene.xml"), "<scene width=\"10\" height=\"10\"><rect/></scene>")
        let args = ["build", src.path, "-o", out.path, "--font-dir", fonts.path, "--system-fonts", "no"]
        let first = try easel(args)
        XCTAssertEqual(first.status, 0, first.stderr)
        XCTAssertTrue(try easel(args).stdout.contains("nothing to do"))
        try TestFonts.tool(["touch", TestFonts.inter.path, fonts.appendingPathComponent("Inter.ttf").path])
        let again = try easel(args)
        XCTAssertEqual(again.status, 0, again.stderr)
        let rendered = again.stdout.split(separator: "\n").filter { $0.hasPrefix("rendered ") }
        XCTAssertEqual(rendered, ["rendered inter.scene.xml"], again.stdout)
    }

    /// A machine font the text used is an input too: changed, the scenes
    /// that used it render again, and only those.
    func testAChangedSystemFontRendersAgainTheScenesThatUsedIt() throws {
        let machineFonts = try folder("machine-fonts"), src = try folder("src"), out = dir.appendingPathComponent("out")
        try TestFonts.renamed(TestFonts.inter, family: "Machine Sans", to: machineFonts.appendingPathComponent("MachineSans.ttf"))
        try TestFonts.renamed(TestFonts.inter, family: "Machine Serif", to: machineFonts.appendingPathComponent("MachineSerif.ttf"))
        let config = try TestFonts.fontconfigFile(in: try folder("machine"), folders: [machineFonts])
        try write(src.appendingPathComponent("sans.scene.xml"), "<scene width=\"100\" height=\"30\"><text font-family=\"Machine Sans\">Sans</text></scene>")
        try write(src.appendingPathComponent("serif.scene.xml"), "<scene width=\"100\" height=\"30\"><text font-family=\"Machine Serif\">Serif</text></scene>")
        let args = ["build", src.path, "-o", out.path], machine = ["FONTCONFIG_FILE": config.path]
        XCTAssertEqual(try easel(args, environment: machine).status, 0)
        XCTAssertTrue(try easel(args, environment: machine).stdout.contains("nothing to do"))
        try TestFonts.tool(["touch", machineFonts.appendingPathComponent("MachineSans.ttf").path,
                            machineFonts.appendingPathComponent("MachineSans.ttf").path])
        let again = try easel(args, environment: machine)
        XCTAssertEqual(again.status, 0, again.stderr)
        XCTAssertEqual(again.stdout.split(separator: "\n").filter { $0.hasPrefix("rendered ") }, ["rendered sans.scene.xml"], again.stdout)
    }

    /// What the process opens, as strace sees it (an observer outside
    /// Easel): a scene without text opens no font configuration, no font
    /// folder and no font cache; neither does one with text and
    /// `--system-fonts no`; with system fonts on, the machine's
    /// configuration is read (or the probe proves nothing).
    func testWithSystemFontsOffNothingOfTheMachinesFontsIsOpened() throws {
        let machineFonts = try folder("machine-fonts")
        try TestFonts.renamed(TestFonts.inter, family: "Machine Sans", to: machineFonts.appendingPathComponent("MachineSans.ttf"))
        let config = try TestFonts.fontconfigFile(in: try folder("machine"), folders: [machineFonts])
        let plain = dir.appendingPathComponent("plain.scene.xml"), text = dir.appendingPathComponent("text.scene.xml")
        try write(plain, "<scene width=\"40\" height=\"20\"><rect width=\"20\" fill=\"red\"/></scene>")
        try write(text, "<scene width=\"100\" height=\"30\"><text font-family=\"Inter\">Hello</text></scene>")
        func opened(_ args: [String]) throws -> String {
            let log = dir.appendingPathComponent("strace.log")
            // LeakSanitizer cannot run under ptrace (CI's AddressSanitizer
            // stage): it stops the process with a fatal error at exit.
            let r = try ExternalTool.run("/usr/bin/env", ["FONTCONFIG_FILE=\(config.path)", "ASAN_OPTIONS=detect_leaks=0",
                                                          "strace", "-f", "-e", "trace=open,openat",
                                                          "-o", log.path, ExternalTool.easelExecutable] + args)
            XCTAssertEqual(r.status, 0, r.stderr)
            return String(decoding: try bytes(log), as: UTF8.self)
        }
        let machine = [config.path, machineFonts.path, dir.appendingPathComponent("machine/fc-cache").path, "/etc/fonts", "/usr/share/fonts"]
        let out = dir.appendingPathComponent("out.png").path
        for (what, args) in [("a scene without text", ["render", plain.path, "-o", out]),
                             ("text with --system-fonts no", ["render", text.path, "-o", out, "--font-dir", TestFonts.folder.path,
                                                              "--system-fonts", "no"])] {
            let log = try opened(args)
            for path in machine { XCTAssertFalse(log.contains(path), "\(what) opened \(path):\n\(log)") }
        }
        let withSystem = try opened(["render", text.path, "-o", out])
        XCTAssertTrue(withSystem.contains(config.path), "with system fonts the machine's configuration is read")
    }

    /// `--font-dir` takes folders; a file in one that is not a font is an
    /// error naming it.
    func testFontFolderErrors() throws {
        let scene = dir.appendingPathComponent("a.scene.xml")
        try write(scene, "<scene width=\"100\" height=\"30\"><text>Hello</text></scene>")
        let out = dir.appendingPathComponent("a.png").path
        let notFolder = try easel(["render", scene.path, "-o", out, "--font-dir", scene.path])
        XCTAssertEqual(notFolder.status, 2)
        XCTAssertTrue(notFolder.stderr.contains("is not a folder"), notFolder.stderr)
        let fonts = try folder("fonts")
        try write(fonts.appendingPathComponent("notes.ttf"), "not a font")
        let bad = try easel(["render", scene.path, "-o", out, "--font-dir", fonts.path])
        XCTAssertEqual(bad.status, 1)
        XCTAssertTrue(bad.stderr.contains("notes.ttf' is not a font file"), bad.stderr)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out))
    }
}
