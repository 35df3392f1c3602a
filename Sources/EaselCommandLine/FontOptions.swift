import ArgumentParser
import Easel
import FoundationEssentials

extension MissingGlyphs: ExpressibleByArgument {}

/// `yes` or `no`, as `--system-fonts` takes it.
public enum YesNo: String, ExpressibleByArgument, CaseIterable, Sendable { case yes, no }

/// `--font-dir`, `--system-fonts` and `--missing-glyphs`, shared by the
/// commands that compile (docs/format.md, "Text and fonts").
public struct FontOptions: ParsableArguments, Sendable {
    public init() {}

    @Option(name: .customLong("font-dir"), help: ArgumentHelp("A folder of font files (TrueType, OpenType, collections, WOFF, WOFF2) every scene may use, its subfolders included.", valueName: "dir"))
    public var fontDirectories: [String] = []

    @Option(name: .customLong("system-fonts"), help: "yes: the machine's fonts after the declared ones (default); no: only declared fonts, and nothing of the machine's font set-up can change an output.")
    public var systemFonts: YesNo = .yes

    @Option(name: .customLong("missing-glyphs"), help: "warning or error: what a character that no font covers is (default: warning; easel build: error).")
    public var missingGlyphs: MissingGlyphs?

    public func validate() throws {
        for dir in fontDirectories {
            var isFolder = false
            guard FileManager.default.fileExists(atPath: dir, isDirectory: &isFolder), isFolder else {
                throw ValidationError("--font-dir '\(dir)' is not a folder")
            }
        }
    }

    /// `options` with these settings; `missingGlyphs` where the command line says nothing.
    public func applied(to options: Easel.Options, missingGlyphs fallback: MissingGlyphs = .warning) -> Easel.Options {
        var options = options
        options.fontDirectories = fontDirectories.map { URL(fileURLWithPath: $0) }
        options.systemFonts = systemFonts == .yes
        options.missingGlyphs = missingGlyphs ?? fallback
        return options
    }
}
