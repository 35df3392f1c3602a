import ArgumentParser
import Easel
import FoundationEssentials

/// Limits and file access, shared by every subcommand.
public struct SafetyOptions: ParsableArguments, Sendable {
    public init() {}

    @Option(name: .customLong("max-pixels"), help: "Most output pixels allowed.")
    public var maxPixels: Int = Limits().maxPixels
    @Option(name: .customLong("max-nodes"), help: "Most painted nodes allowed, after expanding repeats.")
    public var maxNodes: Int = Limits().maxNodes
    @Option(name: .customLong("max-depth"), help: "Deepest element nesting allowed (at most 256, the XML reader's own limit).")
    public var maxDepth: Int = Limits().maxDepth
    @Option(name: .customLong("max-file-size"), help: "Largest input file, in bytes (at most 2147483647).")
    public var maxFileSize: Int = Limits().maxFileSize
    @Option(name: .customLong("max-paint"), help: "Most painting work, in units of about 1 ns (see docs/security.md).")
    public var maxPaint: Int = Int(Limits().maxPaintCost)
    @Option(name: .customLong("max-layout"), help: "Most layout work, in units of about 1 µs (measuring nodes, shaping text).")
    public var maxLayout: Int = Int(Limits().maxLayoutWork)
    @Option(name: .customLong("max-text"), help: "Most characters of text shaped per scene (all texts and graph labels).")
    public var maxText: Int = Limits().maxTextCharacters
    @Option(name: .customLong("error-limit"), help: "Most errors reported per file before stopping; 0 reports all.")
    public var errorLimit: Int = Limits().maxErrors
    @Option(name: .customLong("allow-read"), help: "A folder outside the scene's that href/src may read.")
    public var allowRead: [String] = []

    public func validate() throws {
        for (name, v) in [("--max-pixels", maxPixels), ("--max-nodes", maxNodes), ("--max-depth", maxDepth),
                          ("--max-file-size", maxFileSize), ("--max-paint", maxPaint), ("--max-layout", maxLayout), ("--max-text", maxText)] where v <= 0 {
            throw ValidationError("\(name) must be greater than 0")
        }
        if maxDepth > Limits.maxDepthCeiling {
            throw ValidationError("--max-depth can be at most \(Limits.maxDepthCeiling): the XML reader refuses documents nested deeper")
        }
        if maxFileSize > Limits.maxFileSizeCeiling {
            throw ValidationError("--max-file-size can be at most \(Limits.maxFileSizeCeiling) (2 GiB less a byte): the XML reader takes a file's size as a 32-bit number")
        }
        if errorLimit < 0 { throw ValidationError("--error-limit must be 0 (no limit) or more") }
    }

    public func options(scale: Double? = nil, scales: [Double] = []) -> Easel.Options {
        var limits = Limits()
        limits.maxPixels = maxPixels
        limits.maxNodes = maxNodes
        limits.maxDepth = maxDepth
        limits.maxFileSize = maxFileSize
        limits.maxPaintCost = Double(maxPaint)
        limits.maxErrors = errorLimit
        limits.maxTextCharacters = maxText
        limits.maxLayoutWork = Double(maxLayout)
        return Easel.Options(limits: limits,
                             allowedDirectories: allowRead.map { URL(fileURLWithPath: $0) },
                             scale: scale, scales: scales)
    }
}
