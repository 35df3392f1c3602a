import ArgumentParser
import Easel
import EaselParse
import FoundationEssentials

extension Appearance: ExpressibleByArgument {}
extension SceneColorSpace: ExpressibleByArgument {}

/// `--set`, `--set-file`, `--appearance` and `--color-space`, shared by the commands that compile.
public struct ParameterOptions: ParsableArguments, Sendable {
    public init() {}

    @Option(name: .customLong("set"), help: ArgumentHelp("A value for the scene's <param> NAME.", valueName: "name=value"))
    public var settings: [String] = []

    @Option(name: .customLong("set-file"), help: ArgumentHelp("A JSON object of parameter values ({\"accent\": \"#0a84ff\", \"radius\": 12}); --set wins over it.", valueName: "file"))
    public var settingsFile: String?

    @Option(help: "light, dark or tinted: which value of each palette colour every use of its name gets (tinted: a colour's tinted value, or the grey of its dark or light one).")
    public var appearance: Appearance = .light

    @Option(name: .customLong("color-space"), help: "srgb or display-p3: the space to paint and write in, over the scene's color-space (display-p3: tagged PNG/PDF/WebP/AVIF, color(display-p3 …) in SVG).")
    public var colorSpace: SceneColorSpace?

    public func validate() throws {
        for s in settings {
            guard let eq = s.firstIndex(of: "="), eq != s.startIndex else {
                throw ValidationError("--set takes NAME=VALUE, not '\(s)'")
            }
            if let (scalar, _) = CarriedText.firstNotAllowed(in: String(s[s.index(after: eq)...])) {
                throw Self.refusal(.characterNotAllowed(scalar, in: "--set \(s[..<eq])"))
            }
        }
        for (name, setting) in try fileSettings().sorted(by: { $0.key < $1.key }) {
            if let (scalar, _) = CarriedText.firstNotAllowed(in: setting.value) {
                throw Self.refusal(.characterNotAllowed(scalar, in: "'\(settingsFile ?? "")': the value of '\(name)'"))
            }
        }
    }

    /// A command-line mistake said as the diagnostic it is, with its code.
    private static func refusal(_ message: Diagnostic.Message) -> ValidationError {
        ValidationError("\(message.text) [\(message.code.code(.error))]")
    }

    /// The values of `--set-file`, each named as coming from that file.
    private func fileSettings() throws -> [String: ParameterSetting] {
        guard let settingsFile else { return [:] }
        // Bounded as every input is (`/dev/zero` would otherwise be read forever).
        let data: Data
        switch FileBytes.read(settingsFile, limit: Limits().maxFileSize) {
        case .success(let bytes): data = Data(bytes)
        case .failure(.tooLarge(let size)):
            throw ValidationError("the parameter file '\(settingsFile)' is \(size) bytes or more, more than \(Limits().maxFileSize)")
        case .failure:
            throw ValidationError("cannot read the parameter file '\(settingsFile)'")
        }
        guard let object = (try? JSONDecoder().decode(JSONValue.self, from: data))?.object else {
            throw ValidationError("'\(settingsFile)' must hold one JSON object of parameter values, {\"name\": \"value\", …}")
        }
        var out: [String: ParameterSetting] = [:]
        for (name, value) in object {
            guard let text = value.scalarText else {
                throw ValidationError("'\(settingsFile)': the value of '\(name)' must be a string or a number")
            }
            out[name] = ParameterSetting(text, from: .file(settingsFile))
        }
        return out
    }

    /// The parameter file, as a depfile input (its values decide the outputs).
    public var inputFiles: [String] {
        settingsFile.map { [URL(fileURLWithPath: $0).standardizedFileURL.resolvingSymlinksInPath().path] } ?? []
    }

    /// `options` with these values (a file's first, then each `--set`).
    public func applied(to options: Easel.Options) throws -> Easel.Options {
        var options = options
        var values = try fileSettings()
        for s in settings {
            let eq = s.firstIndex(of: "=")!
            values[String(s[..<eq])] = ParameterSetting(String(s[s.index(after: eq)...]), from: .commandLine)
        }
        options.parameters = values
        options.appearance = appearance
        options.colorSpace = colorSpace ?? options.colorSpace
        return options
    }
}
