import EaselModel

extension Diagnostic.Message {
    static func undeclaredParameter(_ name: String, suggestion: String?, inGraphText: Bool) -> Self {
        let also = inGraphText ? " nor one of a graph's {max}, {min}, {average}, {sum}, {count}, {last}" : ""
        return .init(.undeclaredParameter, "{\(name)} is not a declared parameter\(also) (declare it with <param name=\"\(name)\" type=… default=…/> in <defs>; {{ and }} write braces)\(didYouMean(suggestion.map { "{\($0)}" }))", suggestion: suggestion.map { "{\($0)}" })
    }
    static func unknownParameterSetting(_ name: String, from origin: ParameterSetting.Origin, declared: [String], suggestion: String?) -> Self {
        let which = declared.isEmpty ? "it declares none" : "it declares \(declared.map { "'\($0)'" }.joined(separator: ", "))"
        // Named as the user gave it: a file's key is not a --set.
        let given = if case .file(let path) = origin { "--set-file \(path): '\(name)'" } else { "--set \(name)=…" }
        return .init(.unknownSetting, "\(given): the scene has no parameter '\(name)' (\(which))\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func unknownVariant(_ name: String, declared: [String], suggestion: String?) -> Self {
        let which = declared.isEmpty ? "it declares none" : "it declares \(declared.map { "'\($0)'" }.joined(separator: ", "))"
        return .init(.unknownSetting, "--variant \(name): the scene has no variant '\(name)' (\(which))\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func parameterValueTooLong(_ name: String, _ bytes: Int, _ limit: Int) -> Self {
        .init(.unknownSetting, "the value of parameter '\(name)' is \(bytes) bytes long, more than the limit of \(limit)")
    }
    static func badParameterValue(_ value: String, _ type: ParameterType) -> Self {
        let shown = value.count <= 60 ? value : String(value.prefix(57)) + "..."
        switch type {
        case .color: return .init(.invalidParameter, "'\(shown)' is not a colour")
        case .number: return .init(.invalidParameter, "'\(shown)' is not a number")
        case .length: return .init(.invalidParameter, "'\(shown)' is not a length (points, a percentage or 'fill')")
        case .angle: return .init(.invalidParameter, "'\(shown)' is not an angle (a number of degrees)")
        case .string: return .init(.invalidParameter, "'\(shown)' is not a string")
        }
    }
    static func badParameterName(_ attribute: String, _ text: String) -> Self {
        .init(.invalidParameter, "'\(attribute)' must be a letter or '_' followed by letters, digits, '_', '-' or '.', not '\(text)'")
    }
    static func reservedParameterName(_ name: String) -> Self {
        .init(.invalidParameter, "'\(name)' is one of a graph's statistics ({max}, {min}, {average}, {sum}, {count}, {last}) and cannot name a parameter")
    }
    static func duplicateName(_ what: String, _ name: String, first: SourceLocation) -> Self {
        .init(.duplicateName, "\(what) '\(name)' is declared twice (first at \(first.line):\(first.column))")
    }
    static func badVariantName(_ text: String) -> Self {
        .init(.invalidParameter, "a variant's 'name' becomes part of file names: letters, digits, '_' and '-' only, not '\(text)'")
    }
    static func badVariantSetting(_ text: String) -> Self {
        .init(.invalidParameter, "'set' must be name=value pairs separated by ';' (set=\"accent=#f00; title=Sale\"), not '\(text)'")
    }
    static func variantSetsUnknown(_ variant: String, _ name: String, suggestion: String?) -> Self {
        .init(.invalidParameter, "variant '\(variant)' sets '\(name)', but the scene has no parameter '\(name)'\(didYouMean(suggestion))", suggestion: suggestion)
    }
    static func missingString(_ key: String, locale: String, fallback: String?) -> Self {
        .init(.missingString, "the strings tables have no '\(locale)' value for '\(key)': \(fallback.map { "using the '\($0)' one" } ?? "using the parameter's default")")
    }
    static func parameterExpansionTooLarge(_ limit: Int) -> Self {
        .init(.inputTooLarge, "parameters make the scene more than \(limit) bytes larger (the input file limit; raise it with --max-file-size)")
    }
}

/// `<param>` and `<variant>`, and `{name}` written into the scene's values
/// (docs/format.md, "Parameters and appearances").
///
/// Substitution is textual and happens once, before any value is read: a
/// value that contains `{other}` is written as it is, never expanded again,
/// and every check after it sees the scene as the user would have written it
/// by hand. Each attribute remembers which parameters made it, so a message
/// about its value names the parameter and where its value came from.
extension SceneBuilder {
    func substituteParameters(_ root: XMLElement) -> XMLElement {
        let defs = root.children.filter { $0.name == "defs" }
        let paletteNames = Set(defs.flatMap(\.children).filter { $0.name == "color" }
            .compactMap { $0.attribute("name")?.value.trimmingSpaces })
        let check = ParameterTypeCheck(paletteNames: paletteNames)
        // One at a time: each is checked against those before it (by name,
        // a lookup: a scene can declare thousands).
        for el in defs.flatMap(\.children) where el.name == "param" {
            if let p = declaration(el, check) {
                parameterIndex[p.name] = parameters.count
                parameters.append(p)
            }
        }
        var variantIndex: [String: Int] = [:]
        for el in defs.flatMap(\.children) where el.name == "variant" {
            if let v = variant(el, check, firstOfName: { variantIndex[$0].map { variants[$0].location } }) {
                variantIndex[v.name] = variants.count
                variants.append(v)
            }
        }

        let declared = Dictionary(parameters.map { ($0.name, $0) }, uniquingKeysWith: { a, _ in a })
        var settings: [String: ParameterSetting] = [:]
        for (name, setting) in options.parameters.sorted(by: { $0.key < $1.key }) {
            guard declared[name] != nil else {
                if !options.ignoresUndeclaredParameters {
                    diagnostics.error(.unknownParameterSetting(name, from: setting.origin, declared: parameters.map(\.name),
                                                                          suggestion: Suggestion.nearest(to: name, in: Array(declared.keys))),
                                                 at: root.location)
                }
                continue
            }
            if setting.value.utf8.count > limits.maxParameterLength {
                diagnostics.error(.parameterValueTooLong(name, setting.value.utf8.count, limits.maxParameterLength),
                                             at: root.location)
                continue
            }
            settings[name] = setting
        }
        localize(&settings)
        if let name = options.variant {
            if let v = variantIndex[name].map({ variants[$0] }) {
                for s in v.settings where declared[s.name] != nil { settings[s.name] = ParameterSetting(s.value, from: .variant(name)) }
                if let a = v.appearance { appearance = a }
            } else {
                diagnostics.error(.unknownVariant(name, declared: variants.map(\.name),
                                                             suggestion: Suggestion.nearest(to: name, in: variants.map(\.name))),
                                             at: root.location)
            }
        }
        var substitution = Substitution(check: check)
        for k in parameters.indices {
            let p = parameters[k]
            let setting = settings[p.name] ?? ParameterSetting(p.defaultValue, from: .defaultValue)
            parameters[k].value = setting.value
            substitution.values[p.name] = (setting, p.type, check.isValid(setting.value, as: p.type))
        }
        let result = sourceHasBraces ? substituted(root, parent: nil, &substitution) ?? root : root
        // A wrong value nothing uses is still wrong: say so at its <param>.
        for p in parameters {
            guard let (setting, type, valid) = substitution.values[p.name], !valid, !substitution.used.contains(p.name),
                  setting.origin != .defaultValue else { continue }
            var message = Diagnostic.Message.badParameterValue(setting.value, type)
            message.text += ParameterUse.note([ParameterUse(name: p.name, setting: setting)])
            diagnostics.error(message, at: p.location)
        }
        return result
    }

    /// A `string` parameter named like a key of the string tables takes the
    /// locale's value, over `--set-file` but not over `--set` (a variant's
    /// `set` comes later and wins over both). A key the locale lacks falls
    /// back to the tables' source language, then to the default, with a
    /// warning at the `<param>`.
    private func localize(_ settings: inout [String: ParameterSetting]) {
        guard let strings = options.strings else { return }
        let keys = strings.keys
        guard let requested = options.locale else { return }
        // A pseudo-locale pseudo-translates the source language; with none, the defaults.
        if options.pseudoLocale != nil, strings.sourceLanguage == nil { return }
        let locale = strings.lookupLocale(for: requested)
        let file = strings.files.count == 1 ? String(strings.files[0].split(separator: "/").last ?? "") : "the strings tables"
        for p in parameters where p.type == .string && keys.contains(p.name) {
            if let s = settings[p.name], s.origin == .commandLine { continue }
            guard let found = strings.value(p.name, locale: locale) else {
                diagnostics.warning(.missingString(p.name, locale: locale, fallback: nil), at: p.location)
                continue
            }
            if found.value.utf8.count > limits.maxParameterLength {
                diagnostics.error(.parameterValueTooLong(p.name, found.value.utf8.count, limits.maxParameterLength), at: p.location)
                continue
            }
            if found.fellBack { diagnostics.warning(.missingString(p.name, locale: locale, fallback: found.locale), at: p.location) }
            settings[p.name] = ParameterSetting(found.value, from: .strings(file: file, locale: found.locale))
        }
    }

    /// The values to write, and what writing them has cost so far.
    struct Substitution {
        let check: ParameterTypeCheck
        var values: [String: (setting: ParameterSetting, type: ParameterType, valid: Bool)] = [:]
        var used: Set<String> = []
        /// Bytes the substitutions added to the scene; bounded by the file limit.
        var added = 0
        var overflowed = false
        var stopped = false
        /// Characters looked at past a brace, finding references.
        var examined = 0
        /// "Did you mean" for each undeclared name, found once: a search over
        /// every declared name, which a scene repeating a misspelt reference
        /// would otherwise pay for each time.
        var suggestions: [String: String?] = [:]

        mutating func suggestion(for name: String) -> String? {
            if let found = suggestions[name] { return found }
            let found = Suggestion.nearest(to: name, in: Array(values.keys))
            suggestions[name] = found
            return found
        }
    }

    /// nil when nothing in the element or below it changed (most of a
    /// scene, usually): the tree is then not copied.
    /// `graphSpan`: `source` is a span inside a graph's text, whose
    /// statistics placeholders the graph fills in.
    private func substituted(_ source: XMLElement, parent: String?, graphSpan: Bool = false,
                             _ state: inout Substitution) -> XMLElement? {
        // A declaration's own values are written as they are.
        if source.name == "param" || source.name == "variant" || state.stopped || diagnostics.isFull { return nil }
        var el = source
        var changed = false
        for k in el.attributes.indices {
            var uses: [ParameterUse] = [], undeclared: [String] = []
            guard let value = expand(el.attributes[k].value, graphText: false, &state, &uses, &undeclared) else { continue }
            el.attributes[k].value = value
            el.attributes[k].parameters = uses
            changed = true
            // Past the error limit nothing is printed: no suggestion is looked for.
            for name in undeclared where !diagnostics.isFull {
                diagnostics.error(.undeclaredParameter(name, suggestion: state.suggestion(for: name), inGraphText: false),
                                  on: el.attributes[k])
            }
            // The value's own check would only repeat what was said here.
            if reportWrongValues(uses, state, at: el.attributes[k].valueLocation, through: el.attributes[k].valueEnd)
                || !undeclared.isEmpty {
                el.attributes[k].parameterErrorReported = true
            }
        }
        // Each stretch of text between child elements (a text's spans) on its own.
        for piece in el.texts.indices where !el.texts[piece].isEmpty {
            let graphText = (el.name == "text" && parent == "lineGraph") || (el.name == "span" && graphSpan)
            var uses: [ParameterUse] = [], undeclared: [String] = []
            if let text = expand(el.texts[piece], graphText: graphText, &state, &uses, &undeclared) {
                el.texts[piece] = text
                changed = true
                for name in undeclared where !diagnostics.isFull {
                    diagnostics.error(.undeclaredParameter(name, suggestion: state.suggestion(for: name), inGraphText: graphText),
                                      at: el.location)
                }
                _ = reportWrongValues(uses, state, at: el.location, through: nil)
            }
        }
        if state.overflowed, !state.stopped {
            state.stopped = true
            diagnostics.error(.parameterExpansionTooLarge(limits.maxFileSize), at: el.location)
        }
        for k in source.children.indices {
            let inGraphText = (source.name == "text" && parent == "lineGraph") || (source.name == "span" && graphSpan)
            if let child = substituted(source.children[k], parent: source.name, graphSpan: inGraphText, &state) {
                el.children[k] = child
                changed = true
            }
        }
        return changed ? el : nil
    }

    /// Reports each wrong value among `uses` here; true if any was wrong (a
    /// wrong default was reported at its `<param>` already).
    private func reportWrongValues(_ uses: [ParameterUse], _ state: Substitution, at location: SourceLocation,
                                   through end: SourceLocation?) -> Bool {
        var any = false
        for use in uses {
            guard let entry = state.values[use.name], !entry.valid else { continue }
            any = true
            guard use.setting.origin != .defaultValue else { continue }
            var message = Diagnostic.Message.badParameterValue(use.setting.value, entry.type)
            message.text += ParameterUse.note([use])
            diagnostics.error(message, at: location, through: end)
        }
        return any
    }

    /// `text` with every `{name}` replaced and `{{`/`}}` made single; nil
    /// when it has no braces. A graph's text keeps its statistics and its
    /// doubled braces for the graph to fill in, and parameter values are
    /// written into it with their braces doubled, so they stay literal.
    private func expand(_ text: String, graphText: Bool, _ state: inout Substitution,
                        _ uses: inout [ParameterUse], _ undeclared: inout [String]) -> String? {
        guard text.utf8.contains(where: { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }) else { return nil }
        let scalars = Array(text.unicodeScalars)
        // Built as an array, made a string once: appending slices to a
        // String.UnicodeScalarView grew it by what each append needed, so
        // 200,000 references copied the text 200,000 times.
        var out: [Unicode.Scalar] = []
        out.reserveCapacity(scalars.count)
        func made() -> String { String(String.UnicodeScalarView(out)) }
        var i = 0
        while i < scalars.count {
            let c = scalars[i]
            let next: Unicode.Scalar? = i + 1 < scalars.count ? scalars[i + 1] : nil
            if (c == "{" || c == "}"), next == c {
                out.append(c)
                if graphText { out.append(c) }
                i += 2
                continue
            }
            if c == "{", let close = ParameterTypeCheck.referenceClose(in: scalars, openingAt: i, examined: &state.examined),
               case let name = String(String.UnicodeScalarView(scalars[(i + 1)..<close])) {
                if let entry = state.values[name] {
                    uses.append(ParameterUse(name: name, setting: entry.setting))
                    state.used.insert(name)
                    var value = entry.setting.value
                    if graphText { value = value.replacing("{", with: "{{").replacing("}", with: "}}") }
                    // Checked before writing: one attribute of 64 MB of
                    // references could otherwise grow without bound first.
                    guard state.added + value.utf8.count <= limits.maxFileSize else {
                        state.overflowed = true
                        return made()
                    }
                    out.append(contentsOf: value.unicodeScalars)
                    state.added += value.utf8.count
                } else {
                    if !(graphText && GraphStatistics.names.contains(name)) { undeclared.append(name) }
                    out.append(contentsOf: scalars[i...close])
                }
                i = close + 1
                continue
            }
            out.append(c)   // a lone brace stays as written
            i += 1
        }
        return made()
    }

    private func declaration(_ el: XMLElement, _ check: ParameterTypeCheck) -> ParameterDeclaration? {
        checkAttributes(el)
        checkNoText(el)
        checkNoChildren(el)
        let nameAttribute = required(el, "name"), typeAttribute = required(el, "type"), defaultAttribute = required(el, "default")
        guard let nameAttribute, typeAttribute != nil, let defaultAttribute else { return nil }
        let name = nameAttribute.value.trimmingSpaces
        guard ParameterTypeCheck.isName(name) else {
            diagnostics.error(.badParameterName("name", nameAttribute.value), on: nameAttribute)
            return nil
        }
        guard !GraphStatistics.names.contains(name) else {
            diagnostics.error(.reservedParameterName(name), on: nameAttribute)
            return nil
        }
        if let first = parameterIndex[name] {
            diagnostics.error(.duplicateName("parameter", name, first: parameters[first].location), on: nameAttribute)
            return nil
        }
        guard let type = keyword(el, "type", ParameterType.self) else { return nil }
        let value = ParameterTypeCheck.unescapingBraces(defaultAttribute.value)
        if value.utf8.count > limits.maxParameterLength {
            diagnostics.error(.parameterValueTooLong(name, value.utf8.count, limits.maxParameterLength), on: defaultAttribute)
        } else if !check.isValid(value, as: type) {
            var message = Diagnostic.Message.badParameterValue(value, type)
            message.text += " (the default of parameter '\(name)')"
            diagnostics.error(message, on: defaultAttribute)
        }
        return ParameterDeclaration(name: name, type: type, defaultValue: value, value: value, location: el.location)
    }

    /// `firstOfName`: where a variant of that name was declared before, if one was.
    private func variant(_ el: XMLElement, _ check: ParameterTypeCheck,
                         firstOfName: (String) -> SourceLocation?) -> SceneVariant? {
        checkAttributes(el)
        checkNoText(el)
        checkNoChildren(el)
        guard let nameAttribute = required(el, "name") else { return nil }
        let name = nameAttribute.value.trimmingSpaces
        guard !name.isEmpty, name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || $0 == "_" || $0 == "-") }) else {
            diagnostics.error(.badVariantName(nameAttribute.value), on: nameAttribute)
            return nil
        }
        if let first = firstOfName(name) {
            diagnostics.error(.duplicateName("variant", name, first: first), on: nameAttribute)
            return nil
        }
        let appearance = keyword(el, "appearance", Appearance.self)
        var settings: [SceneVariant.Assignment] = []
        if let set = el.attribute("set") {
            for part in set.value.split(separator: ";") where !String(part).trimmingSpaces.isEmpty {
                guard let eq = part.firstIndex(of: "=") else {
                    diagnostics.error(.badVariantSetting(set.value), on: set)
                    break
                }
                let key = String(part[..<eq]).trimmingSpaces
                let value = ParameterTypeCheck.unescapingBraces(String(part[part.index(after: eq)...]).trimmingSpaces)
                guard let p = parameterIndex[key].map({ parameters[$0] }) else {
                    diagnostics.error(.variantSetsUnknown(name, key, suggestion: Suggestion.nearest(to: key, in: parameters.map(\.name))), on: set)
                    continue
                }
                if value.utf8.count > limits.maxParameterLength {
                    diagnostics.error(.parameterValueTooLong(key, value.utf8.count, limits.maxParameterLength), on: set)
                } else if !check.isValid(value, as: p.type) {
                    var message = Diagnostic.Message.badParameterValue(value, p.type)
                    message.text += " (set by variant '\(name)' for parameter '\(key)')"
                    diagnostics.error(message, on: set)
                }
                settings.append(SceneVariant.Assignment(name: key, value: value))
            }
        }
        return SceneVariant(name: name, appearance: appearance, settings: settings, location: el.location)
    }
}

