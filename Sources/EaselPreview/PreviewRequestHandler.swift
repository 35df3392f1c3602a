import EaselCommandLine
import FlyingFox
import Foundation

/// Answers the preview's few requests; every other path is 404.
struct PreviewRequestHandler: HTTPHandler {
    let scenes: [PreviewScene]
    let events: EventBroadcaster
    let requiresLoopbackHost: Bool
    let maxScale: Double

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        guard acceptsHost(request.headers[.host]) else {
            return text(.forbidden, "This preview answers to 127.0.0.1, localhost and [::1] only.\n")
        }
        let parts = request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map(String.init)
        switch (request.method, parts.count) {
        case (.GET, 1):
            switch parts[0] {
            case "": return asset(PreviewPage.html, type: "text/html; charset=utf-8")
            case "preview.js": return asset(PreviewPage.script, type: "text/javascript; charset=utf-8")
            case "preview.css": return asset(PreviewPage.style, type: "text/css; charset=utf-8")
            case "events": return eventStream()
            default: break
            }
        case (.GET, 3) where parts[0] == "scenes":
            guard let scene = scene(parts[1]) else { break }
            switch parts[2] {
            case "image.png", "image.webp", "image.avif":
                let picture = scene.picture
                guard !picture.bytes.isEmpty else { return text(.notFound, "No picture yet: the scene has not rendered without errors.\n") }
                // The picture is in the format last chosen: its own name only.
                guard parts[2] == "image." + picture.format.fileExtension else {
                    return text(.notFound, "The picture is \(picture.format.rawValue) now: ask for image.\(picture.format.fileExtension).\n")
                }
                return HTTPResponse(statusCode: .ok, headers: headers("image/" + picture.format.rawValue), body: Data(picture.bytes))
            case "layout.json":
                return HTTPResponse(statusCode: .ok, headers: headers("application/json"), body: Data(scene.layoutJSON.utf8))
            case "state.json":
                return HTTPResponse(statusCode: .ok, headers: headers("application/json"),
                                    body: Data(PreviewServer.json(scene.state).utf8))
            default: break
            }
        case (.POST, 3) where parts[0] == "scenes" && parts[2] == "settings":
            guard let scene = scene(parts[1]) else { break }
            return try await updateSettings(of: scene, from: request)
        default: break
        }
        return text(.notFound, "Not found.\n")
    }

    private func scene(_ text: String) -> PreviewScene? {
        guard let i = Int(text), scenes.indices.contains(i), String(i) == text else { return nil }
        return scenes[i]
    }

    /// A JSON body only: a form on another site cannot send one without the
    /// browser asking first (CORS preflight), which this server never allows.
    private func updateSettings(of scene: PreviewScene, from request: HTTPRequest) async throws -> HTTPResponse {
        guard request.headers[.contentType]?.hasPrefix("application/json") == true else {
            return text(.unsupportedMediaType, "Settings are a JSON object.\n")
        }
        guard let length = request.headers[.contentLength].flatMap(Int.init), length <= 64 * 1024 else {
            return text(.payloadTooLarge, "Settings are at most 64 KB.\n")
        }
        guard let settings = try? JSONDecoder().decode(PreviewSettings.self, from: await request.bodyData),
              let checked = settings.checked(maxScale: maxScale) else {
            return text(.badRequest, "Not valid settings.\n")
        }
        scene.update(checked)
        return HTTPResponse(statusCode: .accepted, headers: headers("text/plain; charset=utf-8"))
    }

    private func eventStream() -> HTTPResponse {
        let initial = scenes.map { EventBroadcaster.encode(event: "scene", data: PreviewServer.json($0.state)) }
        guard let body = events.subscribe(initial: initial) else {
            return text(.serviceUnavailable, "Too many open previews.\n")
        }
        var h = headers("text/event-stream")
        h[HTTPHeader("X-Accel-Buffering")] = "no"
        return HTTPResponse(statusCode: .ok, headers: h, body: HTTPBodySequence(from: body))
    }

    /// Requests must name a loopback host when the server listens on
    /// loopback: a web page elsewhere cannot reach the preview through a DNS
    /// name that resolves to 127.0.0.1 (DNS rebinding).
    private func acceptsHost(_ header: String?) -> Bool {
        guard requiresLoopbackHost else { return true }
        guard let header else { return false }
        let host = header.hasPrefix("[") ? header.dropFirst().prefix { $0 != "]" }
                                         : header.prefix { $0 != ":" }
        return PreviewOptions.loopbackHosts.contains(String(host))
    }

    private func headers(_ type: String) -> HTTPHeaders {
        [.contentType: type, .cacheControl: "no-store", HTTPHeader("X-Content-Type-Options"): "nosniff"]
    }

    private func asset(_ body: String, type: String) -> HTTPResponse {
        var h = headers(type)
        h[HTTPHeader("Content-Security-Policy")] = "default-src 'self'; img-src 'self'; object-src 'none'; base-uri 'none'; frame-ancestors 'none'"
        return HTTPResponse(statusCode: .ok, headers: h, body: Data(body.utf8))
    }

    private func text(_ status: HTTPStatusCode, _ body: String) -> HTTPResponse {
        HTTPResponse(statusCode: status, headers: headers("text/plain; charset=utf-8"), body: Data(body.utf8))
    }
}

/// The preview's request handling for the fuzzer (`fuzz/run preview`): a
/// request as bytes (`METHOD PATH HTTP/1.1`, header lines, a blank line,
/// the body) to its response, through the handler the server uses, with
/// no scene (every scene path answers 404) — and the body as the settings
/// a page posts, checked as the handler checks them.
package enum PreviewRequestFuzzing {
    package static func respond(to bytes: [UInt8]) async {
        let split = bytes.firstRange(of: Array("\r\n\r\n".utf8)) ?? bytes.firstRange(of: Array("\n\n".utf8))
        let head = String(decoding: bytes[..<(split?.lowerBound ?? bytes.count)], as: UTF8.self)
        let body = split.map { Array(bytes[$0.upperBound...]) } ?? []
        let lines = head.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let start = (lines.first ?? "").split(separator: " ", maxSplits: 2)
        var headers: [HTTPHeader: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[HTTPHeader(String(line[..<colon]))] = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
        }
        let request = HTTPRequest(method: HTTPMethod(start.first.map(String.init) ?? "GET"), version: .http11,
                                  path: start.count > 1 ? String(start[1]) : "/", query: [], headers: headers, body: Data(body))
        let handler = PreviewRequestHandler(scenes: [], events: EventBroadcaster(), requiresLoopbackHost: true, maxScale: 4)
        _ = try? await handler.handleRequest(request)
        if let settings = try? JSONDecoder().decode(PreviewSettings.self, from: Data(body)) { _ = settings.checked(maxScale: 4) }
    }
}
