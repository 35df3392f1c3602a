import Easel
import Foundation
import XCTest

extension RasterImage.Pixel {
    /// Premultiplied channels in 0…255, the space in which two renders of
    /// the same picture are comparable regardless of how alpha was stored.
    public var premultiplied: [Double] {
        let a = Double(self.a) / 255
        return [Double(r) * a, Double(g) * a, Double(b) * a, Double(self.a)]
    }

    public func distance(to other: RasterImage.Pixel) -> Double {
        premultipliedDistance(r, g, b, a, other.r, other.g, other.b, other.a)
    }
}

/// The largest channel difference of two straight-alpha pixels once
/// premultiplied (`Pixel.distance`), without an array per pixel: the
/// comparisons below run over millions of pixels in debug and sanitizer
/// builds.
@inline(__always)
func premultipliedDistance(_ r0: UInt8, _ g0: UInt8, _ b0: UInt8, _ a0: UInt8,
                           _ r1: UInt8, _ g1: UInt8, _ b1: UInt8, _ a1: UInt8) -> Double {
    let s0 = Double(a0) / 255, s1 = Double(a1) / 255
    let dr = abs(Double(r0) * s0 - Double(r1) * s1), dg = abs(Double(g0) * s0 - Double(g1) * s1)
    let db = abs(Double(b0) * s0 - Double(b1) * s1), da = abs(Double(a0) - Double(a1))
    return max(max(dr, dg), max(db, da))
}

/// A colour the test computed, in 0…1 straight alpha.
public struct ExpectedColor {
    public var r, g, b, a: Double
    public init(_ r: Double, _ g: Double, _ b: Double, _ a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }
    public init(_ c: Color) { self.init(c.red, c.green, c.blue, c.alpha) }
    /// `#rrggbb` read here, not through Easel's colour parser.
    public init(hex: String) {
        let v = Int(hex.dropFirst(), radix: 16)!
        self.init(Double(v >> 16 & 255) / 255, Double(v >> 8 & 255) / 255, Double(v & 255) / 255)
    }
    public var pixel: RasterImage.Pixel {
        func q(_ v: Double) -> UInt8 { UInt8(max(0, min(255, (v * 255).rounded()))) }
        return RasterImage.Pixel(r: q(r), g: q(g), b: q(b), a: q(a))
    }
}

public func assertPixel(_ image: RasterImage, _ x: Int, _ y: Int, _ expected: ExpectedColor, tolerance: Double,
                        _ message: String = "", file: StaticString = #filePath, line: UInt = #line) {
    let got = image.pixel(x, y)
    let d = got.distance(to: expected.pixel)
    XCTAssertLessThanOrEqual(d, tolerance, "pixel (\(x), \(y)) is \(got), expected \(expected.pixel) \(message)",
                             file: file, line: line)
}

/// How two images of the same size differ.
public struct ImageDifference: CustomStringConvertible {
    public var maxDifference: Double
    /// Share of pixels whose largest channel difference exceeds the tolerance.
    public var fractionOver: Double
    public var worst: (x: Int, y: Int)
    public var description: String {
        "max channel difference \(maxDifference) at \(worst), \(String(format: "%.3f", fractionOver * 100))% of pixels over tolerance"
    }
}

public func compare(_ a: RasterImage, _ b: RasterImage, tolerance: Double) -> ImageDifference? {
    guard a.width == b.width, a.height == b.height else { return nil }
    var maxD = 0.0, over = 0, worst = (0, 0)
    a.rgba.withUnsafeBufferPointer { p in
        b.rgba.withUnsafeBufferPointer { q in
            for y in 0..<a.height {
                for x in 0..<a.width {
                    let i = (y * a.width + x) * 4
                    let d = premultipliedDistance(p[i], p[i + 1], p[i + 2], p[i + 3], q[i], q[i + 1], q[i + 2], q[i + 3])
                    if d > maxD { maxD = d; worst = (x, y) }
                    if d > tolerance { over += 1 }
                }
            }
        }
    }
    return ImageDifference(maxDifference: maxD, fractionOver: Double(over) / Double(a.width * a.height), worst: worst)
}

/// Writes both images and the scene to an artifacts folder when a
/// comparison fails, so the failure can be looked at.
public func saveArtifacts(_ name: String, _ files: [String: [UInt8]]) -> URL {
    let dir = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("easel-test-artifacts/\(name)")
    try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    for (file, bytes) in files { try? Data(bytes).write(to: dir.appendingPathComponent(file)) }
    return dir
}

