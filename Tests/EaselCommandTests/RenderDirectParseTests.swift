import ArgumentParser
@testable import EaselCommands
import XCTest

/// `easel render …` is parsed by `Render` alone (start-up: the command
/// tree's parse builds every argument twice). It must read every command
/// line as the tree would, and leave everything else to the tree.
final class RenderDirectParseTests: XCTestCase {
    func testEveryOptionReadsAsTheCommandTreeReadsIt() throws {
        let lines: [[String]] = [
            ["render", "card.scene.xml", "-o", "card.png"],
            ["render", "-o", "card.pdf", "card.scene.xml"],
            ["render", "a.scene.xml", "b.scene.xml", "--out-dir", "out", "--scales", "1,2,3", "-j", "2", "--formats", "png,svg"],
            ["render", "a.scene.xml", "-o", "a.png", "--scale", "2", "--depfile", "a.d", "--png-compression", "fast",
             "--dither", "no", "--set", "accent=#ff0000", "--set", "radius=4", "--system-fonts", "no",
             "--missing-glyphs", "error", "--locale", "de", "--text-overflow", "error",
             "--diagnostics-format", "json", "--appearance", "dark", "--max-pixels", "100", "--allow-read", "../data",
             "--error-limit", "0", "--variant", "dark", "--time", "0.5"],
            ["render", "a.scene.xml", "-o", "a.png", "--fps", "24"],
            ["render", "icon.scene.xml", "-o", "icon.icns"],
        ]
        for line in lines {
            let direct = try XCTUnwrap(EaselCommand.parseRenderDirectly(line), "\(line)")
            let tree = try XCTUnwrap(EaselCommand.parseAsRoot(line) as? Render, "\(line)")
            XCTAssertEqual(String(reflecting: direct), String(reflecting: tree), "\(line)")
        }
    }

    func testHelpVersionCompletionsAndErrorsAreLeftToTheTree() {
        let lines: [[String]] = [
            ["render", "--help"], ["render", "-h"], ["render", "--version"],
            ["render", "--generate-completion-script", "bash"],
            ["render"], ["render", "a.scene.xml"], ["render", "a.scene.xml", "-o", "a.png", "--bogus"],
            ["render", "a.scene.xml", "-o", "a.png", "--scale", "0"], ["render", "a.scene.xml", "-o", "a.txt"],
            ["render", "help"], ["help", "render"], ["render", "--", "-odd.scene.xml", "-o", "odd.png"],
            ["render", "a.scene.xml", "-o", "a.png", "--font-dir", "no-such-folder"], ["build", "scenes", "--out-dir", "out"], ["--version"], [],
        ]
        for line in lines {
            XCTAssertNil(EaselCommand.parseRenderDirectly(line), "\(line)")
        }
    }

    /// The form build tools run, read without ArgumentParser: the same job,
    /// the same compile options, as the command tree makes of the line.
    func testPlainRenderLinesReadAsTheCommandTreeReadsThem() throws {
        let lines: [[String]] = [
            ["render", "card.scene.xml", "-o", "card.png"],
            ["render", "-o", "card.pdf", "card.scene.xml"],
            ["render", "card.scene.xml", "--output", "out/card.svg", "--scale", "2", "--depfile", "card.d"],
            ["render", "--depfile", "card.d", "--scale", "0.5", "card.scene.xml", "-o", "CARD.PNG"],
        ]
        for line in lines {
            let plain = try XCTUnwrap(RenderJob(plainArguments: line), "\(line)")
            let tree = try XCTUnwrap(EaselCommand.parseAsRoot(line) as? Render, "\(line)").job
            XCTAssertEqual(String(reflecting: plain), String(reflecting: tree), "\(line)")
            for scale in [nil, 3.0] {
                XCTAssertEqual(String(reflecting: try plain.compileOptions(scale: scale)),
                               String(reflecting: try tree.compileOptions(scale: scale)), "\(line)")
            }
        }
    }

    /// Anything else goes to ArgumentParser, whose errors, help and
    /// completions are the only ones.
    func testEveryOtherLineIsLeftToArgumentParser() {
        let lines: [[String]] = [
            ["render", "a.scene.xml"], ["render", "-o", "a.png"], ["render", "a.scene.xml", "b.scene.xml", "-o", "a.png"],
            ["render", "a.scene.xml", "-o", "a.png", "-o", "b.png"], ["render", "a.scene.xml", "--output=a.png"],
            ["render", "a.scene.xml", "-o"], ["render", "a.scene.xml", "-o", "-a.png"],
            ["render", "a.scene.xml", "-o", "a.png", "--scale"], ["render", "a.scene.xml", "-o", "a.png", "--scale", "0"],
            ["render", "a.scene.xml", "-o", "a.png", "--scale", "two"], ["render", "a.scene.xml", "-o", "a.png", "--scale", "1e9"],
            ["render", "a.scene.xml", "-o", "a.apng"], ["render", "a.scene.xml", "-o", "a.icns"], ["render", "a.scene.xml", "-o", "a.txt"],
            ["render", "a.scene.xml", "-o", "a"], ["render", "a.scene.xml", "-o", "a.png", "--time", "1"],
            ["render", "a.scene.xml", "-o", "a.png", "--scale", "nan"], ["render", "a.scene.xml", "-o", "a.png", "--scale", "inf"],
            ["render", "a.scene.xml", "-o", "a.png", "--output", "b.png"], ["render", "a.scene.xml", "-o", "a.APNG"],
            ["render", "a.scene.xml", "-o", "a.png", "--help"], ["render", "help", "-o", "a.png"],
            ["render", "-", "-o", "a.png"], ["render", "--", "a.scene.xml", "-o", "a.png"],
            ["build", "a.scene.xml", "-o", "a.png"], ["a.scene.xml", "-o", "a.png"], [],
        ]
        for line in lines {
            XCTAssertNil(RenderJob(plainArguments: line), "\(line)")
        }
    }
}
