import EaselModel

extension AssetBuild {
    /// What a build did, scene by scene (paths relative to the source).
    public struct Report: Sendable {
        public var rendered: [String] = []
        public var upToDate: [String] = []
        public var failed: [String] = []
        /// Scenes to build that never started: Ctrl-C came first. Their
        /// outputs and records are as they were.
        public var notStarted: [String] = []
        /// A Ctrl-C stopped the build after the scenes under way.
        public var interrupted = false
        /// Outputs removed because their scene is gone (relative to the output).
        public var removed: [String] = []
        /// Each scene's diagnostics, in scene order.
        public var diagnostics: [(scene: String, diagnostics: [Diagnostic])] = []
        public var warnings: [Diagnostic] = []
        /// Errors of the build itself, not of a scene (a manifest or a stale
        /// output that cannot be written or removed): the build fails.
        public var errors: [Diagnostic] = []
        /// For a depfile: each scene's outputs and the files it read (absolute paths).
        public var dependencies: [(outputs: [String], inputs: [String])] = []
        /// Every parameter name declared by a scene this build compiled.
        public var declaredParameters: Set<String> = []
    }
}
