import EaselModel
import FoundationEssentials

extension Diagnostic.Message {
    static func fileOutsideScene(_ path: String) -> Self {
        .init(.fileOutsideScene, "'\(path)' is outside the scene's folder (allow its folder with --allow-read DIR)")
    }
    static func fileMissing(_ path: String) -> Self { .init(.unreadableFile, "cannot read '\(path)': no such file") }
    static func fileUnreadable(_ path: String) -> Self { .init(.unreadableFile, "cannot read '\(path)'") }
    static func notPNG(_ path: String) -> Self { .init(.unreadableFile, "'\(path)' is not a PNG file") }
    static func imageTooLarge(_ path: String, _ w: Int, _ h: Int, _ limit: Int) -> Self {
        .init(.inputTooLarge, "'\(path)' is \(w)×\(h) pixels, more than the limit of \(limit) pixels (raise it with --max-pixels)")
    }
}

/// Resolves `href`/`src` against the scene's folder and refuses anything
/// that leaves it (after symlinks) unless the user allowed that folder.
public struct ResourceResolver: Sendable {
    public var sceneDirectory: URL
    public var allowedDirectories: [URL]
    public var limits: Limits
    /// Every file read through this resolver is recorded here.
    let recorder: FileRecorder
    /// Images read, by reference (`loadImage`).
    private let images = Locked<[String: Result<ImageSource, Diagnostic.Message>]>([:])

    init(sceneDirectory: URL, allowedDirectories: [URL] = [], limits: Limits = Limits(), recorder: FileRecorder) {
        self.sceneDirectory = sceneDirectory
        self.allowedDirectories = allowedDirectories
        self.limits = limits
        self.recorder = recorder
    }

    public func resolve(_ reference: String) -> Result<URL, Diagnostic.Message> {
        let url = reference.hasPrefix("/")
            ? URL(fileURLWithPath: reference)
            : sceneDirectory.appendingPathComponent(reference)
        let real = url.standardizedFileURL.resolvingSymlinksInPath()
        let roots = ([sceneDirectory] + allowedDirectories).map { $0.standardizedFileURL.resolvingSymlinksInPath().path }
        let inside = roots.contains { root in
            real.path == root || real.path.hasPrefix(root.hasSuffix("/") ? root : root + "/")
        }
        guard inside else { return .failure(.fileOutsideScene(reference)) }
        guard FileManager.default.fileExists(atPath: real.path) else { return .failure(.fileMissing(reference)) }
        return .success(real)
    }

    public func read(_ reference: String) -> Result<[UInt8], Diagnostic.Message> {
        switch resolve(reference) {
        case .failure(let m): return .failure(m)
        case .success(let url):
            switch FileBytes.readStamped(url.path, limit: limits.maxFileSize) {
            case .failure(.tooLarge(let size)): return .failure(.fileTooLarge(size, limits.maxFileSize))
            case .failure: return .failure(.fileUnreadable(reference))
            case .success(let (bytes, modified)):
                recorder.record(path: url.path, bytes: bytes, modified: modified)
                return .success(bytes)
            }
        }
    }

    /// Reads an `<image>`'s file: a PNG (by its signature) or an SVG (by
    /// its `<svg>` root), told apart by content, whatever its name. Once
    /// per compile and reference: every `<image>` of one file shares its
    /// bytes and what was learnt of them (an SVG is checked once).
    public func loadImage(_ reference: String) -> Result<ImageSource, Diagnostic.Message> {
        if let known = images.withLock({ $0[reference] }) { return known }
        let result = readImage(reference)
        images.withLock { $0[reference] = result }
        return result
    }

    private func readImage(_ reference: String) -> Result<ImageSource, Diagnostic.Message> {
        switch read(reference) {
        case .failure(let m): return .failure(m)
        case .success(let bytes):
            if bytes.starts(with: Self.pngSignature) { return png(bytes, reference) }
            guard SVGImageReader.looksLikeXML(bytes) else { return .failure(.notAnImage(reference, root: nil)) }
            return SVGImageReader.read(bytes, reference: reference, limits: limits).map { facts in
                ImageSource(path: reference, data: bytes, pixelWidth: Int(facts.width.rounded(.up)),
                            pixelHeight: Int(facts.height.rounded(.up)), vector: facts)
            }
        }
    }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// A PNG and its size from the IHDR chunk, without decoding it, so
    /// that a tiny file claiming giant dimensions is refused before Cairo
    /// allocates anything.
    private func png(_ bytes: [UInt8], _ reference: String) -> Result<ImageSource, Diagnostic.Message> {
        let signature = Self.pngSignature
        guard bytes.count >= 24, Array(bytes[0..<8]) == signature,
              Array(bytes[12..<16]) == Array("IHDR".utf8) else { return .failure(.notPNG(reference)) }
        func be32(_ i: Int) -> Int {
            Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
        }
        let w = be32(16), h = be32(20)
        guard w > 0, h > 0 else { return .failure(.notPNG(reference)) }
        guard w * h <= limits.maxPixels else { return .failure(.imageTooLarge(reference, w, h, limits.maxPixels)) }
        return .success(ImageSource(path: reference, data: bytes, pixelWidth: w, pixelHeight: h))
    }
}
