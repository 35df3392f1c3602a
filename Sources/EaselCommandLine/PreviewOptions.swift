import ArgumentParser
import Easel
import FoundationEssentials

/// What `easel preview` takes; `easel-preview` parses the same arguments.
public struct PreviewOptions: ParsableArguments, Sendable {
    public init() {}

    @Argument(help: "Scene files to preview.")
    public var scenes: [String] = []

    @Option(help: "TCP port to listen on; 0 picks a free one (the URL printed says which).")
    public var port: Int = 8080

    @Option(help: "Address to listen on. Anything but loopback (127.0.0.1, ::1, localhost) lets other machines see your scenes.")
    public var host: String = "127.0.0.1"

    @Option(help: "Pixels per point of the preview's first pictures (default 2, a high-density screen's; the page switches between 1, 2 and 3). render and build write files at the scene's own scale instead.")
    public var scale: Double = 2

    @Option(help: "Preview the scenes as their <variant> NAME (as render, check and layout take it).")
    public var variant: String?

    @OptionGroup public var safety: SafetyOptions
    @OptionGroup public var parameters: ParameterOptions
    @OptionGroup public var fonts: FontOptions
    @OptionGroup public var text: TextOptions

    public func validate() throws {
        guard !scenes.isEmpty else { throw ValidationError("give at least one scene file to preview") }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard scale > 0, scale <= Limits().maxScale else { throw ValidationError(ScaleOption.rangeMessage("--scale")) }
    }

    /// Reports each scene that does not exist as `render` does
    /// (`file: error: no such file [E0808]`); true if any did not, and the
    /// caller exits with status 1, as `render` does.
    public func reportMissingScenes() -> Bool {
        let missing = scenes.filter { !FileManager.default.fileExists(atPath: $0) }
        let output = DiagnosticsOutput(format: .text)
        for scene in missing { output.report([Diagnostic(.error, .noSuchScene, at: nil)], input: scene) }
        output.finish()
        return !missing.isEmpty
    }

    /// The names of this machine only: the server binds them to loopback,
    /// and on loopback requests must name one of them as their `Host`.
    public static let loopbackHosts: Set<String> = ["127.0.0.1", "::1", "localhost"]

    /// True when `host` reaches this machine only.
    public var isLoopback: Bool { Self.loopbackHosts.contains(host) }
}
