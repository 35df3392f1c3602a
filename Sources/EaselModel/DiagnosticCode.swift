/// The stable code of every diagnostic, from this one table: a number that
/// never changes meaning, printed as `E0103` for an error and `W0103` for
/// a warning (a switch such as `--missing-glyphs error` keeps the number
/// and changes the letter). Each message names its code where it is
/// declared (`Diagnostic.Message`); `docs/diagnostics.md` is generated from
/// `summary` and `example`, and a test compiles every example and checks it
/// reports its code.
public enum DiagnosticCode: Int, CaseIterable, Sendable {
    // The file
    case malformedXML = 1
    case doctypeRefused = 2
    case notAScene = 3
    // Elements and attributes
    case unknownElement = 101
    case misplacedElement = 102
    case unknownAttribute = 103
    case missingPart = 104
    case conflictingAttributes = 105
    // Values
    case invalidValue = 201
    case invalidColor = 202
    case invalidTransform = 203
    case invalidPathData = 204
    case colorOutsideGamut = 205
    case characterNotAllowed = 206
    case geometryNotFinite = 207
    // Names and references
    case duplicateName = 301
    case unknownReference = 302
    case referenceCycle = 303
    // Parameters, variants and strings
    case undeclaredParameter = 401
    case invalidParameter = 402
    case unknownSetting = 403
    case unreadableStrings = 404
    case missingString = 405
    case noLocaleDefinition = 406
    // Files a scene reads
    case fileOutsideScene = 501
    case unreadableFile = 502
    case invalidData = 503
    // Fonts and text
    case unusableFont = 601
    case unknownFontFamily = 602
    case noDefaultFamily = 603
    case unknownFontAxis = 604
    case missingGlyphs = 605
    case textOverflows = 606
    case marksDropped = 607
    case labelOutsideFrame = 608
    // Limits
    case inputTooLarge = 701
    case outputTooLarge = 702
    case workTooLarge = 703
    case tooManyErrors = 704
    // Outputs
    case cannotWrite = 801
    case unknownOutputFormat = 802
    case outputCollision = 803
    case renderFailed = 804
    case stillSVGAnimation = 805
    case staleManifest = 806
    case unusedSetting = 807
    case noSuchScene = 808
    case unreadableSource = 809
    case notExpressible = 810
    // Platform asset sets
    case appIconNotSquare = 901
    case appIconNotOpaque = 902
    case colorSetClash = 903
    case invalidResourceName = 904
    case resourceNameCollision = 905
    case outsideSafeZone = 906
    case incompleteAdaptiveIcon = 907
    case notAVectorDrawable = 908
    case notAnAppIcon = 909

