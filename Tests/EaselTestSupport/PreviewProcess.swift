import Foundation

/// `easel preview` running in the background for a test, on a port it chose.
public final class PreviewProcess {
    public let process = Process()
    public let port: Int
    public let url: String
    /// Its stdin and stderr: where a server run with `EASEL_TEST_PAUSE` says it is held, and is let go.
    public let channel = PauseChannel()

    /// Starts `easel preview ARGUMENTS --port PORT` (0: a free one) and waits
    /// for the URL it prints. `environment` is added to the test's own.
    public init(_ arguments: [String], port requested: Int = 0, in directory: URL? = nil,
                environment: [String: String] = [:], timeout: TimeInterval = EventWait.timeout) throws {
        process.executableURL = URL(fileURLWithPath: ExternalTool.easelExecutable)
        if let directory { process.currentDirectoryURL = directory }
        process.arguments = ["preview"] + arguments + ["--port", String(requested)]
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        let output = PipeLines()
        process.standardOutput = output.pipe
        process.standardError = channel.errors.pipe
        process.standardInput = channel.input
        try process.run()
        // The first line of stdout: "easel preview: http://127.0.0.1:PORT/ (…)".
        let text = output.waitForLine(timeout: timeout) { _ in true } ?? ""
        guard let start = text.range(of: "http://"), let end = text[start.upperBound...].firstIndex(of: " ") else {
            process.terminate()
            throw NSError(domain: "PreviewProcess", code: 1, userInfo: [NSLocalizedDescriptionKey: "no URL in '\(text)'"])
        }
        url = String(text[start.lowerBound..<end])
        let hostPort = url.dropFirst(7).prefix { $0 != "/" }
        port = Int(hostPort.split(separator: ":").last ?? "") ?? 0
    }

    /// Sends Ctrl-C (SIGINT) and returns the exit status and what went to stderr.
    public func interrupt(timeout: TimeInterval = EventWait.timeout) -> (status: Int32?, stderr: String) {
        kill(process.processIdentifier, SIGINT)
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning, deadline.timeIntervalSinceNow > 0 { usleep(20_000) }
        if process.isRunning { process.terminate(); return (nil, "") }
        return (process.terminationStatus, channel.stderr())
    }

    /// Resident memory of the server, from /proc (kB).
    public var residentKilobytes: Int? {
        guard let status = try? String(contentsOfFile: "/proc/\(process.processIdentifier)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return nil }
        return Int(line.split(separator: " ").dropFirst().first ?? "")
    }

    /// Open file descriptors of the server (each connection holds one).
    public var openFiles: Int {
        (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/fd").count) ?? -1
    }

    /// The server's open sockets (its listener and one per connection):
    /// unlike all its files, not moved by a font or scene file it opens and
    /// closes around a render.
    public var openSockets: Int {
        let folder = "/proc/\(process.processIdentifier)/fd"
        guard let fds = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return -1 }
        return fds.filter { ((try? FileManager.default.destinationOfSymbolicLink(atPath: folder + "/" + $0)) ?? "").hasPrefix("socket:") }.count
    }

    deinit { if process.isRunning { process.terminate() } }
}
