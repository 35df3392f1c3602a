import FlyingSocks
import Foundation

/// Sends Server-Sent Events to every open page.
///
/// Each subscriber has a small buffer that keeps the newest events: a page
/// that stops reading loses old states, never the latest, and cannot make
/// the server hold more than a few events for it.
final class EventBroadcaster: @unchecked Sendable {
    /// More open pages than this get 503 (each costs a connection and a buffer).
    static let maxSubscribers = 1000
    static let bufferedEvents = 32

    private let lock = NSLock()
    private var subscribers: [Int: AsyncStream<[UInt8]>.Continuation] = [:]
    private var nextID = 0
    private var isClosed = false

    var count: Int { lock.withLock { subscribers.count } }

    /// A stream that starts with `initial` and then carries every event
    /// sent; nil when there are too many subscribers or the server stops.
    func subscribe(initial: [[UInt8]]) -> EventStreamBody? {
        let (stream, continuation) = AsyncStream<[UInt8]>.makeStream(bufferingPolicy: .bufferingNewest(Self.bufferedEvents))
        let id: Int? = lock.withLock {
            guard !isClosed, subscribers.count < Self.maxSubscribers else { return nil }
            nextID += 1
            subscribers[nextID] = continuation
            return nextID
        }
        guard let id else { return nil }
        // The browser reconnects after a second if the server restarts.
        continuation.yield(Array("retry: 1000\n\n".utf8))
        for event in initial { continuation.yield(event) }
        // Strong references (no weak side table): a subscriber's closures are
        // released when it is removed, and the broadcaster lives as long as
        // the server anyway.
        continuation.onTermination = { _ in self.remove(id) }
        return EventStreamBody(stream: stream, subscription: Subscription { self.remove(id) })
    }

    func send(event name: String, data: String) {
        send(Self.encode(event: name, data: data))
    }

    /// A comment line: keeps proxies from timing the stream out, and finds
    /// pages that went away (writing to them fails, which ends their stream).
    func sendKeepAlive() { send(Array(": keep-alive\n\n".utf8)) }

    private func send(_ bytes: [UInt8]) {
        for continuation in lock.withLock({ Array(subscribers.values) }) { continuation.yield(bytes) }
    }

    /// Ends every stream (the server is stopping).
    func close() {
        let all: [AsyncStream<[UInt8]>.Continuation] = lock.withLock {
            isClosed = true
            defer { subscribers = [:] }
            return Array(subscribers.values)
        }
        for continuation in all { continuation.finish() }
    }

    private func remove(_ id: Int) {
        let continuation = lock.withLock { subscribers.removeValue(forKey: id) }
        continuation?.finish()
    }

    /// `event: NAME` and the data, one `data:` line per line of it.
    static func encode(event name: String, data: String) -> [UInt8] {
        var text = "event: \(name)\n"
        for line in data.split(separator: "\n", omittingEmptySubsequences: false) { text += "data: \(line)\n" }
        return Array((text + "\n").utf8)
    }
}

/// Removes its subscriber when the last copy of the response body goes away,
/// which FlyingFox does when writing to the page fails or the page closes.
final class Subscription: Sendable {
    private let end: @Sendable () -> Void
    init(_ end: @escaping @Sendable () -> Void) { self.end = end }
    deinit { end() }
}

/// The bytes of an event stream, as FlyingFox's chunked response body reads them.
struct EventStreamBody: AsyncBufferedSequence, Sendable {
    typealias Element = UInt8
    let stream: AsyncStream<[UInt8]>
    let subscription: Subscription

    func makeAsyncIterator() -> Iterator { Iterator(events: stream.makeAsyncIterator(), subscription: subscription) }

    struct Iterator: AsyncBufferedIteratorProtocol {
        var events: AsyncStream<[UInt8]>.Iterator
        let subscription: Subscription
        private var pending: ArraySlice<UInt8> = []

        init(events: AsyncStream<[UInt8]>.Iterator, subscription: Subscription) {
            self.events = events
            self.subscription = subscription
        }

        mutating func next() async -> UInt8? {
            if pending.isEmpty { pending = await events.next()?[...] ?? [] }
            return pending.popFirst()
        }

        /// A whole event at a time (an event is one chunk on the wire).
        mutating func nextBuffer(suggested count: Int) async -> [UInt8]? {
            if !pending.isEmpty {
                defer { pending = [] }
                return Array(pending)
            }
            return await events.next()
        }
    }
}
