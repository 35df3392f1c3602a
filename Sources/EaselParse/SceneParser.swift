import EaselModel
import Foundation

public struct ParseOptions: Sendable {
    public var limits = Limits()
    /// Folders outside the scene's own from which `href`/`src` may read.
    public var allowedDirectories: [URL] = []
    public init(limits: Limits = Limits(), allowedDirectories: [URL] = []) {
        self.limits = limits
        self.allowedDirectories = allowedDirectories
    }
}

/// Scene file → typed `Scene`, with every problem located.
public enum SceneParser {
    public static func parse(fileAt url: URL, options: ParseOptions = ParseOptions()) -> (Scene?, [Diagnostic]) {
        let path = url.path
        let start = SourceLocation(file: path, line: 1, column: 1)
        let attrs = try? FileManager.default.attributesOfItem(atPath: path)
        if let size = (attrs?[.size] as? NSNumber)?.intValue, size > options.limits.maxFileSize {
            return (nil, [Diagnostic(.error, .fileTooLarge(size, options.limits.maxFileSize), at: start)])
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            return (nil, [Diagnostic(.error, .fileUnreadable(path), at: nil)])
        }
        return parse(bytes: [UInt8](data), file: path,
                     baseDirectory: url.deletingLastPathComponent(), options: options)
    }

    public static func parse(source: String, file: String = "<string>", baseDirectory: URL,
                             options: ParseOptions = ParseOptions()) -> (Scene?, [Diagnostic]) {
        parse(bytes: Array(source.utf8), file: file, baseDirectory: baseDirectory, options: options)
    }

    public static func parse(bytes: [UInt8], file: String, baseDirectory: URL,
                             options: ParseOptions) -> (Scene?, [Diagnostic]) {
        if bytes.count > options.limits.maxFileSize {
            return (nil, [Diagnostic(.error, .fileTooLarge(bytes.count, options.limits.maxFileSize),
                                     at: SourceLocation(file: file, line: 1, column: 1))])
        }
        let (root, xmlDiagnostics) = XMLReader.read(bytes: bytes, file: file)
        guard let root else { return (nil, xmlDiagnostics.all) }
        let resolver = ResourceResolver(sceneDirectory: baseDirectory,
                                        allowedDirectories: options.allowedDirectories,
                                        limits: options.limits)
        let builder = SceneBuilder(resolver: resolver, limits: options.limits)
        let scene = builder.build(root)
        let diagnostics = builder.diagnostics
        // Reported in file order, whatever order the passes found them in.
        let sorted = diagnostics.all.enumerated().sorted { a, b in
            let la = a.element.location, lb = b.element.location
            let ka = (la?.line ?? 0, la?.column ?? 0, a.offset), kb = (lb?.line ?? 0, lb?.column ?? 0, b.offset)
            return ka < kb
        }.map(\.element)
        return (diagnostics.hasErrors ? nil : scene, sorted)
    }
}
