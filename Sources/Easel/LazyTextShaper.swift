import EaselLayout
import EaselModel
import EaselParse
import EaselRender
import FoundationEssentials
/// Shapes with the compile's font set, made on first use; if it could not
/// be made, text measures nothing (the compile reports why and fails).
struct LazyTextShaper: TextMeasuring {
    let loader: FontSetLoader
    func measure(_ request: TextRequest) -> Size {
        measureCountingLayouts(request).size
    }
    func measureCountingLayouts(_ request: TextRequest) -> (size: Size, layouts: Int) {
        loader.fonts().map { TextShaper(fonts: $0).measureCountingLayouts(request) } ?? (.zero, 0)
    }
    func shape(_ request: TextRequest) -> ShapedText {
        loader.fonts().map { TextShaper(fonts: $0).shape(request) }
            ?? ShapedText(text: request.text, size: .zero, lineBounds: .zero, lines: [], runs: [])
    }
    func fitMeasure(_ request: TextRequest) -> TextFitMeasure {
        loader.fonts().map { TextShaper(fonts: $0).fitMeasure(request) }
            ?? TextFitMeasure(size: .zero, lineCount: 0, brokenWord: nil, fontSize: FontSpec.defaultSize)
    }
}
