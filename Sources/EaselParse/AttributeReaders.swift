import EaselModel

/// Typed attribute readers and structural checks: each reports a located
/// diagnostic and returns nil (or a default) so the builder keeps going.
extension SceneBuilder {
    func checkAttributes(_ el: XMLElement) {
        let allowed = Vocabulary.attributes[el.name] ?? []
        for a in el.attributes where !allowed.contains(a.name) {
            if diagnostics.isFull { return }
            diagnostics.error(.unknownAttribute(a.name, on: el.name, suggestion: Suggestion.nearest(to: a.name, in: allowed)),
                              at: a.location)
        }
    }

    func checkNoText(_ el: XMLElement) {
        if el.text.contains(where: { !$0.isWhitespace }) {
            diagnostics.error(.unexpectedText(in: el.name), at: el.location)
        }
    }

    func checkNoChildren(_ el: XMLElement) {
        for child in el.children { reportMisplaced(child, parent: el.name, expected: []) }
    }

    func reportMisplaced(_ el: XMLElement, parent: String, expected: Set<String>) {
        let known = Set(Vocabulary.attributes.keys)
        if Vocabulary.planned.contains(el.name) {
            diagnostics.error(.notYetSupported(el.name), at: el.location)
        } else if known.contains(el.name) {
            diagnostics.error(.misplacedElement(el.name, in: parent), at: el.location)
        } else {
            let candidates = expected.isEmpty ? known : expected
            diagnostics.error(.unknownElement(el.name, suggestion: Suggestion.nearest(to: el.name, in: candidates)), at: el.location)
        }
    }

    func registerID(_ el: XMLElement, required needed: Bool) -> String? {
        guard let a = el.attribute("id") else {
            if needed { diagnostics.error(.missingAttribute("id", on: el.name), at: el.location) }
            return nil
        }
        if let first = ids[a.value] {
            diagnostics.error(.duplicateID(a.value, first: first), on: a)
        } else {
            ids[a.value] = a.valueLocation
        }
        return a.value
    }

    func required(_ el: XMLElement, _ name: String) -> XMLAttribute? {
        guard let a = el.attribute(name) else {
            diagnostics.error(.missingAttribute(name, on: el.name), at: el.location)
            return nil
        }
        return a
    }

    func rangeError(_ el: XMLElement, _ name: String, _ range: String) {
        guard let a = el.attribute(name) else { return }
        diagnostics.error(.outOfRange(name, a.value, range), on: a)
    }

    func number(_ el: XMLElement, _ name: String) -> Double? {
        guard let a = el.attribute(name) else { return nil }
        guard let v = ValueParser.number(a.value) else {
            diagnostics.error(.badNumber(name, a.value), on: a)
            return nil
        }
        return v
    }

    func requiredNumber(_ el: XMLElement, _ name: String, positive: Bool) -> Double? {
        guard required(el, name) != nil, let v = number(el, name) else { return nil }
        if positive, v <= 0 { rangeError(el, name, "greater than 0"); return nil }
        return v
    }

    func length(_ el: XMLElement, _ name: String, allowFill: Bool = false) -> Length? {
        guard let a = el.attribute(name) else { return nil }
        guard let v = ValueParser.length(a.value, allowFill: allowFill) else {
            diagnostics.error(.badLength(name, a.value, allowFill: allowFill), on: a)
            return nil
        }
        if name == "width" || name == "height" {
            switch v {
            case .points(let p) where p < 0, .percent(let p) where p < 0:
                rangeError(el, name, "0 or more")
                return nil
            default: break
            }
        }
        return v
    }

    func bool(_ el: XMLElement, _ name: String) -> Bool? {
        guard let a = el.attribute(name) else { return nil }
        guard let v = ValueParser.bool(a.value) else {
            diagnostics.error(.badBool(name, a.value), on: a)
            return nil
        }
        return v
    }

    func color(_ el: XMLElement, _ name: String) -> Color? {
        guard let a = el.attribute(name) else { return nil }
        guard let c = ColorParser.parse(a.value, palette: palette) else {
            diagnostics.error(.badColor(a.value, suggestion: colorSuggestion(a.value)), on: a)
            return nil
        }
        noteGamut(c, a.value, a.valueLocation)
        return c
    }

    func colorSuggestion(_ text: String) -> String? {
        let t = text.trimmingSpaces
        guard t.allSatisfy({ $0.isLetter }) else { return nil }
        return Suggestion.nearest(to: t, in: NamedColors.names + Array(palette.keys) + ["transparent"])
    }

    func keyword<K: RawRepresentable & CaseIterable>(_ el: XMLElement, _ name: String, _: K.Type) -> K?
    where K.RawValue == String {
        guard let a = el.attribute(name) else { return nil }
        if let k = K(rawValue: a.value.trimmingSpaces) { return k }
        let choices = K.allCases.map(\.rawValue)
        diagnostics.error(.badKeyword(name, a.value, choices: choices, suggestion: Suggestion.nearest(to: a.value, in: choices)),
                          on: a)
        return nil
    }

    func transformValue(_ el: XMLElement, _ name: String) -> AffineTransform? {
        guard let a = el.attribute(name) else { return nil }
        switch TransformParser.parse(a.value) {
        case .success(let t): return t
        case .failure(let m):
            diagnostics.error(m, on: a)
            return nil
        }
    }

    func unitPoint(_ el: XMLElement, _ name: String) -> Point? {
        guard let a = el.attribute(name) else { return nil }
        guard let v = ValueParser.numberList(a.value), v.count == 2 else {
            diagnostics.error(.badPoint(name, a.value), on: a)
            return nil
        }
        return Point(v[0], v[1])
    }
}
