import EaselModel
import FoundationEssentials

public struct ParseOptions: Sendable {
    /// `--locale pseudo`/`pseudo-rtl`, if the locale is one.
    public var pseudoLocale: PseudoLocale? { locale.flatMap(PseudoLocale.init(rawValue:)) }
    public var limits = Limits()
    /// Each file read is hashed (SHA-256) as it is read, for the records a
    /// build compares (`ParseResult.filesRead`); off, the records' hashes
    /// are empty and nothing is hashed — `render` and `check` need only the
    /// paths, and a render without text loads no GLib.
    public var hashesFilesRead = true
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
    /// Only the scene's top-level element with this id is compiled (an
    /// adaptive icon's layer; `easel render --layer`).
    public var layer: String?
    /// `--color-space`: over the scene's `color-space`.
    public var colorSpace: SceneColorSpace?
    public init(limits: Limits = Limits(), allowedDirectories: [URL] = []) {
        self.limits = limits
        self.allowedDirectories = allowedDirectories
    }
}

/// The files one parse read, in the order it read them, each once. Shared
/// by the resolver copies of one parse. Looked up by path through an index,
/// not a search: a scene of many images records each of them.
final class FileRecorder: Sendable {
    private struct Records {
        var list: [FileRecord] = []
        var index: [String: Int] = [:]
        mutating func add(_ record: FileRecord) {
            guard index[record.path] == nil else { return }
            index[record.path] = list.count
            list.append(record)
        }
    }
    private let records = Locked(Records())
    /// Whether records carry their file's hash (`ParseOptions.hashesFilesRead`).
    let hashes: Bool
    init(hashes: Bool = true) { self.hashes = hashes }
    func record(path: String, bytes: [UInt8], modified: Int?) {
        // Hashing waits until the path is known to be new.
        guard records.withLock({ $0.index[path] == nil }) else { return }
        let entry = FileRecord(path: path, sha256: hashes ? ContentHash.sha256(bytes) : "", size: bytes.count,
                               modified: modified.flatMap(FileTime.trusted))
        records.withLock { $0.add(entry) }
    }
    var all: [FileRecord] { records.withLock { $0.list } }
    /// A file read before this parse (the scene file, read once for several builds).
    func add(_ record: FileRecord) { records.withLock { $0.add(record) } }
    /// The record of a file already read (its hash, not taken again).
    func record(of path: String) -> FileRecord? { records.withLock { r in r.index[path].map { r.list[$0] } } }
}

/// What a parse produced: the scene (when it has no errors), every
/// diagnostic in file order, and the files it read (the scene's own first).
public struct ParseResult: Sendable {
    public var scene: Scene?
    public var diagnostics: [Diagnostic]
    /// With `ParseOptions.hashesFilesRead` off, each record's `sha256` is empty.
    public var filesRead: [FileRecord]
    /// The bytes of each `<font src>` file, by content hash (`Scene.fonts`).
    public var fontData: [String: [UInt8]] = [:]
}

/// A scene file read and its XML parsed, not yet given meaning: built once
/// per locale or variant (`SceneParser.build`), each build with its own
/// parameters, read and parsed once.
public struct SceneSource: Sendable {
    let file: String
    let baseDirectory: URL
    /// The folder the file really lives in (through symlinks), readable too.
    let realDirectory: URL?
    let record: FileRecord?
    let root: XMLElement?
    let hasBraces: Bool
    /// Errors reading or parsing the file.
    let diagnostics: [Diagnostic]

    /// `<scene asset="app-icon">`, as written.
    public var isAppIcon: Bool { root?.attribute("asset")?.value.trimmingSpaces == SceneAsset.appIcon.rawValue }

    /// The names of the scene's `string` parameters, as written: those a
    /// string table can localize.
    public var stringParameters: [String] {
        guard let root else { return [] }
        return root.children.filter { $0.name == "defs" }.flatMap(\.children)
            .filter { $0.name == "param" && $0.attribute("type")?.value.trimmingSpaces == "string" }
            .compactMap { $0.attribute("name")?.value.trimmingSpaces }
    }

    /// The scene's `<variant>`s as written, in file order (the first of a
    /// name; `set` only as far as whether it sets anything): what a build
    /// names its files after before anything is compiled. The compile
    /// checks them; one it refuses fails the scene.
    public var variantsAsWritten: [SceneVariant] {
        guard let root else { return [] }
        var seen = Set<String>()
        return root.children.filter { $0.name == "defs" }.flatMap(\.children).filter { $0.name == "variant" }.compactMap { el in
            guard let name = el.attribute("name")?.value.trimmingSpaces, !name.isEmpty, seen.insert(name).inserted else { return nil }
            let appearance = el.attribute("appearance").flatMap { Appearance(rawValue: $0.value.trimmingSpaces) }
            let settings = (el.attribute("set")?.value ?? "").split(separator: ";").filter { !String($0).trimmingSpaces.isEmpty }
                .map { SceneVariant.Assignment(name: String($0), value: "") }
            return SceneVariant(name: name, appearance: appearance, settings: settings, location: el.location)
        }
    }

