import Easel
import Foundation

/// One fuzz input: any bytes as a scene, through parse, layout and a small
/// raster render. Limits are lowered so each input runs in milliseconds;
/// nothing is written.
func easelFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = [UInt8](UnsafeBufferPointer(start: data, count: size))
    var options = Easel.Options()
    options.limits.maxPixels = 250_000
    options.limits.maxNodes = 20_000
    options.limits.maxFileSize = 1 << 20
    let source = String(decoding: bytes, as: UTF8.self)
    if case .success(let scene) = Easel.compile(source: source, file: "fuzz.scene.xml",
                                                 baseDirectory: URL(fileURLWithPath: "/nonexistent-easel-fuzz"),
                                                 options: options) {
        _ = try? scene.renderImage()
        _ = scene.layoutJSON()
    }
    return 0
}
