import ArgumentParser
import Easel
import EaselCommandLine
import EaselPreview
import Foundation

/// `easel preview`, which runs this program with its own arguments.
@main
struct PreviewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "easel preview",
        abstract: "Serve a live preview of scenes: a page that re-renders them as you save.",
        version: Easel.version)

    @OptionGroup var options: PreviewOptions

    /// Exit status as `easel`'s: 2 when the command line was wrong, 1 when
    /// the server could not start, 130 after Ctrl-C (once the server has
    /// stopped), as every command.
    static func main() async {
        FontSystem.prepareProgram()
        let code: Int32
        do {
            let command = try parseAsRoot()
            // The one command; --help and --version throw from parseAsRoot.
            guard let preview = command as? PreviewCommand else { throw CleanExit.helpRequest(command) }
            try await preview.run()
            code = 0
        } catch {
            code = exitStatus(for: error)
        }
        Foundation.exit(code)
    }

    func run() async throws {
        if options.reportMissingScenes() { throw ExitCode(1) }
        // Ctrl-C is caught from here on: a signal that arrives while the
        // server starts, or just after the URL is printed, still stops it
        // cleanly.
        let interrupt = Interrupt()
        // Each render takes its scale from the page's settings (--scale first).
        var compile = try options.text.applied(to: options.parameters.applied(to: options.fonts.applied(to: options.safety.options())))
        compile.variant = options.variant
        let server: PreviewServer
        do {
            server = try PreviewServer(.init(scenes: options.scenes, host: options.host, port: UInt16(options.port),
                                             scale: options.scale, options: compile))
        } catch let failure as PreviewServer.Failure {
            throw ValidationError(failure.description)
        }
        if !options.isLoopback {
            say("easel preview: warning: listening on \(options.host), not loopback: anyone who can reach this machine can see these scenes", to: .standardError)
        }
        let url: String
        do {
            url = try await server.start()
        } catch {
            say("easel preview: error: \(error)", to: .standardError)
            throw ExitCode(1)
        }
        say("easel preview: \(url) (\(options.scenes.count) scene\(options.scenes.count == 1 ? "" : "s"); Ctrl-C stops)", to: .standardOutput)
        await interrupt.wait()
        await server.stop()
        say("easel preview: stopped", to: .standardOutput)
        throw ExitCode(130)
    }

    private func say(_ line: String, to handle: FileHandle) {
        handle.write(Data((line + "\n").utf8))
    }
}

/// SIGINT and SIGTERM, caught from the moment this is made: `wait()`
/// returns at once if one came before it was called.
private final class Interrupt: @unchecked Sendable {
    private let lock = NSLock()
    private var fired = false
    private var continuation: CheckedContinuation<Void, Never>?
    private var sources: [any DispatchSourceSignal] = []

    init() {
        // Made before the URL is printed, which is when anyone can know
        // the server is there to stop.
        for sig in [SIGINT, SIGTERM] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in self?.fire() }
            source.resume()
            sources.append(source)
        }
    }

    private func fire() {
        let waiting: CheckedContinuation<Void, Never>? = lock.withLock {
            fired = true
            defer { continuation = nil }
            return continuation
        }
        waiting?.resume()
    }

    func wait() async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            let now: Bool = lock.withLock {
                if fired { return true }
                continuation = done
                return false
            }
            if now { done.resume() }
        }
    }
}
