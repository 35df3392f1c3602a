// swift-tools-version:6.0
import PackageDescription

// The pipeline, one module per stage (A ← B: B depends on A):
//   EaselModel ← EaselParse                   XML → Scene (libxml2, libcsv, json-glib)
//   EaselModel ← EaselLayout ← EaselRender    Scene → laid-out tree → render tree → Cairo/Pango
//   EaselParse, EaselRender ← Easel           the library: compile, render, build
//   Easel ← EaselCommandLine ← easel          the CLI; EaselPreview (the HTTP server) ← easel-preview
// Parsing and layout do not know each other: a Scene is all layout reads.
let package = Package(
    name: "Easel",
    products: [
        .library(name: "Easel", targets: ["Easel"]),
        .executable(name: "easel", targets: ["easel"]),
        // `easel preview` runs this program (so `easel` itself links no HTTP server).
        .executable(name: "easel-preview", targets: ["easel-preview"]),
        // Scenes in a target rendered to PNG resources at build time (see examples/swiftpm-plugin).
        .plugin(name: "EaselPlugin", targets: ["EaselPlugin"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        // `swift package generate-documentation --target Easel` (the DocC catalog in Sources/Easel/Easel.docc).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The live preview's HTTP server: small, async/await, no SwiftNIO (a
        // fraction of Hummingbird's build time); only `easel-preview` links it.
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.27.1"),
    ],
    targets: [
        .systemLibrary(
            name: "CLibXML2", path: "Sources/CLibXML2", pkgConfig: "libxml-2.0",
            providers: [.apt(["libxml2-dev"])]),
        .systemLibrary(
            name: "CCairo", path: "Sources/CCairo", pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]),
        .systemLibrary(
            name: "CPangoCairo", path: "Sources/CPangoCairo", pkgConfig: "pangocairo",
            providers: [.apt(["libpango1.0-dev"])]),
        // SHA-256 of the files a compile reads (GChecksum); GLib comes with Pango.
        .systemLibrary(
            name: "CGLib", path: "Sources/CGLib", pkgConfig: "glib-2.0",
            providers: [.apt(["libglib2.0-dev"])]),
        // The zlib stream and CRC-32s of Easel's PNG encoder (bench/png-encoders.c
        // measured it against Cairo's libpng writer and libspng).
        .systemLibrary(
            name: "CDeflate", path: "Sources/CDeflate", pkgConfig: "libdeflate",
            providers: [.apt(["libdeflate-dev"])]),
        // Dithered gradients in PNG output (DitheredGradient): the rasteriser
        // Cairo's image backend draws gradients with; it comes with Cairo.
        // RFC 4180 CSV for <lineGraph src> and <table>: a maintained C reader,
        // not string splitting (CSV.swift, used before, needs Foundation's ICU).
        // Debian's libcsv-dev has no pkg-config file; the module map links it.
        .systemLibrary(name: "CCSV", path: "Sources/CCSV", providers: [.apt(["libcsv-dev"])]),
        // String tables in JSON and String Catalogs: json-glib names a syntax
        // error's line and column (FoundationEssentials' JSONDecoder does not).
        .systemLibrary(
            name: "CJSONGLib", path: "Sources/CJSONGLib", pkgConfig: "json-glib-1.0",
            providers: [.apt(["libjson-glib-dev"])]),
        .systemLibrary(
            name: "CPixman", path: "Sources/CPixman", pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]),
        .target(name: "EaselModel"),
        .target(name: "EaselParse", dependencies: ["EaselModel", "CLibXML2", "CGLib", "CCSV", "CJSONGLib"]),
        .target(name: "EaselLayout", dependencies: ["EaselModel"]),
        .target(name: "EaselRender", dependencies: ["EaselModel", "EaselLayout", "CCairo", "CPangoCairo", "CDeflate", "CPixman"]),
        .target(name: "Easel", dependencies: ["EaselModel", "EaselParse", "EaselLayout", "EaselRender"]),
        // Options, messages and file watching shared by `easel` and `easel-preview`.
        .target(
            name: "EaselCommandLine",
            dependencies: ["Easel", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(
            name: "easel",
            dependencies: ["Easel", "EaselCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // The live preview: scenes re-rendered on save, pushed to a page by Server-Sent Events.
        .target(
            name: "EaselPreview",
            dependencies: ["Easel", "EaselCommandLine", .product(name: "FlyingFox", package: "FlyingFox")],
            // The page is compiled into the program: nothing is read from disk to serve it.
            resources: [.embedInCode("Page/index.html"), .embedInCode("Page/preview.js"), .embedInCode("Page/preview.css")]),
        .executableTarget(
            name: "easel-preview",
            dependencies: ["EaselPreview", "EaselCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // Runs this package's own easel executable (its tool dependency), not one from PATH.
        .plugin(name: "EaselPlugin", capability: .buildTool(), dependencies: ["easel"]),
        // libFuzzer target over parse + layout + render; see fuzz/run.
        .executableTarget(name: "EaselFuzz", dependencies: ["Easel"]),
        .executableTarget(name: "EaselSoak", dependencies: ["Easel"]),
        // Helpers shared by the test targets: scenes from strings, pixel
        // comparison, running external reference renderers.
        .target(name: "EaselTestSupport", dependencies: ["Easel", "EaselParse"], path: "Tests/EaselTestSupport"),
        .testTarget(name: "EaselModelTests", dependencies: ["EaselModel"]),
        .testTarget(name: "EaselParseTests", dependencies: ["Easel", "EaselParse", "EaselTestSupport"]),
        .testTarget(name: "EaselLayoutTests", dependencies: ["EaselLayout", "EaselParse", "EaselTestSupport"]),
        .testTarget(name: "EaselRenderTests", dependencies: ["Easel", "EaselParse", "EaselTestSupport"]),
        .testTarget(name: "EaselCLITests", dependencies: ["Easel", "EaselTestSupport"]),
        // The executable's own parsing (a testable executable target).
        .testTarget(name: "EaselCommandTests", dependencies: ["easel", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "EaselPreviewTests", dependencies: ["Easel", "EaselTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
