import ArgumentParser
import Easel
import FoundationEssentials

extension TextOverflowPolicy: ExpressibleByArgument {}

/// `--strings`, `--locale` and `--text-overflow`, shared by the commands
/// that compile (docs/format.md, "Text and fonts" and
/// "Locales and strings").
public struct TextOptions: ParsableArguments, Sendable {
    public init() {}

    @Option(name: .customLong("strings"), help: ArgumentHelp("A string table: a String Catalog (.xcstrings), a .strings file in a LOCALE.lproj folder, or JSON ({\"de\": {\"title\": \"…\"}}). A string <param> named like a key takes the locale's value.", valueName: "file"))
    public var stringFiles: [String] = []

    @Option(name: .customLong("locale"), help: ArgumentHelp("The locale to render in (en, de, ja, ar, pt-BR, …; pseudo or pseudo-rtl for a pseudo-translation). It sets the scene's default lang and dir.", valueName: "locale"))
    public var locale: String?

    @Option(name: .customLong("text-overflow"), help: "warning or error: what a text that does not fit its frame is (default: warning).")
    public var textOverflow: TextOverflowPolicy = .warning

    public func validate() throws {
        if let locale, !TextOptions.isLocale(locale) {
            throw ValidationError("--locale '\(locale)' is not a locale (a BCP 47 tag such as de, pt-BR, zh-Hans; or pseudo, pseudo-rtl)")
        }
    }

    /// A BCP 47 tag (`_` taken for `-`, as Apple's locale names write it), or a pseudo-locale.
    public static func isLocale(_ text: String) -> Bool {
        PseudoLocale(rawValue: text) != nil || Easel.isLanguageTag(text.replacing("_", with: "-"))
    }

    /// The string tables, each file's errors printed located; nil if there are none.
    public func readStrings() throws -> LocalizedStrings? {
        guard !stringFiles.isEmpty else { return nil }
        switch Easel.readStrings(stringFiles) {
        case .success(let all): return all
        case .failure(let error):
            for d in error.diagnostics { StandardStreams.error("\(d) [\(d.code)]\n") }
            throw ExitCode(1)
        }
    }

    /// The string files, as depfile inputs.
    public var inputFiles: [String] {
        stringFiles.map { URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path }
    }

    /// `options` with these settings.
    public func applied(to options: Easel.Options) throws -> Easel.Options {
        var options = options
        options.textOverflow = textOverflow
        options.strings = try readStrings()
        options.locale = locale.map { PseudoLocale(rawValue: $0) != nil ? $0 : $0.replacing("_", with: "-") }
        return options
    }
}
