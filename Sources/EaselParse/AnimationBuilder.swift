import EaselModel

extension Diagnostic.Message {
    static func animationNeedsKeyframes(_ id: String, _ count: Int) -> Self {
        .init(.missingPart, "<animatedGradient> '\(id)' needs two or more keyframe gradients, not \(count)")
    }
    static func badTiming(_ text: String, suggestion: String?) -> Self {
        .init(.invalidValue, "'timing' must be linear, ease-in, ease-out, ease-in-out, cubic-bezier(x1, y1, x2, y2) or steps(n), not '\(text)'"
              + didYouMean(suggestion), suggestion: suggestion)
    }
    static func badCubicBezier(_ text: String) -> Self {
        .init(.invalidValue, "'\(text)' is not a valid cubic-bezier(): it takes four numbers, x1 and x2 from 0 to 1")
    }
    static func badSteps(_ text: String) -> Self {
        .init(.invalidValue, "'\(text)' is not a valid steps(): it takes one whole number, 1 or more")
    }
    static func badRepeat(_ text: String) -> Self {
        .init(.invalidValue, "'repeat' must be true, false or a whole number of passes (1 or more), not '\(text)'")
    }
}

/// `<animatedGradient>` (docs/format.md, "Animation"): keyframe
/// gradients, a duration per keyframe, a timing curve and a repeat.
extension SceneBuilder {
    func buildAnimatedGradient(_ el: XMLElement, id: String) -> AnimatedGradient {
        var keyframes: [PaintServer] = []
        for (i, child) in el.children.enumerated() {
            guard Vocabulary.gradients.contains(child.name) else {
                reportMisplaced(child, parent: "animatedGradient", expected: Vocabulary.gradients)
                continue
            }
            // A keyframe's own id, if any, only names it in messages: a
            // keyframe cannot be painted with on its own.
            keyframes.append(paintServer(child, id: child.attribute("id")?.value ?? "\(id) keyframe \(i + 1)"))
        }
        if keyframes.count < 2 { diagnostics.error(.animationNeedsKeyframes(id, keyframes.count), at: el.location) }
        var duration = 1.0
        if required(el, "duration") != nil, let d = number(el, "duration") {
            if d > 0, d.isFinite { duration = d } else { rangeError(el, "duration", "greater than 0") }
        }
        var clock = AnimationClock(keyframes: Swift.max(keyframes.count, 2), duration: duration)
        if let a = el.attribute("timing"), let t = timingFunction(a) { clock.timing = t }
        if let a = el.attribute("repeat") {
            switch a.value.trimmingSpaces {
            case "true": clock.repeatMode = .forever
            case "false": clock.repeatMode = .times(1)
            case let v:
                if let n = ValueParser.number(v), n >= 1, n == n.rounded(), n <= 1_000_000 {
                    clock.repeatMode = .times(Int(n))
                } else {
                    diagnostics.error(.badRepeat(a.value), on: a)
                }
            }
        }
        return AnimatedGradient(keyframes: keyframes, clock: clock)
    }

    /// `linear`, `ease-in`, `ease-out`, `ease-in-out`, or CSS's
    /// `cubic-bezier(x1, y1, x2, y2)` and `steps(n)`.
    func timingFunction(_ a: XMLAttribute) -> TimingFunction? {
        let text = a.value.trimmingSpaces
        let named: [String: TimingFunction] = ["linear": .linear, "ease-in": .easeIn, "ease-out": .easeOut,
                                               "ease-in-out": .easeInOut]
        if let t = named[text] { return t }
        func arguments(_ name: String) -> [Double]? {
            guard text.hasPrefix(name + "("), text.hasSuffix(")") else { return nil }
            return ValueParser.numberList(String(text.dropFirst(name.count + 1).dropLast()))
        }
        if text.hasPrefix("cubic-bezier(") {
            guard let v = arguments("cubic-bezier"), v.count == 4, (0...1).contains(v[0]), (0...1).contains(v[2]),
                  v.allSatisfy(\.isFinite) else {
                diagnostics.error(.badCubicBezier(a.value), on: a)
                return nil
            }
            return .cubicBezier(v[0], v[1], v[2], v[3])
        }
        if text.hasPrefix("steps(") {
            guard let v = arguments("steps"), v.count == 1, v[0] >= 1, v[0] == v[0].rounded(), v[0] <= 10_000 else {
                diagnostics.error(.badSteps(a.value), on: a)
                return nil
            }
            return .steps(Int(v[0]))
        }
        diagnostics.error(.badTiming(a.value, suggestion: Suggestion.nearest(to: text, in: named.keys)), on: a)
        return nil
    }
}