/// Whether a value is of a parameter's type, read as the attributes that
/// take that type read it.
struct ParameterTypeCheck {
    /// Palette names stand for colours too; their values are checked where declared.
    let paletteNames: Set<String>

    func isValid(_ value: String, as type: ParameterType) -> Bool {
        switch type {
        case .color:
            return paletteNames.contains(value.trimmingSpaces) || ColorParser.parse(value, palette: [:]) != nil
        case .number, .angle: return ValueParser.number(value) != nil
        case .length: return ValueParser.length(value, allowFill: true) != nil
        case .string: return true
        }
    }

    /// A value written in the scene (`default`, a variant's `set`): `{{` and
    /// `}}` are braces as in any attribute; `{name}` stays as written, since
    /// a value is never expanded.
    static func unescapingBraces(_ s: String) -> String {
        guard s.contains("{{") || s.contains("}}") else { return s }
        return s.replacing("{{", with: "{").replacing("}}", with: "}")
    }

    /// A letter or `_`, then letters, digits, `_`, `-` and `.` (ASCII).
    static func isName(_ s: String) -> Bool {
        guard let first = s.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || first == "_" else { return false }
        return s.unicodeScalars.allSatisfy(isNameCharacter)
    }

    /// The index of the `}` closing a reference `{name}` that opens at `i`,
    /// or nil for a lone brace. The scan stops at the first character a
    /// name cannot hold, so the braces of a value are never rescanned: a
    /// value costs one pass whatever it holds. `examined` counts the
    /// characters looked at.
    static func referenceClose(in scalars: [Unicode.Scalar], openingAt i: Int, examined: inout Int) -> Int? {
        var close = i + 1
        while close < scalars.count, isNameCharacter(scalars[close]) { close += 1 }
        examined += close - i
        guard close < scalars.count, scalars[close] == "}", close > i + 1 else { return nil }
        let first = scalars[i + 1]
        return first.properties.isAlphabetic || first == "_" ? close : nil
    }

    static func isNameCharacter(_ c: Unicode.Scalar) -> Bool {
        c.isASCII && (c.properties.isAlphabetic || ("0"..."9").contains(c) || c == "_" || c == "-" || c == ".")
    }
}
