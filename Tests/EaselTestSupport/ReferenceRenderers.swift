import Easel
import Foundation
import XCTest

/// Independent renderers used as references: librsvg's `rsvg-convert` for
/// SVG, poppler's `pdftoppm` for PDF.
public enum ReferenceRenderers {
    /// Renders SVG text with rsvg-convert at 1 user unit = 1 pixel.
    public static func rsvg(_ svg: String, file: StaticString = #filePath, line: UInt = #line) throws -> RasterImage {
        let dir = ExternalTool.temporaryDirectory("rsvg")
        let input = dir.appendingPathComponent("in.svg"), output = dir.appendingPathComponent("out.png")
        try Data(svg.utf8).write(to: input)
        let r = try ExternalTool.run("rsvg-convert", ["-f", "png", "-o", output.path, input.path], file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try RasterImage(png: [UInt8](try Data(contentsOf: output)))
    }

    /// Renders SVG text with resvg at 1 user unit = 1 pixel.
    public static func resvg(_ svg: String, file: StaticString = #filePath, line: UInt = #line) throws -> RasterImage {
        let dir = ExternalTool.temporaryDirectory("resvg")
        let input = dir.appendingPathComponent("in.svg"), output = dir.appendingPathComponent("out.png")
        try Data(svg.utf8).write(to: input)
        let r = try ExternalTool.run("resvg", [input.path, output.path], file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try RasterImage(png: [UInt8](try Data(contentsOf: output)))
    }

    /// Renders the first page of a PDF with pdftoppm at 72 dpi (1 pt = 1 px).
    public static func poppler(_ pdf: [UInt8], file: StaticString = #filePath, line: UInt = #line) throws -> RasterImage {
        let dir = ExternalTool.temporaryDirectory("poppler")
        let input = dir.appendingPathComponent("in.pdf")
        try Data(pdf).write(to: input)
        let r = try ExternalTool.run("pdftoppm", ["-r", "72", "-png", "-singlefile", input.path,
                                                  dir.appendingPathComponent("page").path], file: file, line: line)
        XCTAssertEqual(r.status, 0, r.stderr, file: file, line: line)
        return try RasterImage(png: [UInt8](try Data(contentsOf: dir.appendingPathComponent("page.png"))))
    }
}

/// Asserts two renders agree: at most `maxFraction` of pixels may differ by
/// more than `tolerance` (0…255, premultiplied), since two rasterisers
/// anti-alias edges differently; saves both on failure.
public func assertSimilar(_ actual: RasterImage, _ reference: RasterImage, tolerance: Double, maxFraction: Double,
                          name: String, file: StaticString = #filePath, line: UInt = #line) {
    guard let diff = compare(actual, reference, tolerance: tolerance) else {
        return XCTFail("sizes differ: \(actual.width)×\(actual.height) vs \(reference.width)×\(reference.height)",
                       file: file, line: line)
    }
    if diff.fractionOver > maxFraction {
        let dir = saveArtifacts(name.filter { $0.isLetter || $0.isNumber },
                                ["actual.png": (try? actual.pngData()) ?? [], "reference.png": (try? reference.pngData()) ?? []])
        XCTFail("\(name): \(diff); images in \(dir.path)", file: file, line: line)
    }
}
