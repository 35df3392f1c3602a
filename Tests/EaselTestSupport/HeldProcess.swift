import Foundation

/// The test's side of `TestPause` (Sources/Easel/TestPause.swift): a child
/// process's standard input and error as pipes. The child, a debug build run
/// with `EASEL_TEST_PAUSE`, announces each point it is held at on stderr and
/// waits for a byte on stdin; the test waits for that line — an event, not a
/// schedule — does what it tests, and lets the child go on.
public final class PauseChannel {
    public let input = Pipe()
    public let errors = Pipe()
    /// What `waitForPause` has read of stderr so far.
    private var read: [UInt8] = []
    private var searched = 0

    public init() {}

    /// Reads stderr until a line `easel-test: paused at PHASE …SUBJECT…`
    /// arrives; false if stderr ends (the child exited) or the wait gives up.
    public func waitForPause(_ phase: String, _ subject: String = "", timeout: TimeInterval = EventWait.timeout) -> Bool {
        let fd = errors.fileHandleForReading.fileDescriptor
        let deadline = Date(timeIntervalSinceNow: timeout)
        while deadline.timeIntervalSinceNow > 0 {
            while let newline = read[searched...].firstIndex(of: 10) {
                let line = String(decoding: read[searched..<newline], as: UTF8.self)
                searched = newline + 1
                if line.hasPrefix("easel-test: paused at \(phase) ") && line.contains(subject) { return true }
            }
            var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&p, 1, 100) >= 0 else { return false }
            if p.revents != 0 {
                var buffer = [UInt8](repeating: 0, count: 4096)
                let n = Foundation.read(fd, &buffer, buffer.count)
                if n <= 0 { return false }
                read += buffer[..<n]
            }
        }
        return false
    }

    /// Lets one held thread go on. Harmless once the child is gone
    /// (`ExternalTool` ignores SIGPIPE).
    public func release() {
        var byte: UInt8 = 1
        _ = write(input.fileHandleForWriting.fileDescriptor, &byte, 1)
    }

    /// Lets every held thread go on, and none wait again: stdin ends.
    public func releaseAll() {
        try? input.fileHandleForWriting.close()
    }

    /// All of stderr, once the child has exited.
    public func stderr() -> String {
        String(decoding: read + [UInt8](errors.fileHandleForReading.readDataToEndOfFile()), as: UTF8.self)
    }
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
        process.standardError = channel.errors
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

    deinit {
        if process.isRunning { process.terminate() }
    }
}
