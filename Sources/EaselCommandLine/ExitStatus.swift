import ArgumentParser
import Easel
import FoundationEssentials

extension ParsableCommand {
    /// The contract's exit status for what parsing or running threw: an
    /// `ExitCode` as it is (1: the scenes' errors were already printed);
    /// help and version printed, 0; everything ArgumentParser rejects printed
    /// to stderr, 2 (not ArgumentParser's 64).
    public static func exitStatus(for error: any Error) -> Int32 {
        if let exit = error as? ExitCode { return exit.rawValue }
        let message = fullMessage(for: error)
        if exitCode(for: error) == .success {
            if !message.isEmpty { StandardStreams.output(message + "\n") }
            return 0
        }
        StandardStreams.error((message + "\n"))
        return 2
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
