import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A plain HTTP/1.1 client over a blocking socket, for tests of the preview
/// server: it shows exactly what went over the wire (status line, headers,
/// chunked event stream) without a client library's interpretation.
public struct HTTPTestResponse {
    public var status: Int
    public var headers: [String: String]
    public var body: [UInt8]
    public var text: String { String(decoding: body, as: UTF8.self) }
}

public enum HTTPTestError: Error {
    case connect(Int32), timeout, closed, malformed(String)
    /// A DevTools call that got no reply in its time.
    case noReply(method: String, seconds: Int)
}

/// One TCP connection to 127.0.0.1.
public final class TestConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    public init(port: Int, timeout: TimeInterval = 10) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { let e = errno; close(fd); throw HTTPTestError.connect(e) }
    }

    deinit { close(fd) }

    public func send(_ text: String, body: [UInt8] = []) throws {
        let bytes = Array(text.utf8) + body
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw HTTPTestError.closed }
            sent += n
        }
    }

    /// Reads more bytes into the buffer; false at end of stream.
    private func fill(deadline: Date) throws -> Bool {
        let left = deadline.timeIntervalSinceNow
        guard left > 0 else { throw HTTPTestError.timeout }
        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&p, 1, Int32(left * 1000)) > 0 else { throw HTTPTestError.timeout }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = recv(fd, &chunk, chunk.count, 0)
        guard n > 0 else { return false }
        buffer += chunk[0..<n]
        return true
    }

    func readLine(deadline: Date) throws -> String {
        while true {
            if let i = buffer.firstIndex(of: 10) {
                let line = buffer[..<i]
                buffer.removeFirst(i + 1)
                return String(decoding: line.last == 13 ? line.dropLast() : line, as: UTF8.self)
            }
            guard try fill(deadline: deadline) else { throw HTTPTestError.closed }
        }
    }

    func readBytes(_ count: Int, deadline: Date) throws -> [UInt8] {
        while buffer.count < count { guard try fill(deadline: deadline) else { throw HTTPTestError.closed } }
        defer { buffer.removeFirst(count) }
        return Array(buffer[..<count])
    }

    /// The status line and headers.
    func readHead(deadline: Date) throws -> (Int, [String: String]) {
        let statusLine = try readLine(deadline: deadline)
        let parts = statusLine.split(separator: " ")
        guard parts.count >= 2, let status = Int(parts[1]) else { throw HTTPTestError.malformed(statusLine) }
        var headers: [String: String] = [:]
        while true {
            let line = try readLine(deadline: deadline)
            if line.isEmpty { break }
            guard let colon = line.firstIndex(of: ":") else { throw HTTPTestError.malformed(line) }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        return (status, headers)
    }

    /// The next piece of a chunked body; nil at its end.
    func readChunk(deadline: Date) throws -> [UInt8]? {
        let sizeLine = try readLine(deadline: deadline)
        guard let size = Int(sizeLine.split(separator: ";")[0], radix: 16) else { throw HTTPTestError.malformed(sizeLine) }
        if size == 0 { _ = try readLine(deadline: deadline); return nil }
        let data = try readBytes(size, deadline: deadline)
        _ = try readLine(deadline: deadline)
        return data
    }
}

public enum HTTPTestClient {
    /// One request on a fresh connection.
    public static func request(port: Int, _ path: String, method: String = "GET", host: String? = nil,
                               headers: [String: String] = [:], body: [UInt8] = [],
                               timeout: TimeInterval = 10) throws -> HTTPTestResponse {
        let connection = try TestConnection(port: port)
        var head = "\(method) \(path) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\nConnection: close\r\n"
        for (k, v) in headers { head += "\(k): \(v)\r\n" }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        try connection.send(head + "\r\n", body: body)
        let deadline = Date(timeIntervalSinceNow: timeout)
        let (status, responseHeaders) = try connection.readHead(deadline: deadline)
        var bytes: [UInt8] = []
        if responseHeaders["transfer-encoding"] == "chunked" {
            while let chunk = try connection.readChunk(deadline: deadline) { bytes += chunk }
        } else if let length = responseHeaders["content-length"].flatMap(Int.init) {
            bytes = try connection.readBytes(length, deadline: deadline)
        }
        return HTTPTestResponse(status: status, headers: responseHeaders, body: bytes)
    }
}

/// A subscriber to a Server-Sent Events stream.
public final class EventStreamClient {
    public struct Event { public var name: String; public var data: String }
    let connection: TestConnection
    private var text = ""
    public let status: Int
    public let headers: [String: String]

    public init(port: Int, path: String = "/events") throws {
        connection = try TestConnection(port: port)
        try connection.send("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\nAccept: text/event-stream\r\n\r\n")
        (status, headers) = try connection.readHead(deadline: Date(timeIntervalSinceNow: 10))
    }

    /// The next event (comments and `retry:` skipped); throws on timeout.
    public func next(timeout: TimeInterval) throws -> Event {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            while let end = text.range(of: "\n\n") {
                let block = text[..<end.lowerBound]
                text.removeSubrange(..<end.upperBound)
                var name = "message", data: [Substring] = []
                for line in block.split(separator: "\n") {
                    if line.hasPrefix("event: ") { name = String(line.dropFirst(7)) }
                    if line.hasPrefix("data: ") { data.append(line.dropFirst(6)) }
                }
                if !data.isEmpty { return Event(name: name, data: data.joined(separator: "\n")) }
            }
            guard let chunk = try connection.readChunk(deadline: deadline) else { throw HTTPTestError.closed }
            text += String(decoding: chunk, as: UTF8.self)
        }
    }

    /// Events until one satisfies `match`; throws on timeout.
    public func next(timeout: TimeInterval, where match: (Event) -> Bool) throws -> Event {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while true {
            let event = try next(timeout: max(0.001, deadline.timeIntervalSinceNow))
            if match(event) { return event }
        }
    }
}
