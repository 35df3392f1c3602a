import Easel
import EaselCommandLine
import FlyingFox
import FlyingSocks
import Foundation

/// The preview's HTTP server: the page, its event stream, and each scene's
/// picture, layout and state. Nothing else is served — no path in a URL
/// reaches the file system; every other request gets 404.
public final class PreviewServer: @unchecked Sendable {
    public struct Configuration: Sendable {
        public var scenes: [String]
        public var host: String
        public var port: UInt16
        public var scale: Double
        public var options: Easel.Options
        public init(scenes: [String], host: String, port: UInt16, scale: Double, options: Easel.Options) {
            self.scenes = scenes; self.host = host; self.port = port; self.scale = scale; self.options = options
        }
    }

    public enum Failure: Error, CustomStringConvertible {
        case notAnAddress(String)
        case cannotListen(String)
        case cannotWatch
        public var description: String {
            switch self {
            case .notAnAddress(let host): return "--host takes an IP address (127.0.0.1, ::1, 0.0.0.0) or localhost, not '\(host)'"
            case .cannotListen(let why): return "cannot listen: \(why)"
            case .cannotWatch: return "cannot watch the scenes' folders for changes (inotify)"
            }
        }
    }

    let configuration: Configuration
    let scenes: [PreviewScene]
    let events = EventBroadcaster()
    private let http: HTTPServer
    private let watcher: FolderWatcher
    private let isLoopback: Bool

    public init(_ configuration: Configuration) throws {
        self.configuration = configuration
        let address: any SocketAddress
        switch configuration.host {
        case "localhost", "127.0.0.1":
            address = try sockaddr_in.inet(ip4: "127.0.0.1", port: configuration.port)
        case let host where host.contains(":"):
            guard let a = try? sockaddr_in6.inet6(ip6: host, port: configuration.port) else { throw Failure.notAnAddress(host) }
            address = a
        case let host:
            guard let a = try? sockaddr_in.inet(ip4: host, port: configuration.port) else { throw Failure.notAnAddress(host) }
            address = a
        }
        isLoopback = PreviewOptions.loopbackHosts.contains(configuration.host)
        guard let watcher = FolderWatcher(quiet: 0.03) else { throw Failure.cannotWatch }
        self.watcher = watcher
        let events = self.events
        let slots = DispatchSemaphore(value: ParallelJobs.defaultJobs)
        let run = String(UUID().uuidString.prefix(8))
        scenes = configuration.scenes.enumerated().map { index, path in
            PreviewScene(index: index, path: path, run: run, options: configuration.options, scale: configuration.scale,
                         renderSlots: slots) { snapshot, folders in
                // A render may have read files in folders not watched yet
                // (only the folders themselves: a scene in a home folder must
                // not make every render walk the home folder's tree).
                watcher.watch(folders, recursive: false)
                events.send(event: "scene", data: Self.json(snapshot))
            }
        }
        let handler = PreviewRequestHandler(scenes: scenes, events: events, requiresLoopbackHost: isLoopback,
                                            maxScale: configuration.options.limits.maxScale)
        // Requests are short except the event streams, which stay open.
        http = HTTPServer(config: .init(address: address, timeout: 60, logger: .disabled), handler: handler)
    }

    /// Renders every scene, starts watching their files, and listens;
    /// returns the URL once connections are accepted.
    public func start() async throws -> String {
        for scene in scenes {
            watcher.watch(scene.watchedFolders, recursive: false)
            scene.requestRender()
        }
        let watchThread = Thread { [self] in watchForChanges() }
        watchThread.name = "easel.preview.watch"
        watchThread.start()
        let server = http
        // run() serves until stopped; a failure to bind ends it at once.
        let failure = RunFailure()
        Task {
            do { try await server.run() } catch { failure.error = error }
        }
        while await !server.isListening {
            if let error = failure.error { throw Failure.cannotListen(Self.describe(error)) }
            try await Task.sleep(for: .milliseconds(5))
        }
        Task { [events] in
            while !Task.isCancelled {
                try await Task.sleep(for: .seconds(5))
                events.sendKeepAlive()
            }
        }
        guard let address = await server.listeningAddress else { throw Failure.cannotListen("no address") }
        switch address {
        case .ip4(let ip, let port): return "http://\(configuration.host == "localhost" ? "localhost" : ip):\(port)/"
        case .ip6(let ip, let port): return "http://[\(ip)]:\(port)/"
        default: return "http://\(configuration.host):\(configuration.port)/"
        }
    }

    /// Ends the event streams and closes connections.
    public func stop() async {
        events.close()
        await http.stop(timeout: 1)
    }

    private func watchForChanges() {
        while let changed = watcher.waitForChanges() {
            // Events the kernel dropped may have been any scene's: all render again.
            for scene in scenes where changed.eventsLost || scene.isAffected(by: changed.paths) {
                scene.requestRender()
            }
        }
    }

    /// The snapshot as the page reads it. JSON has no infinity: a scene
    /// whose numbers the page would be sent as such (`duration="1e400"`)
    /// is shown with those numbers left out and an error saying so — never
    /// an empty state the page cannot place.
    static func json(_ snapshot: SceneSnapshot) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        do {
            return String(decoding: try encoder.encode(snapshot), as: UTF8.self)
        } catch {
            var shown = snapshot
            shown.ok = false
            shown.duration = shown.duration.flatMap { $0.isFinite ? $0 : nil }
            shown.renderMilliseconds = shown.renderMilliseconds.flatMap { $0.isFinite ? $0 : nil }
            if let p = shown.picture, !(p.width.isFinite && p.height.isFinite) { shown.picture = nil }
            let message = "the preview cannot send this scene's state: \(error)"
            shown.diagnostics.append(.init(severity: "error", message: message, text: "\(snapshot.name): error: \(message)"))
            // Whatever else fails, the page still gets the scene's number and the reason.
            return (try? String(decoding: encoder.encode(shown), as: UTF8.self))
                ?? #"{"scene":\#(snapshot.scene),"ok":false,"diagnostics":[{"severity":"error","message":"the preview cannot send this scene's state","text":"the preview cannot send this scene's state"}]}"#
        }
    }

    /// "Address already in use" rather than the socket error's case name.
    private static func describe(_ error: any Error) -> String {
        if let socketError = error as? SocketError, case let .failed(_, errno, message) = socketError {
            return "\(message) (errno \(errno))"
        }
        return "\(error)"
    }
}

/// The error that ended the server's run task, if any.
private final class RunFailure: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: (any Error)?
    var error: (any Error)? {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
