import ArgumentParser
import Easel
import Foundation

struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Render scenes to PNG, PDF or SVG.",
        discussion: "The output is written atomically: if anything fails, a previous file at that path is left as it was.")

    @Argument(help: "Scene files.")
    var inputs: [String]

    @Option(name: .shortAndLong, help: "Output file (one input).")
    var output: String?

    @Option(name: .customLong("out-dir"), help: "Output folder (any number of inputs).")
    var outDir: String?

    @Option(help: "Pixels per point for PNG output (overrides the scene's scale).")
    var scale: Double?

    @Option(help: "png, pdf or svg (default: the output's extension; png with --out-dir).")
    var format: String?

    @OptionGroup var safety: SafetyOptions

    func validate() throws {
        if output == nil && outDir == nil { throw ValidationError("give an output with -o FILE or --out-dir DIR") }
        if output != nil && outDir != nil { throw ValidationError("give either -o or --out-dir, not both") }
        if output != nil && inputs.count > 1 { throw ValidationError("several inputs need --out-dir DIR") }
        if let format, OutputFormat(rawValue: format) == nil {
            throw ValidationError("--format must be png, pdf or svg, not '\(format)'")
        }
        if let output, format == nil, OutputFormat(fileExtension: URL(fileURLWithPath: output).pathExtension) == nil {
            throw ValidationError("cannot tell the format of '\(output)' from its extension; add --format png|pdf|svg")
        }
        if let scale, !(scale > 0 && scale <= 16) { throw ValidationError("--scale must be greater than 0 and at most 16") }
    }

    func run() throws {
        let options = safety.options(scale: scale)
        var failed = false
        for input in inputs {
            guard let compiled = compileReporting(input, options) else { failed = true; continue }
            let (url, fmt) = destination(for: input)
            do {
                try compiled.write(to: url, format: fmt)
            } catch {
                // Render errors that know their node are already located.
                let text = "\(error)"
                let line = text.contains(": error: ") ? text : "\(input): error: \(text)"
                FileHandle.standardError.write(Data((line + "\n").utf8))
                failed = true
            }
        }
        if failed { throw ExitCode(1) }
    }

    private func destination(for input: String) -> (URL, OutputFormat) {
        if let output {
            let url = URL(fileURLWithPath: output)
            return (url, format.flatMap(OutputFormat.init(rawValue:)) ?? OutputFormat(fileExtension: url.pathExtension)!)
        }
        let fmt = format.flatMap(OutputFormat.init(rawValue:)) ?? .png
        var name = URL(fileURLWithPath: input).lastPathComponent
        for suffix in [".scene.xml", ".xml"] where name.hasSuffix(suffix) {
            name.removeLast(suffix.count)
            break
        }
        return (URL(fileURLWithPath: outDir!).appendingPathComponent(name + "." + fmt.rawValue), fmt)
    }
}

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Parse, validate and lay out scenes without writing anything.")

    @Argument(help: "Scene files.")
    var inputs: [String]

    @OptionGroup var safety: SafetyOptions

    func run() throws {
        let options = safety.options()
        let failures = inputs.filter { compileReporting($0, options) == nil }
        if !failures.isEmpty { throw ExitCode(1) }
    }
}

struct Layout: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the laid-out tree as JSON: element, id, line and frame (scene points, before transforms) of every node.")

    @Argument(help: "A scene file.")
    var input: String

    @OptionGroup var safety: SafetyOptions

    func run() throws {
        guard let compiled = compileReporting(input, safety.options()) else { throw ExitCode(1) }
        print(compiled.layoutJSON())
    }
}