/// A failing picture test's scene and images (PNG), saved for a reader:
/// the folder's path.
public func saveImageArtifacts(_ name: String, scene: String, _ images: [String: RasterImage]) throws -> String {
    var files = ["scene.xml": Array(scene.utf8)]
    for (file, image) in images { files[file] = try image.pngData() }
    return saveArtifacts(name, files).path
}

extension RasterImage {
    /// For a picture drawn through a mask under a circular clip path:
    /// the pixels beyond the circle's edge that are not white, and, within
    /// 1.5 pixels of the edge, the reference's pixels put in place of
    /// this image's (there a pixel shows the mask's coverage times the
    /// clip's, as Cairo composites any group, not the area of their
    /// intersection that a supersampled reference shows).
    public mutating func takeClipEdge(centre: (x: Double, y: Double), radius: Double, from reference: RasterImage) -> [(Int, Int)] {
        var paintedOutside: [(Int, Int)] = []
        for y in 0..<height {
            for x in 0..<width {
                let dx = Double(x) + 0.5 - centre.x, dy = Double(y) + 0.5 - centre.y
                let d = (dx * dx + dy * dy).squareRoot()
                if d > radius + 1.5, pixel(x, y) != RasterImage.Pixel(r: 255, g: 255, b: 255, a: 255) { paintedOutside.append((x, y)) }
                if abs(d - radius) < 1.5 {
                    let i = (y * width + x) * 4
                    rgba.replaceSubrange(i..<i + 4, with: reference.rgba[i..<i + 4])
                }
            }
        }
        return paintedOutside
    }
}

extension RasterImage {
    /// The mean of each `factor`×`factor` block (premultiplied, then
    /// straight again): what two renders of one picture share once their
    /// edges' anti-aliasing, which every rasteriser does its own way, is
    /// averaged out. A wrong fill, gradient or placement survives it.
    public func blockMeans(_ factor: Int) -> RasterImage {
        let w = width / factor, h = height / factor
        var out = [UInt8](repeating: 0, count: w * h * 4)
        // Sums in scalars, not an array per block and pixel: the 8× oracles
        // average millions of pixels in debug and sanitizer builds.
        rgba.withUnsafeBufferPointer { p in
            out.withUnsafeMutableBufferPointer { out in
                for by in 0..<h {
                    for bx in 0..<w {
                        var sr = 0.0, sg = 0.0, sb = 0.0, sa = 0.0
                        for y in (by * factor)..<((by + 1) * factor) {
                            for x in (bx * factor)..<((bx + 1) * factor) {
                                let j = (y * width + x) * 4
                                let s = Double(p[j + 3]) / 255
                                sr += Double(p[j]) * s; sg += Double(p[j + 1]) * s; sb += Double(p[j + 2]) * s
                                sa += Double(p[j + 3])
                            }
                        }
                        let n = Double(factor * factor), a = sa / n
                        let i = (by * w + bx) * 4
                        func channel(_ sum: Double) -> UInt8 { UInt8(max(0, min(255, (a > 0 ? sum / n * 255 / a : 0).rounded()))) }
                        out[i] = channel(sr); out[i + 1] = channel(sg); out[i + 2] = channel(sb)
                        out[i + 3] = UInt8(max(0, min(255, a.rounded())))
                    }
                }
            }
        }
        return RasterImage(width: w, height: h, rgba: out)
    }
}

extension RasterImage {
    /// The image over an opaque white page (what a browser shows it on).
    public func overWhite() -> RasterImage {
        var out = rgba
        for i in stride(from: 0, to: out.count, by: 4) {
            let a = Double(out[i + 3]) / 255
            for c in 0..<3 { out[i + c] = UInt8((Double(out[i + c]) * a + 255 * (1 - a)).rounded()) }
            out[i + 3] = 255
        }
        return RasterImage(width: width, height: height, rgba: out)
    }

    /// The top-left `width`×`height` pixels.
    public func cropped(width w: Int, height h: Int) -> RasterImage {
        var out: [UInt8] = []
        out.reserveCapacity(w * h * 4)
        for y in 0..<h { out += rgba[(y * width * 4)..<(y * width * 4 + w * 4)] }
        return RasterImage(width: w, height: h, rgba: out)
    }
}
