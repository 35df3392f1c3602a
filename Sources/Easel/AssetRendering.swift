import EaselParse
import FoundationEssentials

extension AssetBuild {
    /// The scene as compiled for itself or for one of its variants, in a
    /// locale or none; `compiled` is nil for a locale whose files are kept.
    struct Rendering: Sendable {
        var variant: SceneVariant?
        var locale: String?
        var compiled: CompiledScene?
        /// `<scene asset="app-icon">`.
        var isAppIcon = false
        /// An Android app icon's adaptive layers, by id
        /// (`AndroidResources.adaptiveLayers`): compiled into `layers`.
        var adaptiveLayers: [String] = []
        /// Bytes rendered ahead, on the locale's worker, by format and scale.
        var rendered: [String: [UInt8]] = [:]
        /// An Android app icon's adaptive layers, each compiled alone, by id.
        var layers: [String: CompiledScene] = [:]
        /// The monochrome layer is the foreground's coverage (`--android-monochrome auto`).
        var derivedMonochrome = false
        /// With `--android-vectors`, the VectorDrawables made of the scene
        /// and of an app icon's adaptive layers (by id), and why the others
        /// could not be (warnings at the element that stopped them).
        var vector: [UInt8]?
        var layerVectors: [String: [UInt8]] = [:]
        var vectorFallbacks: [Diagnostic] = []
        /// With `--icon-composer`, an app icon's bundle (the scene's own
        /// rendering holds it): its files, relative to `NAME.icon/`; before
        /// anything is compiled, the files it may have (`plan`).
        var iconComposerFiles: [(path: String, bytes: [UInt8])]?
        var iconComposerCandidates: [String] = []
        /// The scene compiled in Display P3 for a catalog's P3 slot
        /// (`--display-gamut both`).
        var displayP3: CompiledScene?
        /// `dark` in file names (`card~dark.png`), nil for the scene itself.
        var variantName: String? { variant?.name }

        /// How messages name this rendering beside its scene: nil for the
        /// scene itself, else `variant dark`, `locale de` or both.
        var producer: String? {
            let parts = [variantName.map { "variant \($0)" }, locale.map { "locale \($0)" }].compactMap { $0 }
            return parts.isEmpty ? nil : parts.joined(separator: ", ")
        }

        static func key(_ format: OutputFormat, _ scale: Double?) -> String { "\(format.rawValue)@\(scale ?? 0)" }

        /// Renders every format and scale the build writes.
        mutating func prerender(_ options: Options) throws {
            if options.android, options.androidVectors { return prerenderVectors() }
            // Icons and Android resources are rendered at their own sizes as their files are made.
            guard let compiled, !options.android, !(options.xcassets && compiled.scene.asset == .appIcon) else { return }
            let pdfOnly = options.xcassets && options.formats.contains(.pdf)
            for format in options.formats where !pdfOnly || format == .pdf {
                if format.isRaster {
                    for s in options.pngScales { rendered[Self.key(format, s)] = try compiled.render(format: format, scale: s, time: 0) }
                } else {
                    rendered[Self.key(format, nil)] = try compiled.render(format: format, time: options.xcassets ? 0 : nil)
                }
            }
        }

        /// The VectorDrawables of an Android build: the scene's, or an app
        /// icon's layers' (108 dp); each that fails is a warning, and PNGs.
        private mutating func prerenderVectors() {
            func attempt(_ make: () throws -> [UInt8]) -> [UInt8]? {
                do { return try make() } catch let error as DiagnosticsError {
                    if let first = error.diagnostics.first(where: { $0.severity == .error }) {
                        vectorFallbacks.append(Diagnostic(.warning, .drawnAsPNGs(first.message.text), at: first.location))
                    }
                } catch {
                    vectorFallbacks.append(Diagnostic(.warning, .drawnAsPNGs("\(error)"), at: nil))
                }
                return nil
            }
            if isAppIcon {
                for layer in adaptiveLayers {
                    guard let compiled = layers[layer] else { continue }
                    if let bytes = attempt({ try compiled.renderVectorDrawable(side: Double(AndroidResources.layerSize)) }) {
                        layerVectors[layer] = bytes
                    }
                }
            } else if let compiled {
                vector = attempt { try compiled.renderVectorDrawable() }
            }
        }

        func render(format: OutputFormat, scale: Double? = nil, time: Double? = nil) throws -> [UInt8]? {
            if let bytes = rendered[Self.key(format, format.isRaster ? scale : nil)] { return bytes }
            return try compiled?.render(format: format, scale: scale, time: time)
        }
    }
}
