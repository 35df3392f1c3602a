import EaselModel
import Foundation

public struct ParseOptions: Sendable {
    /// `--locale pseudo`/`pseudo-rtl`, if the locale is one.
    public var pseudoLocale: PseudoLocale? { locale.flatMap(PseudoLocale.init(rawValue:)) }
    public var limits = Limits()
    /// Folders outside the scene's own from which `href`/`src` may read.
    public var allowedDirectories: [URL] = []
    /// Values for the scene's `<param>`s (`--set`, `--set-file`).
    public var parameters: [String: ParameterSetting] = [:]
    /// Which value of each palette colour to use (`--appearance`).
    public var appearance: Appearance = .light
    /// Compile the scene as this `<variant>`: its settings over `parameters`,
    /// its appearance over `appearance`.
    public var variant: String?
    /// A setting for a parameter the scene does not declare is passed over
    /// instead of being an error (a build sets values for many scenes).
    public var ignoresUndeclaredParameters = false
    /// String tables (`--strings`) and the locale they are read in
    /// (`--locale`): a `string` parameter named like a key gets its value.
    public var strings: LocalizedStrings?
    /// `en`, `pt-BR`, … or `pseudo`/`pseudo-rtl`; sets the scene's default
    /// `lang` and `dir`.
    public var locale: String?
    public init(limits: Limits = Limits(), allowedDirectories: [URL] = []) {
        self.limits = limits
        self.allowedDirectories = allowedDirectories
    }
}

/// The files one parse read, in the order it read them. Shared by the
/// resolver copies of one parse.
final class FileRecorder: Sendable {
    private let records = Locked<[FileRecord]>([])
    func record(path: String, bytes: [UInt8], modified: Int?) {
        let entry = FileRecord(path: path, sha256: ContentHash.sha256(bytes), size: bytes.count, modified: modified.flatMap(FileTime.trusted))
        records.withLock { list in
            if !list.contains(where: { $0.path == path }) { list.append(entry) }
        }
    }
    var all: [FileRecord] { records.withLock { $0 } }
    /// The record of a file already read (its hash, not taken again).
    func record(of path: String) -> FileRecord? { records.withLock { $0.first { $0.path == path } } }
}

/// What a parse produced: the scene (when it has no errors), every
/// diagnostic in file order, and the files it read (the scene's own first).
public struct ParseResult: Sendable {
    public var scene: Scene?
    public var diagnostics: [Diagnostic]
    public var filesRead: [FileRecord]
    /// The bytes of each `<font src>` file, by content hash (`Scene.fonts`).
    public var fontData: [String: [UInt8]] = [:]
}

/// Scene file → typed `Scene`, with every problem located.
public enum SceneParser {
    /// `displayPath` names the file in diagnostics (default: its full path).
    public static func parse(fileAt url: URL, displayPath: String? = nil, options: ParseOptions = ParseOptions()) -> ParseResult {
        let path = displayPath ?? url.path
        let start = SourceLocation(file: path, line: 1, column: 1)
        let bytes: [UInt8], modified: Int
        switch FileBytes.readStamped(url.path, limit: options.limits.maxFileSize) {
        case .failure(.tooLarge(let size)):
            return ParseResult(scene: nil, diagnostics: [Diagnostic(.error, .fileTooLarge(size, options.limits.maxFileSize), at: start)],
                               filesRead: [])
        case .failure:
            return ParseResult(scene: nil, diagnostics: [Diagnostic(.error, .fileUnreadable(path), at: nil)], filesRead: [])
        case .success(let read): (bytes, modified) = read
        }
        let recorder = FileRecorder()
        let real = url.standardizedFileURL.resolvingSymlinksInPath()
        recorder.record(path: real.path, bytes: bytes, modified: modified)
        // A scene reached through a symlink (as in Bazel's sandbox, where
        // every input is a link to the source tree) may also read beside
        // the file it really is: the folder it lives in is its folder too.
        var options = options
        options.allowedDirectories.append(real.deletingLastPathComponent())
        return parse(bytes: bytes, file: path, baseDirectory: url.deletingLastPathComponent(), options: options,
                     recorder: recorder)
    }

    public static func parse(source: String, file: String = "<string>", baseDirectory: URL,
                             options: ParseOptions = ParseOptions()) -> ParseResult {
        parse(bytes: Array(source.utf8), file: file, baseDirectory: baseDirectory, options: options)
    }

    public static func parse(bytes: [UInt8], file: String, baseDirectory: URL, options: ParseOptions) -> ParseResult {
        parse(bytes: bytes, file: file, baseDirectory: baseDirectory, options: options, recorder: FileRecorder())
    }

    private static func parse(bytes: [UInt8], file: String, baseDirectory: URL, options: ParseOptions,
                              recorder: FileRecorder) -> ParseResult {
        if bytes.count > options.limits.maxFileSize {
            return ParseResult(scene: nil, diagnostics: [Diagnostic(.error, .fileTooLarge(bytes.count, options.limits.maxFileSize),
                                                                    at: SourceLocation(file: file, line: 1, column: 1))],
                               filesRead: recorder.all)
        }
        let (root, xmlDiagnostics) = XMLReader.read(bytes: bytes, file: file, errorLimit: options.limits.maxErrors)
        guard let root else { return ParseResult(scene: nil, diagnostics: xmlDiagnostics.all, filesRead: recorder.all) }
        let resolver = ResourceResolver(sceneDirectory: baseDirectory,
                                        allowedDirectories: options.allowedDirectories,
                                        limits: options.limits, recorder: recorder)
        let builder = SceneBuilder(resolver: resolver, limits: options.limits, options: options)
        builder.sourceHasBraces = bytes.contains(UInt8(ascii: "{")) || bytes.contains(UInt8(ascii: "}"))
        let scene = builder.build(root)
        let diagnostics = builder.diagnostics
        // Reported in file order, whatever order the passes found them in.
        let sorted = diagnostics.all.enumerated().sorted { a, b in
            let la = a.element.location, lb = b.element.location
            let ka = (la?.line ?? 0, la?.column ?? 0, a.offset), kb = (lb?.line ?? 0, lb?.column ?? 0, b.offset)
            return ka < kb
        }.map(\.element)
        // "too many errors" closes the list, wherever its location sorts.
        let ordered = sorted.filter { $0.message != .tooManyErrors } + sorted.filter { $0.message == .tooManyErrors }
        return ParseResult(scene: diagnostics.hasErrors ? nil : scene, diagnostics: ordered, filesRead: recorder.all,
                           fontData: builder.fontData)
    }
}
