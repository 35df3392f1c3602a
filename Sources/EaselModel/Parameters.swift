/// What a `<param>` holds (docs/format.md, "Parameters and appearances").
public enum ParameterType: String, CaseIterable, Hashable, Sendable {
    case color, number, length, angle, string
}

/// Which value of a palette colour every use of its name gets. `tinted`
/// is iOS 18's tinted app-icon appearance: the system tints a greyscale
/// image, so a colour without a `tinted` value becomes a grey
/// (`PaletteColor.value(in:)`).
public enum Appearance: String, CaseIterable, Hashable, Sendable {
    case light, dark, tinted
}

/// `<param name type default>`: a value of the scene that the command line,
/// a parameter file or a variant can set.
public struct ParameterDeclaration: Hashable, Sendable {
    public var name: String
    public var type: ParameterType
    public var defaultValue: String
    /// The value this compile used (the default unless something set it).
    public var value: String
    public var location: SourceLocation
    public init(name: String, type: ParameterType, defaultValue: String, value: String, location: SourceLocation) {
        self.name = name; self.type = type; self.defaultValue = defaultValue; self.value = value; self.location = location
    }
}

/// A value given to a parameter from outside the scene, and where it came
/// from — messages about the value name its origin.
public struct ParameterSetting: Hashable, Sendable {
    public enum Origin: Hashable, Sendable {
        case commandLine
        /// A parameter file (`--set-file`), by the name the user gave it.
        case file(String)
        /// A `<variant>`'s `set`.
        case variant(String)
        /// The `<param>`'s own default.
        case defaultValue
        /// A string table (`--strings`), for a locale (`--locale`).
        case strings(file: String, locale: String)
    }
    public var value: String
    public var origin: Origin
    public init(_ value: String, from origin: Origin = .commandLine) { self.value = value; self.origin = origin }

    /// "set on the command line", "set in params.json", …
    public var originText: String {
        switch origin {
        case .commandLine: return "set on the command line"
        case .file(let name): return "set in \(name)"
        case .variant(let name): return "set by variant '\(name)'"
        case .defaultValue: return "its default"
        case .strings(let file, let locale): return "the '\(locale)' string in \(file)"
        }
    }
}

/// `<variant name [appearance] [set]>`: one more rendering of the scene for
/// builds, with its own appearance and parameter values.
public struct SceneVariant: Hashable, Sendable {
    /// One `name=value` of a variant's `set`.
    public struct Assignment: Hashable, Sendable {
        public var name: String
        public var value: String
        public init(name: String, value: String) { self.name = name; self.value = value }
    }

    public var name: String
    public var appearance: Appearance?
    /// `set="a=1; b=#f00"`, in the order written.
    public var settings: [Assignment]
    public var location: SourceLocation

    public init(name: String, appearance: Appearance?, settings: [Assignment], location: SourceLocation) {
        self.name = name; self.appearance = appearance; self.settings = settings; self.location = location
    }

    /// A dark rendering of the scene as it is: in an asset catalog, the dark
    /// appearance of the scene's own imageset rather than an imageset of its own.
    public var isAppearanceOnly: Bool { appearance == .dark && settings.isEmpty }
}

/// A palette colour with all of its values, for asset catalogs' colorsets.
public struct PaletteColor: Hashable, Sendable {
    public var name: String
    public var light: Color
    public var dark: Color?
    /// `tinted`: the value for a tinted app icon (`appearance="tinted"`).
    public var tinted: Color?
    /// `export="false"`: private to its scene, no colorset.
    public var exported = true
    /// A value was written as `color(display-p3 …)` or `oklch()`, or lies
    /// outside sRGB: an asset catalog's colour set gives it in Display P3.
    public var isWide = false
    /// Where the `<color>` is (a clash between two scenes names both).
    public var location: SourceLocation?
    public init(name: String, light: Color, dark: Color?, tinted: Color? = nil, exported: Bool = true, location: SourceLocation? = nil) {
        self.name = name; self.light = light; self.dark = dark; self.tinted = tinted; self.exported = exported; self.location = location
    }

    /// The value every use of the name gets in `appearance`. Without a
    /// `tinted` value a tinted icon gets the grey of the dark value's (or
    /// the light one's) luminance: Apple's guidance for tinted icons is a
    /// greyscale image on which the system lays the user's tint, and the
    /// tinted icon stands on a dark background as the dark one does.
    public func value(in appearance: Appearance) -> Color {
        switch appearance {
        case .light: return light
        case .dark: return dark ?? light
        case .tinted: return tinted ?? (dark ?? light).greyOfSameLuminance
        }
    }

    /// Whether two scenes' declarations make the same colorset.
    public func hasSameValues(as other: PaletteColor) -> Bool {
        light == other.light && dark == other.dark
    }
}