    /// `E0103` or `W0103`.
    public func code(_ severity: Diagnostic.Severity) -> String {
        let digits = String(rawValue)
        return (severity == .error ? "E" : "W") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// The severity the code has unless a switch changes it.
    public var usualSeverity: Diagnostic.Severity {
        switch self {
        case .colorOutsideGamut, .missingString, .noLocaleDefinition, .labelOutsideFrame, .unknownFontFamily, .noDefaultFamily, .unknownFontAxis, .missingGlyphs, .textOverflows,
             .marksDropped, .stillSVGAnimation, .staleManifest, .unusedSetting, .outsideSafeZone, .incompleteAdaptiveIcon, .notAVectorDrawable:
            return .warning
        default:
            return .error
        }
    }

    /// A short name, for SARIF rules and the docs' headings.
    public var name: String {
        // The case's name in kebab case, an acronym one word:
        // `stillSVGAnimation` → `still-svg-animation`.
        let letters = Array(String(describing: self))
        var out = ""
        for (i, c) in letters.enumerated() {
            let startsWord = c.isUppercase && i > 0
                && (letters[i - 1].isLowercase || (i + 1 < letters.count && letters[i + 1].isLowercase))
            if startsWord { out += "-" }
            out += c.lowercased()
        }
        return out
    }
}

extension DiagnosticCode {
    /// One sentence: what is wrong and what to do.
    public var summary: String {
        switch self {
        case .malformedXML: return "The file is not well-formed XML or not UTF-8 text, or it is empty; the message quotes libxml2's reason."
        case .doctypeRefused: return "A DOCTYPE was found: scenes need none, and refusing them shuts out entity expansion and external entities."
        case .notAScene: return "The root element is not `<scene>`, or the scene asks for a format version this Easel does not read."
        case .unknownElement: return "An element the format does not have (the message suggests the nearest known one), or one this version does not support yet."
        case .misplacedElement: return "A known element, or text, in a place the format does not allow it (a `<stop>` outside a gradient, text inside a `<view>`)."
        case .unknownAttribute: return "An attribute the element does not take; the message suggests the nearest one it does."
        case .missingPart: return "Something the element needs is missing: a required attribute, a gradient's stops, a text's characters, a graph's data."
        case .conflictingAttributes: return "Attributes that exclude each other or only work together (`angle` with `start`, a percentage inside a stack that sizes itself)."
        case .invalidValue: return "An attribute's value cannot be read as what it must be: a number, a length in points, a keyword, a list, a range."
        case .invalidColor: return "A colour or paint that cannot be read: expected `#rgb`, `#rrggbb`, `rgb()`, `hsl()`, `color(display-p3 …)`, `oklch()`, a CSS name, `none` or `url(#id)`; or a `color()`/`oklch()` component out of its range."
        case .invalidTransform: return "A `transform` that cannot be read: expected translate, rotate, scale, skewX, skewY or matrix."
        case .invalidPathData: return "A path's `d` that cannot be read as SVG path data."
        case .colorOutsideGamut: return "Colours outside the scene's colour space (a Display P3 or OKLCh colour in an sRGB scene) are gamut-mapped as CSS Color 4 maps them; one warning lists them all."
        case .characterNotAllowed: return "Text holds a character that an output format cannot carry — a C0 control other than tab and line feed, U+FFFE or U+FFFF — from a `--set` value, a string table, a CSV cell or the scene; the error is located where it came from."
        case .geometryNotFinite: return "A position or size overflows to infinity (a `1e308` offset inside another): `easel layout` cannot write it as JSON."
        case .duplicateName: return "An id, parameter or variant name declared twice; the message names the first."
        case .unknownReference: return "A `url(#id)` or `clip-path` that names no gradient, pattern or clip path in `<defs>`."
        case .referenceCycle: return "Paints or patterns that refer to each other in a circle; the message lists the chain."
        case .undeclaredParameter: return "A `{name}` in an attribute or text that no `<param>` declares (write `{{` and `}}` for literal braces)."
        case .invalidParameter: return "A `<param>` or `<variant>` that cannot be used: a bad name or value, a reserved name, a variant setting an unknown parameter."
        case .unknownSetting: return "`--set` or `--variant` names a parameter or variant the scene does not have, or a value that is too long: a command-line error (exit 2)."
        case .unreadableStrings: return "A strings table (`--strings`) that cannot be read: not a String Catalog, `.strings` file or JSON table, or not valid."
        case .missingString: return "The strings tables have no value for a key in the locale being built; the message says what is used instead."
        case .noLocaleDefinition: return "The scene's locale has no d3 number or date definition: graph labels are written as in en-US."
        case .fileOutsideScene: return "A file the scene reads lies outside the scene's folder; allow its folder with `--allow-read DIR`."
        case .unreadableFile: return "A file the scene reads is missing, unreadable or not what it must be (an image that is not a PNG)."
        case .invalidData: return "A graph's data cannot be used: a CSV without the column or header, a ragged row, a cell that is not a number, an empty series."
        case .unusableFont: return "A font file or folder that cannot be read or used (not a font, a WOFF2 collection, too many faces)."
        case .unknownFontFamily: return "A `font-family` that no font of the compile has: its characters fall back to other fonts."
        case .noDefaultFamily: return "Easel's default family is not among the compile's fonts, so texts that name no family use another font."
        case .unknownFontAxis: return "A `font-variation` axis that the font does not have; it is ignored."
        case .missingGlyphs: return "Characters that no font of the compile has; they are drawn as empty boxes (an error with `--missing-glyphs error`, the default of `easel build`)."
        case .textOverflows: return "A text does not fit its frame (an error with `--text-overflow error`)."
        case .marksDropped: return "Combining marks that follow no character were dropped from a text."
        case .labelOutsideFrame: return "A graph's axis or legend label falls outside the graph's frame, or the frame is too small for the padding its labels need: drop `padding` (it then grows to fit) or make the graph larger."
        case .inputTooLarge: return "An input is larger than a safety limit (file size, attributes, nodes, depth, text, CSV rows); the message names the flag that raises it."
        case .outputTooLarge: return "The output would have more pixels than the limit (`--max-pixels`) or than Cairo draws on a side, or a shape that shows reaches past the ±4,000,000 device pixels Cairo draws within."
        case .workTooLarge: return "Laying out or painting the scene would cost more than the limit (`--max-layout`, `--max-paint`)."
        case .tooManyErrors: return "The error limit was reached and the compile stopped looking; `--error-limit 0` shows all."
        case .cannotWrite: return "An output or depfile cannot be written; the previous file at that path is left as it was."
        case .unknownOutputFormat: return "The output's format cannot be told from its name; give `--format`."
        case .outputCollision: return "Two inputs would write the same output path (in a build: two scenes, variants or locales, also paths that differ only in case): reported before anything is written; for `render` a command-line error (exit 2), for `build` exit 1."

        case .notExpressible: return "The output format cannot express this element (a raster image in a VectorDrawable, a group's opacity over overlapping parts); nothing is written. Change the element as the message says, render a PNG instead, or build with `--android --android-vectors`, where such a scene falls back to PNG densities."
        case .renderFailed: return "Cairo or an encoder (PNG, WebP, AVIF) failed — out of memory, a bad frame, a WebP wider or taller than 16,383 pixels; nothing is written."
        case .stillSVGAnimation: return "Animated paints that SVG cannot animate (a conic keyframe, keyframes of different kinds): the SVG shows their first frame."
        case .staleManifest: return "The build manifest in the output folder is not one this Easel reads: everything is built again."
        case .unusedSetting: return "`--set` names a parameter that no scene in the build declares."
        case .noSuchScene: return "A scene file given on the command line does not exist, or is a folder (which `easel build` takes)."
        case .unreadableSource: return "A folder under a build's source cannot be listed (permissions, an unmounted share): the build fails naming it, and the outputs and records of the scenes under it are kept as they were."
        case .appIconNotSquare: return "An app icon, ICNS or ICO is square on every platform; the scene's width and height must be equal."
        case .appIconNotOpaque: return "An iOS app icon must be opaque: its rendering has a pixel with alpha below 255 (give the scene a `background`)."
        case .colorSetClash: return "Two scenes of one asset-catalog build export a palette colour of one name with different values; rename one or mark it `export=\"false\"`."
        case .invalidResourceName: return "A scene's name cannot be made an Android resource name (`[a-z0-9_]`, not starting with a digit, not a Java keyword); rename the file."
        case .resourceNameCollision: return "Two scenes of one Android build become the same resource (`My Icon` and `my_icon`, or two app icons); rename one."
        case .outsideSafeZone: return "An adaptive icon's foreground draws outside the central circle, 66 dp across, that every launcher mask shows."
        case .notAnAppIcon: return "An output only an app icon has (an Icon Composer `.icon` bundle) asked of a scene without `asset=\"app-icon\"`; nothing is written."
        case .notAVectorDrawable: return "With `--android-vectors`, a scene (or adaptive icon layer) a VectorDrawable cannot express is written as PNG densities instead; the warning says which element and why."
        case .incompleteAdaptiveIcon: return "An app icon has some of the `background`/`foreground` layer groups but not both: no adaptive icon is made."
        }
    }

