import Foundation

/// The lines a child process writes to a pipe, read as they come: a test
/// waits for a line (an event) instead of for a time.
public final class PipeLines {
    public let pipe = Pipe()
    /// Bytes read so far, and how far they have been searched.
    private var received: [UInt8] = []
    private var searched = 0

    public init() {}

    /// Reads until a line for which `match` is true arrives, and returns
    /// it; nil if the pipe ends (the child exited) or the wait gives up.
    public func waitForLine(timeout: TimeInterval = EventWait.timeout, _ match: (String) -> Bool) -> String? {
        let fd = pipe.fileHandleForReading.fileDescriptor
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            while let newline = received[searched...].firstIndex(of: 10) {
                let line = String(decoding: received[searched..<newline], as: UTF8.self)
                searched = newline + 1
                if match(line) { return line }
            }
            guard deadline.timeIntervalSinceNow > 0 else { return nil }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&p, 1, 100)
            if ready < 0 && errno == EINTR { continue }
            guard ready >= 0 else { return nil }
            if p.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = read(fd, &buffer, buffer.count)
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { return nil }
                received += buffer[..<n]
            }
        }
    }

    /// Everything the child wrote, once it has exited.
    public func all() -> String {
        String(decoding: received + [UInt8](pipe.fileHandleForReading.readDataToEndOfFile()), as: UTF8.self)
    }
}

/// The test's side of `TestPause` (Sources/Easel/TestPause.swift): a child
/// process's standard input and error as pipes. The child, a debug build run
/// with `EASEL_TEST_PAUSE`, announces each point it is held at on stderr and
/// waits on stdin; the test waits for that line — an event, not a schedule —
/// does what it tests, and lets the child go on by ending stdin (after which
/// no point holds it again).
public final class PauseChannel {
    public let input = Pipe()
    public let errors = PipeLines()

    public init() {}

    /// Waits for `easel-test: paused at PHASE …SUBJECT…`.
    public func waitForPause(_ phase: String, _ subject: String = "") -> Bool {
        errors.waitForLine { $0.hasPrefix("easel-test: paused at \(phase) ") && $0.contains(subject) } != nil
    }

    /// Waits for the signal handler's `easel-test: signal noted`: a signal
    /// that arrived during a commit is pending, the commit still held.
    public func waitForSignalNoted() -> Bool {
        errors.waitForLine { $0 == "easel-test: signal noted" } != nil
    }

    /// Lets every held thread go on, and none wait again: stdin ends.
    public func releaseAll() {
        try? input.fileHandleForWriting.close()
    }

    /// All of stderr, once the child has exited.
    public func stderr() -> String { errors.all() }
}

/// A debug `easel` started with `EASEL_TEST_PAUSE=points`, held where the test says.
public final class HeldProcess {
    public let process = Process()
    public let channel = PauseChannel()

    public init(_ arguments: [String], pauseAt points: String) throws {
        process.executableURL = URL(fileURLWithPath: ExternalTool.easelExecutable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["EASEL_TEST_PAUSE": points]) { $1 }
        process.standardInput = channel.input
        process.standardError = channel.errors.pipe
        process.standardOutput = FileHandle.nullDevice
        try process.run()
    }

    /// Waits for the process to exit by itself, held threads still held;
    /// false if it is still running when the wait gives up.
    public func waitForExit(timeout: TimeInterval = EventWait.timeout) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while process.isRunning && deadline.timeIntervalSinceNow > 0 { usleep(5_000) }
        return !process.isRunning
    }

    /// Lets it go on and waits for its end; SIGKILL if it does not end
    /// within the wait (stuck elsewhere than at a pause), so a test never hangs.
    public func finish() {
        channel.releaseAll()
        if !waitForExit() { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
