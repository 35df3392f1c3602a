import ArgumentParser
import Easel
import EaselParse
import FoundationEssentials

extension ParsableCommand {
    /// The contract's exit status for what parsing or running threw: an
    /// `ExitCode` as it is (1: the scenes' errors were already printed);
    /// help and version printed, 0; everything ArgumentParser rejects printed
    /// to stderr, 2 (not ArgumentParser's 64).
    public static func exitStatus(for error: any Error, arguments: [String] = []) -> Int32 {
        if let exit = error as? ExitCode { return exit.rawValue }
        var message = fullMessage(for: error)
        if let suggestion = suggestedOption(for: message, arguments: arguments), let end = message.firstIndex(of: "\n") {
            message.insert(contentsOf: "; did you mean '\(suggestion)'?", at: end)
        } else if let command = suggestedCommand(for: message, arguments: arguments), let end = message.firstIndex(of: "\n") {
            message.insert(contentsOf: "; did you mean the command '\(command)'?", at: end)
        }
        if exitCode(for: error) == .success {
            if !message.isEmpty { StandardStreams.output(message + "\n") }
            return 0
        }
        StandardStreams.error((message + "\n"))
        return 2
    }

    /// The nearest option the command has to an unknown one ArgumentParser
    /// names (`--colour-space` → `--color-space`), read off the command's
    /// own help: the subcommand the arguments start with, or this command.
    static func suggestedOption(for message: String, arguments: [String]) -> String? {
        // ArgumentParser suggests a near option itself where it parsed the option.
        guard !message.lowercased().contains("did you mean"),
              let start = message.firstRange(of: "nknown option '--"), let end = message[start.upperBound...].firstIndex(of: "'") else {
            return nil
        }
        let unknown = "--" + message[start.upperBound..<end]
        let command = configuration.subcommands.first { $0.configuration.commandName == arguments.first }
        let help = command.map { helpMessage(for: $0, columns: 1000) } ?? helpMessage(columns: 1000)
        let options = Set(help.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "-") })
            .filter { $0.hasPrefix("--") && $0.count > 2 }.map(String.init))
        return Suggestion.nearest(to: unknown, in: options.sorted())
    }

    /// The nearest command to a first argument that is none (`easel rendr
    /// x` → `render`), which ArgumentParser takes for stray arguments.
    static func suggestedCommand(for message: String, arguments: [String]) -> String? {
        let names = configuration.subcommands.compactMap { $0.configuration.commandName }
        guard let first = arguments.first, !first.hasPrefix("-"), !names.contains(first),
              message.contains("nexpected argument") else { return nil }
        return Suggestion.nearest(to: first, in: names)
    }
}

/// One rule for every command: 2 if the command line was at fault, 1 for
/// any other error, nil for none (0). Ctrl-C exits 130 (`EaselCommand`).
public func failureStatus(_ diagnostics: [Diagnostic]) -> ExitCode? {
    if diagnostics.contains(where: { $0.severity == .error && DiagnosticIndex.commandLineCodes.contains($0.message.code) }) { return ExitCode(2) }
    return diagnostics.contains(where: { $0.severity == .error }) ? ExitCode(1) : nil
}

public func failureStatus(_ sessions: [CompileSession]) -> ExitCode? {
    failureStatus(sessions.flatMap(\.diagnostics))
}
