import ArgumentParser
import Easel
import FoundationEssentials

/// What `render` and `build` write, spelled and checked once: scales,
/// formats, parallel jobs and the depfile. (Where the files go differs:
/// `render` takes scene files and `-o FILE` or `--out-dir DIR`, `build` a
/// folder and `--out-dir DIR`.)
public struct OutputOptions: ParsableArguments, Sendable {
    public init() {}

    @Option(help: "Comma-separated scales for PNG (and WebP, AVIF) output, e.g. 1,2,3: NAME.png, NAME@2x.png, NAME@3x.png (default: each scene once at its own scale, named NAME.png; in an asset catalog 1,2,3).")
    public var scales: String?

    // --formats, and --format as render has always spelled it.
    @Option(name: [.customLong("formats"), .customLong("format")],
            help: "Comma-separated formats: png, pdf, svg, vector-drawable (an Android VectorDrawable, NAME.xml), webp, avif. Render only, one at a time: apng (an animated PNG), icns, ico (icon files), icon (an Icon Composer bundle, NAME.icon). Default: render, the output's extension (png with --out-dir); build, png. --format is accepted too.")
    public var formats: String?

    @Option(name: .shortAndLong, help: "Scenes rendered at once (default: the number of cores).")
    public var jobs: Int?

    @Option(help: "Write Make-format dependencies: each output depends on its scene and every file it read (also fonts, string and parameter files). A depfile that cannot be written is an error.")
    public var depfile: String?

    /// `--scales` parsed; empty without it.
    public var scaleList: [Double] {
        (scales ?? "").split(separator: ",").compactMap { Double($0.trimmingSpaces) }
    }

    /// `--formats` as written, one name each; empty without it.
    public var formatNames: [String] {
        guard let formats else { return [] }
        return formats.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces }
    }

    /// Names render takes besides `OutputFormat`s: animated PNGs and icon files.
    public static let renderOnlyFormats: Set<String> = Set(["apng", "icon"] + IconFileKind.allCases.map(\.rawValue))

    /// The formats named (apng, icns and ico are not `OutputFormat`s: render handles them).
    public var formatList: [OutputFormat] { formatNames.compactMap(OutputFormat.init(rawValue:)) }

    public func validate() throws {
        if let scales {
            let parts = scales.split(separator: ",", omittingEmptySubsequences: false)
            guard !parts.isEmpty, parts.count == scaleList.count, scaleList.allSatisfy(ScaleOption.isValid) else {
                throw ValidationError(ScaleOption.listMessage(scales))
            }
        }
        if let formats {
            guard !formatNames.isEmpty, formatNames.allSatisfy({ OutputFormat(rawValue: $0) != nil || Self.renderOnlyFormats.contains($0) }) else {
                throw ValidationError("--formats takes png, pdf, svg, vector-drawable, webp, avif (render: or apng, icns, ico, icon), separated by commas, not '\(formats)'")
            }
            if Set(formatNames).count < formatNames.count { throw ValidationError("--formats names a format twice: '\(formats)'") }
        }
        if let jobs, jobs < 1 { throw ValidationError("-j must be 1 or more") }
    }
}