    /// A scene that reports the code (compiled by a test), or a command
    /// line (starting with `$`) for codes no scene alone can cause.
    public var example: String {
        switch self {
        case .malformedXML: return #"<scene width="100" height="100"><view width="10" height="10"></scene>"#
        case .doctypeRefused: return #"<!DOCTYPE scene [<!ENTITY a "aaaa">]><scene width="100" height="100"/>"#
        case .notAScene: return #"<svg width="100" height="100"/>"#
        case .unknownElement: return #"<scene width="100" height="100"><rectangle width="10" height="10"/></scene>"#
        case .misplacedElement: return #"<scene width="100" height="100"><stop color="red"/></scene>"#
        case .unknownAttribute: return #"<scene width="100" height="100"><view width="10" height="10" fil="red"/></scene>"#
        case .missingPart: return #"<scene width="100" height="100"><defs><linearGradient id="g"/></defs></scene>"#
        case .conflictingAttributes: return #"<scene width="100" height="100"><defs><linearGradient id="g" angle="90" start="0 0" end="1 1"><stop color="red"/></linearGradient></defs></scene>"#
        case .invalidValue: return #"<scene width="100" height="100"><view width="200px" height="10"/></scene>"#
        case .invalidColor: return ##"<scene width="100" height="100"><view width="10" height="10" fill="#12345"/></scene>"##
        case .invalidTransform: return #"<scene width="100" height="100"><view width="10" height="10" transform="spin(45)"/></scene>"#
        case .invalidPathData: return #"<scene width="100" height="100"><path d="M 0 0 Q 5"/></scene>"#
        case .colorOutsideGamut: return #"<scene width="100" height="100"><view width="10" height="10" fill="color(display-p3 0 1 0)"/></scene>"#
        case .characterNotAllowed: return #"<scene width="100" height="100"><text>Bell&#13;</text></scene>"#
        case .geometryNotFinite: return #"$ easel layout far.scene.xml   # <view x="1e308"> inside another <view x="1e308">"#
        case .duplicateName: return #"<scene width="100" height="100"><view id="a" width="10" height="10"/><view id="a" width="10" height="10"/></scene>"#
        case .unknownReference: return #"<scene width="100" height="100"><view width="10" height="10" fill="url(#sky)"/></scene>"#
        case .referenceCycle: return #"<scene width="100" height="100"><defs><pattern id="p" width="10" height="10"><view width="10" height="10" fill="url(#p)"/></pattern></defs></scene>"#
        case .undeclaredParameter: return #"<scene width="100" height="100"><view width="10" height="10" fill="{accent}"/></scene>"#
        case .invalidParameter: return #"<scene width="100" height="100"><defs><param name="1st" type="color" default="red"/></defs></scene>"#
        case .unknownSetting: return "$ easel render card.scene.xml -o card.png --set acent=#ff0000"
        case .unreadableStrings: return "$ easel build scenes -o out --locales de --strings notes.txt"
        case .missingString: return "$ easel build scenes -o out --locales de --strings Localizable.xcstrings   # a key without a German value"
        case .noLocaleDefinition: return #"<scene width="200" height="100" lang="eo"><lineGraph width="200" height="100" values="1 2 3"><yAxis/></lineGraph></scene>"#
        case .fileOutsideScene: return #"<scene width="100" height="100"><image href="../../photo.png" width="10" height="10"/></scene>"#
        case .unreadableFile: return #"<scene width="100" height="100"><image href="no-such-photo.png" width="10" height="10"/></scene>"#
        case .invalidData: return #"<scene width="100" height="100"><lineGraph width="100" height="100" values=""/></scene>"#
        case .unusableFont: return #"<scene width="100" height="100"><defs><font src="notes.txt"/></defs></scene>"#
        case .unknownFontFamily: return #"<scene width="100" height="100"><text font-family="Helvetica Nueue">Hi</text></scene>"#
        case .noDefaultFamily: return "$ easel check card.scene.xml --system-fonts no --font-dir fonts/   # fonts/ holds no Easel default family"
        case .unknownFontAxis: return #"<scene width="100" height="100"><text font-family="DejaVu Sans" font-variation="wght 700">Hi</text></scene>"#
        case .missingGlyphs: return "$ easel check card.scene.xml --system-fonts no --font-dir latin-only/   # the scene has Japanese text"
        case .textOverflows: return #"<scene width="100" height="100"><text width="60" height="10" font-size="20">A sentence too tall for its frame</text></scene>"#
        case .labelOutsideFrame: return #"<scene width="200" height="100"><lineGraph width="200" height="100" values="1000 20000 3000" padding="10"><yAxis/></lineGraph></scene>"#
        case .marksDropped: return "<scene width=\"100\" height=\"100\"><text>a" + String(repeating: "\u{301}", count: 256) + "</text></scene>"
        case .inputTooLarge: return #"<scene width="100" height="100"><repeat count="100000"><repeat count="100000"><view width="1" height="1"/></repeat></repeat></scene>"#
        case .outputTooLarge: return #"<scene width="100000" height="100000"/>"#
        case .workTooLarge: return "$ easel render gallery.scene.xml -o gallery.png --max-paint 1000"
        case .tooManyErrors: return "$ easel check broken.scene.xml --error-limit 1   # a scene with two errors"
        case .cannotWrite: return "$ easel render card.scene.xml -o /proc/card.png"
        case .unknownOutputFormat: return "$ easel render card.scene.xml -o card.jpeg"
        case .outputCollision: return "$ easel render a/card.scene.xml b/card.scene.xml --out-dir out"
        case .notExpressible: return "$ easel render photo-card.scene.xml -o card.xml   # a VectorDrawable of a scene with a PNG <image>"
        case .renderFailed: return "$ easel render card.scene.xml -o card.png   # when memory for the image cannot be allocated"
        case .stillSVGAnimation: return "$ easel render animated-conic.scene.xml -o out.svg"
        case .staleManifest: return "$ easel build scenes -o out   # out/.easel-build.json written by another Easel"
        case .unusedSetting: return "$ easel build scenes -o out --set acent=#ff0000"
        case .noSuchScene: return "$ easel check no-such.scene.xml"
        case .unreadableSource: return "$ easel build scenes -o out   # scenes/icons cannot be listed (its permissions)"
        case .appIconNotSquare: return #"<scene width="100" height="80" asset="app-icon"/>"#
        case .appIconNotOpaque: return "$ easel build icons -o App.xcassets --xcassets   # an app icon with a transparent corner"
        case .colorSetClash: return "$ easel build scenes -o App.xcassets --xcassets   # card and icon both export 'ink', with different values"
        case .invalidResourceName: return "$ easel build scenes --android res   # scenes/2x-banner.scene.xml"
        case .resourceNameCollision: return "$ easel build scenes --android res   # 'My Icon.scene.xml' and 'my_icon.scene.xml'"
        case .outsideSafeZone: return "$ easel build icons --android res   # a foreground layer drawing into the corners"
        case .notAnAppIcon: return "$ easel render card.scene.xml -o Card.icon   # a scene that is not asset=\"app-icon\""
        case .notAVectorDrawable: return "$ easel build icons --android res --android-vectors   # a scene with a PNG <image>"
        case .incompleteAdaptiveIcon: return "$ easel build icons --android res   # an app icon with a foreground group but no background group"
        }
    }
}
