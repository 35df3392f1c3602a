import EaselModel

/// Gives meaning to the XML tree: checks names against `Vocabulary`, parses
/// values, resolves references, and keeps going after each error so that
/// every problem in the file is reported in one run.
///
/// One concept per file: `DefinitionsBuilder` (palette, paint servers, clip
/// paths), `NodeBuilder` (elements and common attributes), `TextBuilder`,
/// `StackBuilder`, `GraphBuilder`, `ReferenceChecks` (names, cycles, the
/// node budget, over `Node.walk`/`Node.fold`) and `AttributeReaders`.
final class SceneBuilder {
    var diagnostics = Diagnostics()
    /// Nodes built so far: the next one's `NodeID`.
    var nodesBuilt = 0
    let resolver: ResourceResolver
    let limits: Limits
    var palette: [String: Color] = [:]
    var ids: [String: SourceLocation] = [:]
    var paintServerIDs: Set<String> = []
    var clipPathIDs: Set<String> = []
    var paintReferences: [(String, SourceLocation)] = []
    var clipReferences: [(String, SourceLocation)] = []
    let options: ParseOptions
    var appearance: Appearance
    var paletteColors: [PaletteColor] = []
    /// Colours written outside sRGB, as written and where, in file order:
    /// the gamut warning lists them.
    var wideColors: [(text: String, color: Color, location: SourceLocation)] = []
    var parameters: [ParameterDeclaration] = []
    /// Each declared parameter's place in `parameters`, by name.
    var parameterIndex: [String: Int] = [:]
    var variants: [SceneVariant] = []
    /// The source has a brace somewhere: without one there is nothing to
    /// substitute, and the walk over every attribute is skipped.
    var sourceHasBraces = true
    /// Characters of text to shape so far, against `Limits.maxTextCharacters`.
    var textCharacters = 0
    /// A chain of references longer than the limit was found: nothing else
    /// may follow chains (by recursion) in this scene.
    var referenceChainTooDeep = false
    var reportedTextLimit = false
    /// `<font src>` declarations, and the bytes of each declared file by its hash.
    var fontDeclarations: [FontDeclaration] = []
    var fontData: [String: [UInt8]] = [:]
    /// `<scene lang>`, which texts inherit.
    var sceneLang: String?
    /// The graph being built names an `x-column` that could not be read
    /// (its error is told): whether its x are dates is unknown.
    var graphXUnread = false
    /// The graph being built places its points by index.
    var graphByIndex = false
    /// The `dir` texts and stacks inherit here: the scene's, or the
    /// nearest enclosing stack's.
    var direction = TextDirection.ltr

    init(resolver: ResourceResolver, limits: Limits, options: ParseOptions = ParseOptions()) {
        self.resolver = resolver
        self.limits = limits
        self.options = options
        self.appearance = options.appearance
        diagnostics.errorLimit = limits.maxErrors
    }

