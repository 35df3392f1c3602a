import EaselModel

/// What painting and encoding can report. Each is a located `Diagnostic`
/// (the node being painted, or the scene) that the CLI formats.
extension Diagnostic.Message {
    static func paintBudgetExceeded(_ limit: Double) -> Self {
        .init("painting this scene would cost more than \(limit.wholeNumberText) paint units (about \(String(format: "%.1f", limit / 1e9)) s; raise the limit with --max-paint)")
    }
    static func groupsTooDeep(_ pixels: Double) -> Self {
        .init("translucent groups and clip masks nested here would hold more than \(pixels.wholeNumberText) pixels at once (flatten the nesting, or lower the scale)")
    }
    static func cannotDecodePNG(_ path: String) -> Self { .init("cannot decode the PNG '\(path)'") }
    static func cannotDrawFont(_ path: String) -> Self { .init("Cairo cannot draw glyphs from the font '\(path)'") }
    static func outputSideTooLong(_ w: Int, _ h: Int) -> Self {
        .init("the output would be \(w)×\(h) pixels; Cairo draws at most 32767 on a side")
    }
    static func cannotAllocateImage(_ w: Int, _ h: Int) -> Self { .init("cannot allocate a \(w)×\(h) image") }
    static func cannotCreateSurface(_ format: OutputFormat) -> Self { .init("cannot create a \(format.rawValue) surface") }
    static func cairoFailed(_ reason: String) -> Self { .init("Cairo failed: \(reason)") }
    static let pngEncodingFailed = Self("could not compress the PNG (libdeflate)")
}