    /// The ids of the scene's top-level elements, as written (`Scene.layers`
    /// after a compile).
    public var layerIDsAsWritten: [String] {
        guard let root else { return [] }
        return root.children.filter { $0.name != "defs" }.compactMap { $0.attribute("id")?.value.trimmingSpaces }
    }
}

/// Scene file → typed `Scene`, with every problem located.
public enum SceneParser {
    /// `displayPath` names the file in diagnostics (default: its full path).
    public static func parse(fileAt url: URL, displayPath: String? = nil, options: ParseOptions = ParseOptions()) -> ParseResult {
        build(read(fileAt: url, displayPath: displayPath, limits: options.limits, hashes: options.hashesFilesRead), options: options)
    }

    /// Reads and parses the XML of a scene file.
    public static func read(fileAt url: URL, displayPath: String? = nil, limits: Limits, hashes: Bool = true) -> SceneSource {
        let path = displayPath ?? url.path
        let start = SourceLocation(file: path, line: 1, column: 1)
        func failed(_ d: Diagnostic) -> SceneSource {
            SceneSource(file: path, baseDirectory: url.deletingLastPathComponent(), realDirectory: nil, record: nil, root: nil,
                        hasBraces: false, diagnostics: [d])
        }
        let bytes: [UInt8], modified: Int
        switch FileBytes.readStamped(url.path, limit: limits.maxFileSize) {
        case .failure(.tooLarge(let size)): return failed(Diagnostic(.error, .fileTooLarge(size, limits.maxFileSize), at: start))
        case .failure: return failed(Diagnostic(.error, .fileUnreadable(path), at: nil))
        case .success(let read): (bytes, modified) = read
        }
        let real = url.standardizedFileURL.resolvingSymlinksInPath()
        let record = FileRecord(path: real.path, sha256: hashes ? ContentHash.sha256(bytes) : "", size: bytes.count,
                                modified: FileTime.trusted(modified))
        let (root, xml) = XMLReader.read(bytes: bytes, file: path, errorLimit: limits.maxErrors)
        // A scene reached through a symlink (as in Bazel's sandbox, where
        // every input is a link to the source tree) may also read beside
        // the file it really is: the folder it lives in is its folder too.
        return SceneSource(file: path, baseDirectory: url.deletingLastPathComponent(), realDirectory: real.deletingLastPathComponent(),
                           record: record, root: root, hasBraces: bytes.contains(UInt8(ascii: "{")) || bytes.contains(UInt8(ascii: "}")),
                           diagnostics: xml.all)
    }

    /// The scene a read file is under `options`.
    public static func build(_ source: SceneSource, options: ParseOptions) -> ParseResult {
        let recorder = FileRecorder(hashes: options.hashesFilesRead)
        if let r = source.record { recorder.add(r) }
        guard let root = source.root else { return ParseResult(scene: nil, diagnostics: source.diagnostics, filesRead: recorder.all) }
        var options = options
        if let real = source.realDirectory { options.allowedDirectories.append(real) }
        return build(root, hasBraces: source.hasBraces, file: source.file, baseDirectory: source.baseDirectory, options: options,
                     recorder: recorder)
    }

    public static func parse(source: String, file: String = "<string>", baseDirectory: URL,
                             options: ParseOptions = ParseOptions()) -> ParseResult {
        parse(bytes: Array(source.utf8), file: file, baseDirectory: baseDirectory, options: options)
    }

    public static func parse(bytes: [UInt8], file: String, baseDirectory: URL, options: ParseOptions) -> ParseResult {
        parse(bytes: bytes, file: file, baseDirectory: baseDirectory, options: options, recorder: FileRecorder(hashes: options.hashesFilesRead))
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
        return build(root, hasBraces: bytes.contains(UInt8(ascii: "{")) || bytes.contains(UInt8(ascii: "}")), file: file,
                     baseDirectory: baseDirectory, options: options, recorder: recorder)
    }

    private static func build(_ root: XMLElement, hasBraces: Bool, file: String, baseDirectory: URL, options: ParseOptions,
                              recorder: FileRecorder) -> ParseResult {
        let resolver = ResourceResolver(sceneDirectory: baseDirectory,
                                        allowedDirectories: options.allowedDirectories,
                                        limits: options.limits, recorder: recorder)
        let builder = SceneBuilder(resolver: resolver, limits: options.limits, options: options)
        builder.sourceHasBraces = hasBraces
        let scene = builder.build(root)
        let diagnostics = builder.diagnostics
        // Reported in file order, whatever order the passes found them in.
        let sorted = diagnostics.all.enumerated().sorted { a, b in
            let la = a.element.location, lb = b.element.location
            let ka = (la?.line ?? 0, la?.column ?? 0, a.offset), kb = (lb?.line ?? 0, lb?.column ?? 0, b.offset)
            return ka < kb
        }.map(\.element)
        // "too many errors" closes the list, wherever its location sorts.
        let ordered = sorted.filter { $0.message.code != .tooManyErrors } + sorted.filter { $0.message.code == .tooManyErrors }
        return ParseResult(scene: diagnostics.hasErrors ? nil : scene, diagnostics: ordered, filesRead: recorder.all,
                           fontData: builder.fontData)
    }
}
