import EaselTestSupport
import Foundation
import XCTest

@testable import EaselRender

/// The font and cache folders read without fontconfig's parser
/// (`FontConfigurationFolders`) against fontconfig's own parse of the same
/// configuration (`MachineFontFolders.readByFontconfig`): the machine's, and
/// written ones with each rule the reader follows (folders named twice, `~`,
/// `prefix="xdg"`, includes of files and folders — sorted, filtered,
/// missing —, `<reset-dirs/>`, folders inside other elements, comments and
/// CDATA). What it does not follow it must hand back to fontconfig.
final class FontConfigurationFoldersTests: XCTestCase {
    /// Runs `body` with these environment variables set (nil: unset), then
    /// puts them back.
    private func with<T>(_ variables: [String: String?], _ body: () throws -> T) rethrows -> T {
        var saved: [String: String?] = [:]
        for (name, value) in variables {
            // updateValue: a subscript assignment of nil would drop an unset variable's entry.
            saved.updateValue(getenv(name).map { String(cString: $0) }, forKey: name)
            if let value { setenv(name, value, 1) } else { unsetenv(name) }
        }
        defer {
            for (name, value) in saved {
                if let value { setenv(name, value, 1) } else { unsetenv(name) }
            }
        }
        return try body()
    }

    private static let xdgUnset: [String: String?] = [
        "XDG_DATA_HOME": nil, "XDG_DATA_DIRS": nil, "XDG_CACHE_HOME": nil, "XDG_CONFIG_HOME": nil, "FONTCONFIG_PATH": nil,
    ]

    private func fontconfigLists() -> FontConfigurationFolders.Lists {
        let read = MachineFontFolders.readByFontconfig()
        return FontConfigurationFolders.Lists(fonts: read.fontFolders, caches: read.cacheFolders)
    }

    func testTheMachinesConfigurationGivesFontconfigsLists() throws {
        try with(Self.xdgUnset.merging(["FONTCONFIG_FILE": nil]) { $1 }) {
            let ours = try XCTUnwrap(FontConfigurationFolders.read(), "Debian's /etc/fonts is within the reader's rules")
            XCTAssertEqual(ours, fontconfigLists())
            XCTAssertFalse(ours.fonts.isEmpty)
            XCTAssertEqual(MachineFontFolders.read().fontFolders, ours.fonts)
        }
    }

    private func write(_ files: [String: String]) throws -> URL {
        let dir = ExternalTool.temporaryDirectory("fontconfig-folders")
        for (path, text) in files {
            let url = dir.appendingPathComponent(path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: url)
        }
        return dir
    }

    private func config(_ body: String) -> String {
        #"<?xml version="1.0"?><!DOCTYPE fontconfig SYSTEM "urn:fontconfig:fonts.dtd"><fontconfig>\#(body)</fontconfig>"#
    }

