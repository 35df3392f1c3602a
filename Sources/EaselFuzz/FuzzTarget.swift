import BazelWorkerProtocol
import Easel
import EaselCommands
import EaselPreview
import Foundation

/// Which target a fuzzing process drives: `EASEL_FUZZ_TARGET` = `scene`
/// (the default), `worker` or `preview` (`fuzz/run SECONDS TARGET`).
let fuzzTarget = ProcessInfo.processInfo.environment["EASEL_FUZZ_TARGET"] ?? "scene"

func easelFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    let bytes = UnsafeBufferPointer(start: data, count: size)
    switch fuzzTarget {
    case "worker": fuzzWorkerStream(Array(bytes))
    case "preview": fuzzPreviewRequest(Array(bytes))
    default: return fuzzScene(data, size)
    }
    return 0
}

/// Any bytes as what Bazel sends a persistent worker: length-delimited
/// frames (`DelimitedMessageReader`, the worker's own reader), each decoded
/// as a WorkRequest by the generated code, its command line judged as the
/// worker judges it (`Worker.refusal`) and parsed as the worker would run
/// it — parsed only: a request's render writes files wherever it says.
func fuzzWorkerStream(_ bytes: [UInt8]) {
    var reader = DelimitedMessageReader(bytes: bytes)
    for _ in 0..<16 {
        guard case .message(let frame) = reader.next(),
              let request = try? Blaze_Worker_WorkRequest(serializedBytes: frame) else { return }
        guard !request.cancel, Worker.refusal(of: request.arguments) == nil else { continue }
        _ = try? EaselCommand.parseAsRoot(request.arguments)
    }
}

/// Any bytes as an HTTP request to the preview (`PreviewRequestFuzzing`).
func fuzzPreviewRequest(_ bytes: [UInt8]) {
    let done = DispatchSemaphore(value: 0)
    Task {
        await PreviewRequestFuzzing.respond(to: bytes)
        done.signal()
    }
    done.wait()
}

/// One fuzz input: any bytes as a scene, through parse, layout, a small
/// raster render and a VectorDrawable. Limits are lowered so each input runs in milliseconds;
/// nothing is written.
///
/// After a NUL byte come the command line's parameter surfaces, one per
/// NUL-separated part: `name=value` as `--set`, `dark` as `--appearance
/// dark`, `~name` as `--variant name`; and three files: `csv:` then the bytes
/// of `data.csv` beside the scene (a graph's `src="data.csv"` reads it),
/// `svg:` then the bytes of `logo.svg` beside it (an `<image
/// href="logo.svg">` draws it through librsvg), and `manifest:` then bytes
/// read as `easel build`'s manifest.
func fuzzScene(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let parts = UnsafeBufferPointer(start: data, count: size).split(separator: 0, omittingEmptySubsequences: false)
    var options = Easel.Options()
    options.limits.maxPixels = 250_000
    options.limits.maxNodes = 20_000
    options.limits.maxFileSize = 1 << 20
    var folder = URL(fileURLWithPath: "/nonexistent-easel-fuzz")
    for part in parts.dropFirst() {
        let text = String(decoding: part, as: UTF8.self)
        if part.starts(with: Array("csv:".utf8)) {
            folder = fuzzFolder
            try? Data(part.dropFirst(4)).write(to: folder.appendingPathComponent("data.csv"))
        } else if part.starts(with: Array("svg:".utf8)) {
            folder = fuzzFolder
            try? Data(part.dropFirst(4)).write(to: folder.appendingPathComponent("logo.svg"))
        } else if part.starts(with: Array("manifest:".utf8)) {
            _ = AssetBuild.manifestSceneCount(Array(part.dropFirst(9)))
        } else if text == "dark" {
            options.appearance = .dark
        } else if text.hasPrefix("~") {
            options.variant = String(text.dropFirst())
        } else if let eq = text.firstIndex(of: "=") {
            options.parameters[String(text[..<eq])] = ParameterSetting(String(text[text.index(after: eq)...]))
        }
    }
    let source = String(decoding: parts.first.map(Array.init) ?? [], as: UTF8.self)
    if case .success(let scene) = Easel.compile(source: source, file: "fuzz.scene.xml",
                                                 baseDirectory: folder,
                                                 options: options) {
        _ = try? scene.renderImage()
        _ = try? scene.layoutJSON()
        // The VectorDrawable writer walks the same tree its own way (dash
        // pieces, group decompositions, split path data, SVG images as shapes).
        _ = try? scene.renderVectorDrawable()
    }
    return 0
}

/// One folder per fuzzing process for the CSV an input carries.
let fuzzFolder: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("easel-fuzz-\(getpid())")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}()
