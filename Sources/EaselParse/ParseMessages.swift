import EaselModel

extension Diagnostic.Message {
    public static func didYouMean(_ suggestion: String?) -> String {
        suggestion.map { "; did you mean '\($0)'?" } ?? ""
    }
    static func unknownElement(_ name: String, suggestion: String?) -> Self {
        .init(.unknownElement, "unknown element <\(name)>\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func notYetSupported(_ name: String) -> Self {
        .init(.unknownElement, "<\(name)> is part of the scene format but this version of Easel does not support it yet")
    }
    static func iconTranslucencyRange(_ v: Double) -> Self {
        .init(.invalidValue, "icon-translucency is between 0 and 1, not \(CFormat.string("%g", v))")
    }
    static let iconGlassPlacement = Self(.misplacedElement, "icon-glass belongs on a top-level <group> with an id (an Icon Composer layer)")
    static func misplacedElement(_ name: String, in parent: String) -> Self {
        .init(.misplacedElement, "<\(name)> is not allowed inside <\(parent)>")
    }
    static func unknownAttribute(_ name: String, on element: String, suggestion: String?) -> Self {
        .init(.unknownAttribute, "unknown attribute '\(name)' on <\(element)>\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func missingAttribute(_ name: String, on element: String) -> Self {
        .init(.missingPart, "<\(element)> needs a '\(name)' attribute")
    }
    static func badNumber(_ attribute: String, _ text: String) -> Self {
        .init(.invalidValue, "'\(attribute)' must be a number, not '\(text)'\(unitNote(text))")
    }
    /// `200px`, `12pt`, `1.5em`: a number with a unit, which the format never takes.
    static func unitNote(_ text: String) -> String {
        let number = text.prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "+" }
        let unit = text.dropFirst(number.count).trimmingSpaces
        guard !number.isEmpty, Double(number) != nil, !unit.isEmpty, unit.count <= 3, unit.allSatisfy(\.isLetter) else { return "" }
        return " (lengths are points, written without a unit: '\(number)')"
    }
    static func outOfRange(_ attribute: String, _ text: String, _ range: String) -> Self {
        .init(.invalidValue, "'\(attribute)' is \(text) but must be \(range)")
    }
    static func badLength(_ attribute: String, _ text: String, allowFill: Bool) -> Self {
        .init(.invalidValue, "'\(attribute)' must be a length in points or a percentage\(allowFill ? " or 'fill'" : ""), not '\(text)'\(unitNote(text))")
    }
    static func badList(_ attribute: String, _ text: String, _ expected: String) -> Self {
        .init(.invalidValue, "'\(attribute)' must be \(expected), not '\(text)'")
    }
    static func badKeyword(_ attribute: String, _ text: String, choices: [String], suggestion: String?) -> Self {
        .init(.invalidValue, "'\(attribute)' must be one of \(choices.joined(separator: ", ")), not '\(text)'\(didYouMean(suggestion))", suggestion: suggestion)
    }
    /// `what`: "an app icon" (a scene's `asset`), "an ICNS file"…
    public static func appIconNotSquare(_ width: Double, _ height: Double, what: String = "an app icon") -> Self {
        .init(.appIconNotSquare, "\(what) must be square, not \(width.wholeNumberText)×\(height.wholeNumberText) points (every platform's icon sizes are squares)")
    }
    static func noSuchLayer(_ id: String, known: [String]) -> Self {
        let suggestion = Suggestion.nearest(to: id, in: known)
        return .init(.unknownReference, "no top-level element with id '\(id)' to render alone\(known.isEmpty ? " (the scene's top-level elements have no ids)" : didYouMean(suggestion))",
                     suggestion: suggestion)
    }
    static func badBool(_ attribute: String, _ text: String) -> Self {
        .init(.invalidValue, "'\(attribute)' must be true or false, not '\(text)'")
    }
    static func badPaint(_ text: String) -> Self {
        .init(.invalidColor, "'\(text)' is not a paint (expected none, a colour, or url(#id))")
    }
    static func unexpectedText(in element: String) -> Self {
        .init(.misplacedElement, "unexpected text inside <\(element)>")
    }
    static func rootMustBeScene(_ name: String) -> Self {
        .init(.notAScene, "the root element must be <scene>, not <\(name)>")
    }
    static func duplicateID(_ id: String, first: SourceLocation) -> Self {
        .init(.duplicateName, "duplicate id '\(id)' (first used at \(first.line):\(first.column))")
    }
    static func unknownPaintServer(_ id: String, suggestion: String?) -> Self {
        .init(.unknownReference, "no gradient or pattern with id '\(id)' in <defs>\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func unknownClipPath(_ id: String, suggestion: String?) -> Self {
        .init(.unknownReference, "no <clipPath> with id '\(id)' in <defs>\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func referencesTooDeep(_ limit: Int) -> Self {
        .init(.inputTooLarge, "references chained more than \(limit) deep (a clip path clipped by a clip path, a pattern filled with a pattern, and so on)")
    }
    static func referenceCycle(_ chain: [String]) -> Self {
        .init(.referenceCycle, "reference cycle: \(chain.map { "#\($0)" }.joined(separator: " → "))")
    }
    static func gradientNeedsStops(_ id: String) -> Self {
        .init(.missingPart, "gradient '\(id)' needs at least one <stop>")
    }
    static let linearGeometryConflict = Self(.conflictingAttributes, "<linearGradient> takes exactly one of 'angle', 'direction', or 'start' and 'end'")
    static let startNeedsEnd = Self(.conflictingAttributes, "'start' and 'end' go together on <linearGradient>")
    static func badPoint(_ attribute: String, _ text: String) -> Self {
        .init(.invalidValue, "'\(attribute)' must be two numbers 'u v', not '\(text)'")
    }
    static func mustBePositive(_ attribute: String, _ text: String) -> Self {
        .init(.invalidValue, "'\(attribute)' is \(text) but must be greater than 0")
    }
    static func badFontWeight(_ text: String, suggestion: String?) -> Self {
        .init(.invalidValue, "'font-weight' must be a number from 1 to 1000 or one of \(FontWeightName.allCases.map(\.rawValue).joined(separator: ", ")), not '\(text)'\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func percentInFittingStack(_ attribute: String, stack: String) -> Self {
        .init(.conflictingAttributes, "'\(attribute)' is a percentage, but the enclosing <\(stack)> sizes itself to its children along that axis; give the stack a size or use points")
    }
    static let textNeedsContent = Self(.missingPart, "<text> has no text")
    static let graphNeedsData = Self(.missingPart, "<lineGraph> needs data: 'values', <point> children, or 'src' with 'column'")
    static let graphTooManySources = Self(.conflictingAttributes, "<lineGraph> takes one data source: 'values', <point> children, or 'src'")
    static let graphEmpty = Self(.invalidData, "the series is empty")
    static func notANumberInList(_ token: String, _ attribute: String) -> Self {
        .init(.invalidValue, "'\(token)' in '\(attribute)' is not a number")
    }
    static func labelCount(_ labels: Int, _ values: Int) -> Self {
        .init(.invalidValue, "'labels' names \(labels) point\(labels == 1 ? "" : "s") but there \(values == 1 ? "is" : "are") \(values) value\(values == 1 ? "" : "s")")
    }
    static func minAboveMax(_ min: Double, _ max: Double) -> Self {
        .init(.conflictingAttributes, "'min' (\(GraphStatistics.shortest(min))) is greater than 'max' (\(GraphStatistics.shortest(max)))")
    }
    static func csvMissingColumn(_ name: String, available: [String], suggestion: String?) -> Self {
        .init(.invalidData, "the CSV has no column '\(name)' (its columns: \(available.joined(separator: ", ")))\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func tooManyStops(_ limit: Int) -> Self {
        .init(.inputTooLarge, "a gradient may have at most \(limit) stops")
    }
    static func tooManyAxes(_ limit: Int) -> Self {
        .init(.inputTooLarge, "'font-variation' may set at most \(limit) axes")
    }
    static let csvNoHeader = Self(.invalidData, "the CSV file has no header row")
    static func csvUnread(_ reason: String) -> Self {
        .init(.invalidData, "libcsv could not read the CSV file: \(reason)")
    }
    static func csvRowTooLong(_ limit: Int) -> Self {
        .init(.inputTooLarge, "this row of the CSV file is more than \(limit) bytes long, the most a row may hold (a table's rows are far shorter: is this the right file?)")
    }
    static func csvFieldTooLong(_ limit: Int) -> Self {
        .init(.inputTooLarge, "a field in this row of the CSV file is more than \(limit) bytes long, the most a field may hold")
    }
    static func csvRagged(_ got: Int, _ want: Int) -> Self {
        .init(.invalidData, "this row has \(got) field\(got == 1 ? "" : "s") but the header has \(want)")
    }
    static func csvNotANumber(_ text: String, _ column: String) -> Self {
        .init(.invalidData, "'\(text)' in column '\(column)' is not a number")
    }
    static func unknownPlaceholder(_ name: String, suggestion: String?) -> Self {
        .init(.invalidValue, "unknown placeholder {\(name)} (expected {max}, {min}, {average}, {sum}, {count} or {last})\(didYouMean(suggestion.map { "{\($0)}" }))", suggestion: suggestion.map { "{\($0)}" })
    }
    static func badFormat(_ text: String) -> Self {
        .init(.invalidValue, "'format' must be one printf number conversion such as %.1f, %g or %e, not '\(text)'")
    }
    static let badVersion = Self(.notAScene, "this Easel reads version 1 scenes")
    static func tooManyNodes(_ count: Double, _ limit: Int) -> Self {
        .init(.inputTooLarge, "the scene paints \(count.wholeNumberText) nodes after expanding repeats, more than the limit of \(limit) (raise it with --max-nodes)")
    }
    static func tooManyPixels(_ w: Double, _ h: Double, _ limit: Int) -> Self {
        .init(.outputTooLarge, "the output would be \(w.wholeNumberText)×\(h.wholeNumberText) pixels, more than the limit of \(limit) (raise it with --max-pixels)")
    }
    static func sideTooLong(_ w: Double, _ h: Double) -> Self {
        .init(.outputTooLarge, "the output would be \(w.wholeNumberText)×\(h.wholeNumberText) pixels; Cairo draws at most 32767 pixels on a side")
    }
    static func tooDeep(_ limit: Int) -> Self {
        .init(.inputTooLarge, "elements are nested more than \(limit) deep (raise the limit with --max-depth)")
    }
}