    func testWrittenConfigurationsGiveFontconfigsLists() throws {
        let root = try write([
            "top.conf": config("""
                <dir>/srv/a/fonts</dir> <dir>/srv/b</dir> <dir>~/.fonts-x</dir> <dir>~odd</dir>
                <dir prefix="xdg">fonts</dir> <dir prefix="default">/srv/default</dir> <dir prefix="cwd">/srv/cwd</dir>
                <match target="pattern"><dir>/srv/inside-match</dir><edit name="family"><string>x</string></edit></match>
                <dir><![CDATA[/srv/cdata]]></dir> <dir>/srv/comment<!-- not this --></dir> <dir></dir> <dir salt="s">/srv/salted</dir>
                <cachedir>/var/cache/c1</cachedir> <cachedir prefix="xdg">fc</cachedir> <cachedir>~/.fc</cachedir>
                <cachedir prefix="relative">/var/cache/other-prefix</cachedir>
                <include ignore_missing="yes">/nonexistent/x.conf</include>
                <include ignore_missing="yes">ROOT/conf.d</include>
                <include ignore_missing="yes">ROOT/conf.d/10-a.conf.link</include>
                <include ignore_missing="yes">ROOT/last.conf</include>
                <dir>/srv/caf\u{E9}</dir> <dir>/srv/cafe\u{301}</dir> <cachedir>/var/cache/\u{C5}</cachedir> <cachedir>/var/cache/A\u{30A}</cachedir>
                <dir>/srv/a/fonts</dir> <cachedir>/var/cache/c1</cachedir>
                """),
            // Read in byte order (10 < 1.conf? no: "1." < "10"), "a.conf" and "12-x.conf.bak" not at all.
            "conf.d/10-a.conf": config("<dir>/srv/10-a</dir>"),
            "conf.d/9-a.conf": config("<dir>/srv/9-a</dir>"),
            "conf.d/30-x.conf": config(#"<include ignore_missing="yes">ROOT/nested/20-n.conf</include><dir>/srv/30-x</dir>"#),
            "conf.d/1.conf": config("<dir>/srv/1</dir>"),
            "conf.d/a.conf": config("<dir>/srv/not-read-a</dir>"),
            "conf.d/12-x.conf.bak": config("<dir>/srv/not-read-bak</dir>"),
            "conf.d/40-rules.conf": config(#"<match><test name="family"><string>y</string></test></match>"#),
            // An error in a file of rules only stops that file (the include
            // ignores missing files, so fontconfig does not complain).
            "conf.d/50-broken-rules.conf": config(#"<match><test name="family"><string>y</test></match>"#),
            "nested/20-n.conf": config("<dir>/srv/nested</dir><cachedir>/var/cache/nested</cachedir>"),
            "last.conf": config("<dir>/srv/last</dir>"),
            "linked.conf": config("<dir>/srv/linked</dir>"),
            "reset.conf": config(#"<dir>/srv/before</dir><include ignore_missing="yes">ROOT/conf.d</include><reset-dirs/><dir>/srv/after</dir><cachedir>/var/cache/kept</cachedir>"#),
            "relative.conf": config(#"<include ignore_missing="yes">rel.conf</include><dir>/srv/top</dir>"#),
            "p2/rel.conf": config("<dir>/srv/found-in-second-path</dir>"),
        ])
        for name in ["top.conf", "conf.d/30-x.conf", "reset.conf"] {
            let url = root.appendingPathComponent(name)
            try Data(try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "ROOT", with: root.path).utf8).write(to: url)
        }
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("conf.d/10-a.conf.link").path,
                                                   withDestinationPath: root.appendingPathComponent("linked.conf").path)
        let cases: [(String, [String: String?])] = [
            ("top.conf", [:]),
            ("reset.conf", [:]),
            ("relative.conf", ["FONTCONFIG_PATH": root.appendingPathComponent("p1").path + ":" + root.appendingPathComponent("p2").path]),
            ("missing/fonts.conf", [:]),
        ]
        for (top, extra) in cases {
            let variables = Self.xdgUnset.merging(["FONTCONFIG_FILE": root.appendingPathComponent(top).path]) { $1 }.merging(extra) { $1 }
            try with(variables) {
                let expected = fontconfigLists()
                let ours = try XCTUnwrap(FontConfigurationFolders.read(), "\(top): within the reader's rules")
                // As bytes: String's == would call a composed and a decomposed accent one folder.
                XCTAssertEqual(ours.fonts.map { Array($0.utf8) }, expected.fonts.map { Array($0.utf8) }, top)
                XCTAssertEqual(ours.caches.map { Array($0.utf8) }, expected.caches.map { Array($0.utf8) }, top)
                if top == "top.conf" {
                    // The cases are there: moved to the end, kept first, skipped files, byte order.
                    XCTAssertEqual(ours.fonts.last, "/srv/a/fonts")
                    XCTAssertEqual(ours.caches.first, "/var/cache/c1")
                    XCTAssertFalse(ours.fonts.contains { $0.contains("not-read") })
                    let order = ours.fonts.filter { ["/srv/1", "/srv/10-a", "/srv/30-x", "/srv/9-a"].contains($0) }
                    XCTAssertEqual(order, ["/srv/1", "/srv/10-a", "/srv/30-x", "/srv/9-a"])
                    XCTAssertTrue(ours.fonts.contains("/srv/inside-match") && ours.fonts.contains("/srv/cdata") && ours.fonts.contains("/srv/nested"))
                }
            }
        }
    }

    /// What the reader does not follow exactly it leaves to fontconfig (nil).
    func testWhatTheReaderDoesNotFollowIsLeftToFontconfig() throws {
        let root = try write([
            "relative-dir.conf": config("<dir>fonts</dir>"),
            "relative-prefix.conf": config(#"<dir prefix="relative">fonts</dir>"#),
            "unknown-prefix.conf": config(#"<dir prefix="other">/srv/x</dir>"#),
            "remap.conf": config(#"<remap-dir as-path="/srv/as">/srv/real</remap-dir>"#),
            "missing-include.conf": config("<include>/nonexistent/x.conf</include>"),
            // Without ignore_missing="yes" fontconfig stops a folder at a file with any error.
            "strict-folder.conf": config("<include>ROOT/strict.d</include>"),
            "strict.d/10-x.conf": config("<match><test><int>abc</int></test></match>"),
            "strict.d/20-d.conf": config("<dir>/srv/after-an-error</dir>"),
            "strict-file.conf": config(#"<include ignore_missing="no">ROOT/once.conf</include>"#),
            "attlist.conf": #"<?xml version="1.0"?><!DOCTYPE fontconfig [<!ATTLIST cachedir prefix CDATA "xdg">]><fontconfig><cachedir>/var/cache/x</cachedir></fontconfig>"#,
            "entity-text.conf": #"<?xml version="1.0"?><!DOCTYPE fontconfig [<!ENTITY d "&#60;dir>/srv/x&#60;/dir>">]><fontconfig>&d;</fontconfig>"#,
            "namespaced.conf": config(#"<dir>/srv/plain</dir><x:dir xmlns:x="urn:x">/srv/ns</x:dir>"#),
            "reset-holding.conf": config("<dir>/srv/a</dir><reset-dirs><dir>/srv/b</dir></reset-dirs>"),
            "broken.conf": config("<dir>/srv/ok</dir><dir>/srv/unclosed</fontconfig>"),
            "double-slash.conf": config("<dir>/srv//x</dir>"),
            "trailing-slash.conf": config("<dir>/srv/x/</dir>"),
            "dot-dot.conf": config("<dir>/srv/x/../y</dir>"),
            "spaces.conf": config("<dir> /srv/x</dir>"),
            "twice.conf": config("<include>ROOT/once.conf</include><include>ROOT/once.conf</include>"),
            "once.conf": config("<dir>/srv/once</dir>"),
            "entity.conf": #"<?xml version="1.0"?><!DOCTYPE fontconfig [<!ENTITY d "/srv/entity">]><fontconfig><dir>&d;</dir></fontconfig>"#,
            "element-inside.conf": config("<dir>/srv/<b>x</b></dir>"),
            "xdg.conf": config(#"<dir prefix="xdg">fonts</dir>"#),
        ])
        for name in ["twice.conf", "strict-folder.conf", "strict-file.conf"] {
            let url = root.appendingPathComponent(name)
            try Data(try String(contentsOf: url, encoding: .utf8).replacingOccurrences(of: "ROOT", with: root.path).utf8).write(to: url)
        }
        // Latin-1 bytes: expat reads them as UTF-8 (and stops), libxml2 would transcode.
        try Data(#"<?xml version="1.0" encoding="ISO-8859-1"?><fontconfig><dir>/srv/caf"#.utf8 + [0xE9] + "</dir></fontconfig>".utf8)
            .write(to: root.appendingPathComponent("latin1.conf"))
        for name in ["relative-dir", "relative-prefix", "unknown-prefix", "remap", "missing-include", "strict-folder", "strict-file",
                     "broken", "double-slash", "trailing-slash", "dot-dot", "spaces", "twice", "entity", "element-inside", "attlist",
                     "entity-text", "namespaced", "reset-holding", "latin1"] {
            with(Self.xdgUnset.merging(["FONTCONFIG_FILE": root.appendingPathComponent(name + ".conf").path]) { $1 }) {
                XCTAssertNil(FontConfigurationFolders.read(), name)
            }
        }
        // Where fontconfig's lists differ from what a reader missing those
        // rules would give: the reason each is left to it.
        func fontconfigFonts(_ name: String) -> [String] {
            with(Self.xdgUnset.merging(["FONTCONFIG_FILE": root.appendingPathComponent(name + ".conf").path]) { $1 }) { fontconfigLists().fonts }
        }
        XCTAssertEqual(fontconfigFonts("strict-folder"), [], "the error in 10-x.conf stops the folder")
        XCTAssertEqual(fontconfigFonts("reset-holding"), [], "cleared after the folder inside it")
        XCTAssertEqual(fontconfigFonts("entity-text"), ["/srv/x"], "the entity's text is an element")
        XCTAssertEqual(fontconfigFonts("namespaced"), ["/srv/plain"], "x:dir is no dir to fontconfig")
        // An XDG variable the element would read, no HOME, a sysroot.
        for variables: [String: String?] in [["XDG_DATA_HOME": "/srv/xdg"], ["XDG_DATA_DIRS": "/srv/d1:/srv/d2"], ["HOME": nil],
                                            ["FONTCONFIG_SYSROOT": root.path]] {
            with(Self.xdgUnset.merging(["FONTCONFIG_FILE": root.appendingPathComponent("xdg.conf").path]) { $1 }.merging(variables) { $1 }) {
                XCTAssertNil(FontConfigurationFolders.read(), "\(variables)")
            }
        }
        // Without them the same file is read, as fontconfig reads it.
        with(Self.xdgUnset.merging(["FONTCONFIG_FILE": root.appendingPathComponent("xdg.conf").path]) { $1 }) {
            XCTAssertEqual(FontConfigurationFolders.read(), fontconfigLists())
            XCTAssertEqual(FontConfigurationFolders.read()?.fonts.count, 3)
        }
    }
}
