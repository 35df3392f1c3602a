// swift-tools-version:6.0
import PackageDescription

// An app-side package whose `Icons` target holds scenes, not PNGs: the
// EaselPlugin renders them at build time and SwiftPM bundles the PNGs as
// the target's resources (Bundle.module).
let package = Package(
    name: "IconsExample",
    dependencies: [
        .package(name: "Easel", path: "../.."),   // this repository, whatever its folder is called
    ],
    targets: [
        .target(
            name: "Icons",
            // The CSV a scene reads and the fonts: inputs of the renders (the
            // plugin finds the CSV from the scene, the fonts from
            // easel-plugin.json), not resources of their own.
            exclude: ["data", "Fonts"],
            // The plugin's scales. A resource so that the plugin sees it
            // (excluded files are not shown to plugins); SwiftPM plans a
            // plugin's commands again only when the target's files or the
            // plugin change, so after editing it run `swift package clean`.
            resources: [.copy("easel-plugin.json")],
            plugins: [.plugin(name: "EaselPlugin", package: "Easel")]),
        .testTarget(name: "IconsTests", dependencies: ["Icons"]),
    ]
)
