import Easel

/// One scene's state as the page sees it: sent on the event stream after
/// every compile and served as `/scenes/N/state.json`.
struct SceneSnapshot: Encodable, Sendable {
    struct Message: Encodable, Sendable {
        var severity: String
        var file: String?
        var line: Int?
        var column: Int?
        var message: String
        /// `file:line:col: error: message`, as the command line prints it.
        var text: String
    }

    /// The last picture rendered without errors.
    struct Picture: Encodable, Sendable {
        var version: Int
        var pixelWidth: Int
        var pixelHeight: Int
        /// Size in scene points: the page shows the picture at this CSS size.
        var width: Double
        var height: Double
        /// `png`, `webp` or `avif`, and the file's size: what the format switch shows.
        var format: String
        var bytes: Int
    }

    struct Parameter: Encodable, Sendable {
        var name: String
        var type: String
        var defaultValue: String
        /// The value the last compile used.
        var value: String
    }

    var scene: Int
    var name: String
    /// Differs each time the server starts, so a page that reconnects to a
    /// restarted server reloads pictures whose version numbers repeat.
    var run: String
    /// Counts compiles of this scene since the server started.
    var version: Int = 0
    /// False while the scene (or a file it reads) has errors.
    var ok = true
    var rendering = true
    var diagnostics: [Message] = []
    var renderMilliseconds: Double?
    var picture: Picture?
    var settings: PreviewSettings
    var parameters: [Parameter] = []
    /// The palette has dark values, so the light/dark switch means something.
    var hasDark = false
    /// The space the picture was painted in (`srgb`, `display-p3`).
    var colorSpace = "srgb"
    /// Seconds of animation, nil for a still scene.
    var duration: Double?
    /// The locales the page offers: those the string tables define and
    /// `--locale`, then the pseudo-locales.
    var locales: [String] = []
}

extension SceneSnapshot.Message {
    init(severity: String, message: String, text: String) {
        self.severity = severity
        self.message = message
        self.text = text
    }

    init(_ d: Diagnostic, scenePath: String) {
        severity = d.severity.rawValue
        file = d.file
        line = d.location?.line
        column = d.location?.column
        message = d.message.text
        text = d.location == nil ? "\(scenePath): \(d)" : "\(d)"
    }
}
