/// Renders of a square scene at exact pixel sizes: every entry of an
/// icon set, ICNS or ICO is painted from the scene at its own size (a
/// 16-pixel icon drawn at 16 pixels stays sharp, where one scaled down
/// from 1024 blurs).
extension CompiledScene {
    /// The scale that makes the scene's side exactly `pixels` device
    /// pixels. A render's size is its side × scale rounded up, and
    /// `pixels / side` can land a hair above (100 × 0.16 = 16.000000000000004).
    public func scale(forPixels pixels: Int) -> Double {
        let side = layout.size.width
        var s = Double(pixels) / side
        while (side * s).rounded(.up) > Double(pixels) { s = s.nextDown }
        return s
    }

    /// An error unless the scene is square (an icon's sizes are squares).
    public func requireSquare(_ what: String) throws {
        guard scene.width == scene.height else {
            throw DiagnosticsError([Diagnostic(.error, .appIconNotSquare(scene.width, scene.height, what: what), at: scene.location)])
        }
    }

    /// A PNG (or WebP, AVIF) of the square scene, `pixels` on a side, at time 0.
    public func renderRaster(pixels: Int, format: OutputFormat = .png) throws -> [UInt8] {
        try render(format: format, scale: scale(forPixels: pixels), time: 0)
    }

    /// An ICNS or ICO file of the scene (`easel render -o icon.icns`).
    public func renderIconFile(_ kind: IconFileKind) throws -> [UInt8] {
        try requireSquare(kind == .icns ? "an ICNS icon" : "an ICO icon")
        var pngs: [Int: [UInt8]] = [:]
        for pixels in Set(kind.pixelSizes).sorted() { pngs[pixels] = try renderRaster(pixels: pixels) }
        switch kind {
        case .icns: return ICNSFile.assemble(pngs)
        case .ico: return ICOFile.assemble(pngs)
        }
    }
}

/// The icon containers `easel render` writes, told by the output's extension.
public enum IconFileKind: String, CaseIterable, Sendable {
    case icns, ico

    public init?(fileExtension: String) { self.init(rawValue: fileExtension.lowercased()) }

    /// Every entry's side in pixels.
    public var pixelSizes: [Int] {
        switch self {
        case .icns: return ICNSFile.entries.map(\.pixels)
        case .ico: return ICOFile.sizes
        }
    }
}