    func build(_ source: XMLElement) -> Scene? {
        guard source.name == "scene" else {
            diagnostics.error(.rootMustBeScene(source.name), at: source.location)
            return nil
        }
        // Parameters are values written into the text of the scene: every
        // later check sees the scene as it reads after substitution.
        let root = substituteParameters(source)
        checkAttributes(root)
        checkNoText(root)
        let width = requiredNumber(root, "width", positive: true) ?? 1
        let height = requiredNumber(root, "height", positive: true) ?? 1
        var scene = Scene(file: root.location.file, width: width, height: height, location: root.location)
        if let s = number(root, "scale") {
            if s > 0, s <= limits.maxScale { scene.scale = s } else { rangeError(root, "scale", "greater than 0 and at most \(limits.maxScale.wholeNumberText)") }
        }
        if let v = number(root, "version"), v != 1 { diagnostics.error(.badVersion, on: root.attribute("version")!) }
        if let d = number(root, "duration") {
            if d >= 0 { scene.duration = d } else { rangeError(root, "duration", "0 or more") }
        }

        // A locale gives the scene its default language and direction.
        let localeLanguage = options.pseudoLocale == nil ? options.locale.flatMap { LanguageTag.isWellFormed($0) ? $0 : nil } : nil
        let localeDirection: TextDirection = options.pseudoLocale == .pseudoRTL ? .rtl
            : options.locale.map { TextDirection.of(language: $0) } ?? .ltr
        sceneLang = language(root) ?? localeLanguage
        scene.lang = sceneLang
        // Graph labels: --locale first (the build's), then the scene's lang.
        let labelTag = (options.pseudoLocale == nil ? options.locale : nil) ?? sceneLang
        if let labelTag {
            if let found = GraphLocale.resolve(labelTag) {
                scene.labelLocale = found
            } else if root.descendants(named: "lineGraph") {
                diagnostics.warning(.init(.noLocaleDefinition, "locale '\(labelTag)' has no number or date definition (d3-format, d3-time-format): graph labels are written as in en-US"),
                                    at: (root.attribute("lang") ?? root.attribute("xml:lang")).map(\.location) ?? root.location)
            }
        }
        scene.systemFonts = bool(root, "system-fonts")
        if let d = bool(root, "dither") { scene.dither = d }
        if let space = keyword(root, "color-space", SceneColorSpace.self) { scene.colorSpace = space }
        if let space = options.colorSpace { scene.colorSpace = space }
        if let asset = keyword(root, "asset", SceneAsset.self) {
            scene.asset = asset
            // Every platform's icon is a square; a scene that is not would
            // be stretched or cropped differently by each.
            if asset == .appIcon, width != height, let a = root.attribute("asset") {
                diagnostics.error(.appIconNotSquare(width, height), on: a)
            }
        }
        scene.iconComposer.shadow = keyword(root, "icon-shadow", IconShadow.self)
        if let t = number(root, "icon-translucency"), let a = root.attribute("icon-translucency") {
            if (0...1).contains(t) { scene.iconComposer.translucency = t } else { diagnostics.error(.iconTranslucencyRange(t), on: a) }
        }
        readIconGlass(root, into: &scene)
        direction = keyword(root, "dir", TextDirection.self) ?? localeDirection
        scene.direction = direction
        // Names from <defs> may be used before the <defs> that declares them.
        let defs = root.children.filter { $0.name == "defs" }
        collectDefinitionNames(defs)
        if let bg = color(root, "background") { scene.background = bg }
        scene.definitions = buildDefinitions(defs, into: scene.definitions)
        scene.parameters = parameters
        scene.variants = variants
        scene.fonts = fontDeclarations
        scene.appearance = appearance
        scene.variant = options.variant
        for child in root.children where child.name != "defs" {
            if let node = buildNode(child, parent: "scene", depth: 1) { scene.nodes.append(node) }
        }
        if let layer = options.layer { keepLayer(layer, of: &scene, root: root) }
        checkReferences(scene.definitions)
        warnOutsideGamut(scene.colorSpace)
        if !referenceChainTooDeep { checkNodeCount(scene) }
        let pixels = width * scene.scale * height * scene.scale
        if pixels > Double(limits.maxPixels) {
            diagnostics.error(.tooManyPixels(width * scene.scale, height * scene.scale, limits.maxPixels), at: root.location)
        } else if max(width, height) * scene.scale > 32767 {
            diagnostics.error(.sideTooLong(width * scene.scale, height * scene.scale), at: root.location)
        }
        return scene
    }
}

extension SceneBuilder {
    /// `ParseOptions.layer`: the scene with only its top-level element of
    /// that id — an adaptive icon's layer rendered alone, shown even if it
    /// is `hidden`. The scene's `background` belongs to the `background` layer.
    func keepLayer(_ id: String, of scene: inout Scene, root: XMLElement) {
        guard scene.nodes.contains(where: { $0.common.id == id }) else {
            diagnostics.error(.noSuchLayer(id, known: scene.layers.map(\.id)), at: root.location)
            return
        }
        scene.nodes = scene.nodes.filter { $0.common.id == id }
        // A layer shown alone is shown even if hidden: a monochrome layer
        // is hidden in the full-colour icon.
        for i in scene.nodes.indices { scene.nodes[i].common.hidden = false }
        if id != "background" { scene.background = .transparent }
    }
}

extension SceneBuilder {
    /// `icon-glass` of the top-level groups with an id (Icon Composer's
    /// layers); on any other group it would say nothing, so it is an error.
    func readIconGlass(_ root: XMLElement, into scene: inout Scene) {
        for child in root.children where child.name == "group" {
            guard let a = child.attribute("icon-glass"), let glass = bool(child, "icon-glass") else { continue }
            if let id = child.attribute("id")?.value { scene.iconComposer.glass[id] = glass } else {
                diagnostics.error(.iconGlassPlacement, on: a)
            }
        }
        var pending = root.children.flatMap(\.children)
        while let element = pending.popLast() {
            if element.name == "group", let a = element.attribute("icon-glass") { diagnostics.error(.iconGlassPlacement, on: a) }
            pending += element.children
        }
    }
}
