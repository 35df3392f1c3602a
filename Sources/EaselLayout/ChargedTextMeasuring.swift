import EaselModel

/// The text engine, charging the pass's budget for every call: text is
/// where layout spends its time. Once the budget is spent it shapes
/// nothing (an empty result), so the pass ends in time linear in the
/// nodes left. Lives for one pass, on one thread.
struct ChargedTextMeasuring: TextMeasuring, @unchecked Sendable {
    let base: TextMeasuring
    let context: LayoutContext

    private func charge(_ request: TextRequest) -> Bool {
        let characters = request.text.unicodeScalars.count
        let wrapping = request.wrapWidth == nil ? 0 : LayoutWork.wrapCost(of: request.text)
        guard context.charge(LayoutWork.textCall + Double(characters) * LayoutWork.perTextCharacter + wrapping) else { return false }
        context.work.textCalls += 1
        context.work.textCharacters += characters
        return true
    }
    /// The layouts past the first that a call made (cutting to `maxLines`
    /// lays the text out again about log2(length) times), each charged as
    /// a call of its own, after the fact: the engine bounds their number.
    private func chargeExtra(layouts: Int, _ request: TextRequest) {
        guard layouts > 1 else { return }
        let characters = request.text.unicodeScalars.count, extra = layouts - 1
        let wrapping = request.wrapWidth == nil ? 0 : LayoutWork.wrapCost(of: request.text)
        _ = context.charge(Double(extra) * (LayoutWork.textCall + Double(characters) * LayoutWork.perTextCharacter + wrapping))
        context.work.textCalls += extra
        context.work.textCharacters += extra * characters
    }
    func measure(_ request: TextRequest) -> Size {
        guard charge(request) else { return .zero }
        let (size, layouts) = base.measureCountingLayouts(request)
        chargeExtra(layouts: layouts, request)
        return size
    }
    func measureCountingLayouts(_ request: TextRequest) -> (size: Size, layouts: Int) {
        (measure(request), 1)
    }
    func shape(_ request: TextRequest) -> ShapedText {
        guard charge(request) else { return ShapedText(text: request.text, size: .zero, lineBounds: .zero, lines: [], runs: []) }
        let shaped = base.shape(request)
        chargeExtra(layouts: shaped.layouts, request)
        return shaped
    }
    func fitMeasure(_ request: TextRequest) -> TextFitMeasure {
        charge(request) ? base.fitMeasure(request) : TextFitMeasure(size: .zero, lineCount: 0, brokenWord: nil, fontSize: 0)
    }
}
