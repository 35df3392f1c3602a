// swift-tools-version:6.0
import PackageDescription

// The pipeline, one module per stage (A ← B: B depends on A):
//   EaselModel ← EaselParse                   XML → Scene (libxml2, libcsv, json-glib)
//   EaselModel ← EaselLayout ← EaselRender    Scene → geometry + render tree (one pass) → a backend per format:
//                                              raster and PDF painted with Cairo, SVG written from the tree
//   EaselParse, EaselRender ← Easel           the library: compile, render, build
//   Easel ← EaselCommandLine ← EaselCommands ← easel   the CLI; EaselPreview (the HTTP server) ← easel-preview
//   EaselCommands, BazelWorkerProtocol ← easel-worker  Bazel's persistent worker
// Parsing and layout do not know each other: a Scene is all layout reads.
let package = Package(
    name: "Easel",
    products: [
        .library(name: "Easel", targets: ["Easel"]),
        .executable(name: "easel", targets: ["easel"]),
        // `easel preview` runs this program (so `easel` itself links no HTTP server).
        .executable(name: "easel-preview", targets: ["easel-preview"]),
        // `easel worker --persistent_worker` runs this program (so `easel` links no protocol buffers).
        .executable(name: "easel-worker", targets: ["easel-worker"]),
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
        // swift-protobuf brings Foundation (BinaryDelimited.swift imports it),
        // which `easel` keeps out: only `easel-worker` links it.
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.39.0"),
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
        // Display P3 in PDF: Cairo's file read and written again by qpdf
        // (PDFColorSpace), which parses object and cross-reference streams.
        // Headers only: the library is loaded on first use (CLazyTextLibraries).
        .systemLibrary(name: "CQPDF", path: "Sources/CQPDF", providers: [.apt(["libqpdf-dev"])]),
        // SVG files as images (`<image href="logo.svg">`): librsvg draws them
        // into Easel's Cairo context, so PNG and PDF stay Cairo's. Loaded on
        // first use, as the text libraries are (CLazyTextLibraries).
        .systemLibrary(
            name: "CRsvg", path: "Sources/CRsvg", pkgConfig: "librsvg-2.0",
            providers: [.apt(["librsvg2-dev"])]),
        // WebP and AVIF output (`-o card.webp`, `-o card.avif`): libwebp and
        // its mux library (ICC profiles, animation), libavif with the AV1
        // encoder Debian builds it with. Loaded on first use, as librsvg is.
        .systemLibrary(
            name: "CWebP", path: "Sources/CWebP", pkgConfig: "libwebpmux",
            providers: [.apt(["libwebp-dev"])]),
        // No pkgConfig: libavif's adds -DAVIF_DLL, a flag SwiftPM refuses
        // (with a warning every build); the header is in /usr/include.
        .systemLibrary(name: "CAVIF", path: "Sources/CAVIF", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(
            name: "CPixman", path: "Sources/CPixman", pkgConfig: "pixman-1",
            providers: [.apt(["libpixman-1-dev"])]),
        .target(name: "EaselModel"),
        .target(name: "EaselParse", dependencies: ["EaselModel", "CLibXML2", "CGLib", "CCSV", "CJSONGLib"]),
        .target(name: "EaselLayout", dependencies: ["EaselModel"]),
        // Pixel loops whose float-to-integer conversions must be C's
        // unchecked ones (a gradient's spans, as pixman computes them).
        .target(name: "CGradientSpans", path: "Sources/CGradientSpans"),
        // glibc's mallinfo2, which Swift cannot call (a struct returned by value): the soak tests' heap figure.
        .target(name: "CMallocStatistics", path: "Sources/CMallocStatistics"),
        // glibc's syncfs (a GNU extension): a build's one flush of its outputs.
        .target(name: "CFileSystemSync", path: "Sources/CFileSystemSync"),
        .target(name: "EaselRender", dependencies: ["EaselModel", "EaselLayout", "CCairo", "CPangoCairo", "CDeflate", "CPixman", "CGradientSpans", "CQPDF", "CLibXML2", "CRsvg", "CWebP", "CAVIF"]),
        // Pango, HarfBuzz, GLib, json-glib and qpdf loaded on first use: each function
        // Easel calls, defined here with the library's prototype (generated by
        // scripts/lazy-text-stubs). scripts/lazy-link then takes them off the
        // installed binary's start-up list: a scene without text starts
        // without mapping them.
        .target(name: "CLazyTextLibraries", dependencies: ["CPangoCairo", "CJSONGLib", "CGLib", "CQPDF", "CRsvg", "CWebP", "CAVIF"]),
        .target(name: "Easel", dependencies: ["EaselModel", "EaselParse", "EaselLayout", "EaselRender", "CLazyTextLibraries", "CMallocStatistics", "CFileSystemSync"]),
        // Options, messages and file watching shared by `easel` and `easel-preview`.
        .target(
            name: "EaselCommandLine",
            dependencies: ["Easel", "EaselParse", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        // WorkRequest and WorkResponse, generated from the .proto beside them by
        // scripts/regenerate-worker-protocol and committed (a build runs no protoc).
        .target(
            name: "BazelWorkerProtocol",
            dependencies: [.product(name: "SwiftProtobuf", package: "swift-protobuf")],
            exclude: ["worker_protocol.proto"]),
        // The commands (render, build, check, layout, preview, worker), shared
        // by `easel` and `easel-worker`, which runs them per request.
        .target(
            name: "EaselCommands",
            dependencies: ["Easel", "EaselParse", "EaselCommandLine", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .executableTarget(name: "easel", dependencies: ["EaselCommands"]),
        // Bazel's persistent worker: WorkRequests in, the commands run in-process, WorkResponses out.
        .executableTarget(
            name: "easel-worker",
            dependencies: ["EaselCommands", "EaselCommandLine", "Easel", "BazelWorkerProtocol"]),
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
        // Three targets (fuzz/run TARGET): scenes, the worker's request stream, the preview's requests.
        .executableTarget(name: "EaselFuzz", dependencies: ["Easel", "EaselCommands", "EaselPreview", "BazelWorkerProtocol"]),
        .executableTarget(name: "EaselSoak", dependencies: ["Easel"]),
        // Helpers shared by the test targets: scenes from strings, pixel
        // comparison, running external reference renderers.
        .target(name: "EaselTestSupport", dependencies: ["Easel", "EaselParse"], path: "Tests/EaselTestSupport"),
        .testTarget(name: "EaselModelTests", dependencies: ["EaselModel"]),
        .testTarget(name: "EaselParseTests", dependencies: ["Easel", "EaselParse", "EaselTestSupport"]),
        .testTarget(name: "EaselLayoutTests", dependencies: ["EaselLayout", "EaselParse", "EaselTestSupport"]),
        .testTarget(name: "EaselRenderTests", dependencies: ["Easel", "EaselParse", "EaselRender", "EaselTestSupport"]),
        .testTarget(name: "EaselCLITests", dependencies: ["Easel", "EaselTestSupport"]),
        // The commands' own parsing.
        .testTarget(name: "EaselCommandTests", dependencies: ["EaselCommands", .product(name: "ArgumentParser", package: "swift-argument-parser")]),
        .testTarget(name: "EaselPreviewTests", dependencies: ["Easel", "EaselTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
