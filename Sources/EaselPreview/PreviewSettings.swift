import Easel

/// What the page chose for one scene: shared by every open page, so two
/// browsers on the same scene show the same picture.
public struct PreviewSettings: Codable, Sendable, Equatable {
    /// Pixels per point of the picture.
    public var scale: Double
    /// Seconds into the scene's animations.
    public var time: Double = 0
    /// "light" or "dark".
    public var appearance: String
    /// Values typed into the page's parameter fields, over the command line's.
    public var parameters: [String: String] = [:]
    /// The locale picked on the page (`de`, `pseudo`), over `--locale`;
    /// nil: the command line's.
    public var locale: String?
    /// The gamut switch: `srgb` or `display-p3`, over the scene's
    /// `color-space`; nil: the scene's (or `--color-space`).
    public var colorSpace: String?
    /// The format switch: the picture as `png`, `webp` or `avif` (what a
    /// build would ship); nil: PNG.
    public var format: String?
    /// WebP and AVIF quality, 1–100; nil: lossless WebP, AVIF at 80.
    public var quality: Int?

    /// The formats the page offers.
    static let formats = ["png", "webp", "avif"]

    public init(scale: Double, appearance: String) {
        self.scale = scale
        self.appearance = appearance
    }

    /// Settings sent by a page, or nil if they are out of range (the page
    /// offers only valid ones; anything else is a hand-made request).
    public func checked(maxScale: Double) -> PreviewSettings? {
        guard scale.isFinite, scale > 0, scale <= maxScale, time.isFinite, time >= 0,
              appearance == "light" || appearance == "dark",
              parameters.count <= 256, parameters.allSatisfy({ $0.key.utf8.count <= 256 && $0.value.utf8.count <= 4096 }),
              // A value from the page is text like any other (CarriedText).
              parameters.allSatisfy({ CarriedText.isCarried($0.key) && CarriedText.isCarried($0.value) }),
              colorSpace.map({ SceneColorSpace(rawValue: $0) != nil }) ?? true,
              format.map(Self.formats.contains) ?? true, quality.map({ (1...100).contains($0) }) ?? true,
              locale.map({ $0.utf8.count <= 64 && $0.unicodeScalars.allSatisfy { $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "-" || $0 == "_") } }) ?? true
        else { return nil }
        return self
    }
}
