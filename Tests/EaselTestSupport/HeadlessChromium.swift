import Foundation
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Headless Chromium driven over the DevTools protocol on a pipe
/// (`--remote-debugging-pipe`: JSON messages ending in NUL on file
/// descriptors 3 and 4), so a test needs no WebSocket client.
public final class HeadlessChromium {
    private let pid: pid_t
    private let toBrowser: Int32
    private let fromBrowser: Int32
    private var buffer: [UInt8] = []
    private var nextID = 0
    private var session: String?
    private let profile: URL

    /// `arguments`: more switches (`--force-color-profile=display-p3-d65`).
    /// `gpu`: composite on SwiftShader's GPU instead of `--disable-gpu`'s
    /// software path, which draws into an 8-bit sRGB canvas whatever the
    /// display's colour profile (wide colour needs the GPU path).
    public init(width: Int = 1280, height: Int = 900, arguments more: [String] = [], gpu: Bool = false) throws {
        guard let chromium = ExternalTool.find("chromium") ?? ExternalTool.find("chromium-browser") else {
            XCTFail("chromium is not installed; run the README's test command (scripts/test), which installs it")
            throw NSError(domain: "HeadlessChromium", code: 127)
        }
        signal(SIGPIPE, SIG_IGN)
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("easel-chromium-\(UUID().uuidString)")
        var commands: [Int32] = [0, 0], replies: [Int32] = [0, 0]
        guard pipe(&commands) == 0, pipe(&replies) == 0 else { throw HTTPTestError.closed }
        // Only the dup2'd copies (3 and 4) reach Chromium.
        for fd in commands + replies { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, commands[0], 3)
        posix_spawn_file_actions_adddup2(&actions, replies[1], 4)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let graphics = gpu ? ["--enable-unsafe-swiftshader", "--use-angle=swiftshader"] : ["--disable-gpu"]
        let arguments = [chromium, "--headless", "--no-sandbox"] + graphics + ["--no-first-run",
                         "--disable-extensions", "--hide-scrollbars", "--remote-debugging-pipe",
                         "--user-data-dir=\(profile.path)", "--window-size=\(width),\(height)"] + more + ["about:blank"]
        var argv = arguments.map { strdup($0) } + [nil]
        defer { for a in argv { free(a) } }
        var child: pid_t = 0
        let spawned = posix_spawn(&child, chromium, &actions, nil, &argv, environ)
        close(commands[0]); close(replies[1])
        guard spawned == 0 else { throw HTTPTestError.connect(spawned) }
        pid = child
        toBrowser = commands[1]
        fromBrowser = replies[0]
    }

    deinit {
        // Killed below if it does not close; no reason to wait long.
        _ = try? call("Browser.close", [:], inSession: false, timeout: 5)
        close(toBrowser); close(fromBrowser)
        var status: Int32 = 0
        for _ in 0..<100 where waitpid(pid, &status, WNOHANG) == 0 { usleep(50_000) }
        if waitpid(pid, &status, WNOHANG) == 0 { kill(pid, SIGKILL); waitpid(pid, &status, 0) }
        try? FileManager.default.removeItem(at: profile)
    }

    /// Opens `url` in a new tab; later calls go to that tab.
    public func open(_ url: String) throws {
        let target = try call("Target.createTarget", ["url": url], inSession: false)
        guard let targetId = target["targetId"] as? String else { throw HTTPTestError.malformed("\(target)") }
        let attached = try call("Target.attachToTarget", ["targetId": targetId, "flatten": true], inSession: false)
        session = attached["sessionId"] as? String
    }

    /// The value of a JavaScript expression in the page.
    public func evaluate(_ expression: String, timeout: TimeInterval = EventWait.timeout) throws -> Any? {
        let reply = try call("Runtime.evaluate", ["expression": expression, "returnByValue": true], timeout: timeout)
        return (reply["result"] as? [String: Any])?["value"]
    }

    /// Evaluates `expression` until it is true; false after `timeout`.
    public func waitUntil(_ expression: String, timeout: TimeInterval = EventWait.timeout) throws -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        var refusal: Error?
        while deadline.timeIntervalSinceNow > 0 {
            // An evaluation sent while the tab is still navigating may be
            // refused (its context replaced), so ask again until the
            // deadline; a refusal that never stops is thrown then.
            do {
                let value = try evaluate(expression, timeout: max(0.1, deadline.timeIntervalSinceNow))
                refusal = nil
                if value as? Bool == true { return true }
            } catch HTTPTestError.malformed(let reason) {
                refusal = HTTPTestError.malformed(reason)
            }
            usleep(50_000)
        }
        if let refusal { throw refusal }
        return false
    }

    /// A PNG of the tab's viewport.
    public func screenshot() throws -> [UInt8] {
        let reply = try call("Page.captureScreenshot", ["format": "png"])
        guard let base64 = reply["data"] as? String, let data = Data(base64Encoded: base64) else {
            throw HTTPTestError.malformed("no screenshot")
        }
        return [UInt8](data)
    }

    /// `timeout` bounds a wait for the reply (an event), it does not time
    /// anything: a loaded CI machine once took more than 20 s to answer.
    @discardableResult
    func call(_ method: String, _ params: [String: Any] = [:], inSession: Bool = true,
              timeout: TimeInterval = EventWait.timeout) throws -> [String: Any] {
        nextID += 1
        var message: [String: Any] = ["id": nextID, "method": method, "params": params]
        if inSession, let session { message["sessionId"] = session }
        var bytes = [UInt8](try JSONSerialization.data(withJSONObject: message))
        bytes.append(0)
        let written = bytes.withUnsafeBytes { write(toBrowser, $0.baseAddress, $0.count) }
        guard written == bytes.count else { throw HTTPTestError.closed }
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            // Replies and events arrive in order; events are skipped.
            while let end = buffer.firstIndex(of: 0) {
                let json = buffer[..<end]
                buffer.removeFirst(end + 1)
                guard let object = try JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
                      object["id"] as? Int == nextID else { continue }
                if let error = object["error"] { throw HTTPTestError.malformed("\(method): \(error)") }
                return object["result"] as? [String: Any] ?? [:]
            }
            let left = deadline.timeIntervalSinceNow
            var p = pollfd(fd: fromBrowser, events: Int16(POLLIN), revents: 0)
            guard left > 0, poll(&p, 1, Int32(left * 1000)) > 0 else {
                throw HTTPTestError.noReply(method: method, seconds: Int(timeout))
            }
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            let n = read(fromBrowser, &chunk, chunk.count)
            guard n > 0 else { throw HTTPTestError.closed }
            buffer += chunk[0..<n]
        }
    }
}
