import Glibc

/// Length-delimited messages on a file descriptor (or in memory, for the
/// fuzzer), as Bazel frames protocol buffers between itself and a worker:
/// each message is preceded by its length as a base-128 varint.
public struct DelimitedMessageReader {
    public enum Next: Sendable {
        case message([UInt8])
        /// The stream ended between messages (Bazel closing the worker).
        case end
        /// Not a stream of messages: what was wrong, for standard error.
        case failure(String)
    }

    /// A request larger than this is taken for garbage rather than waited
    /// for (Bazel's requests are a command line and its inputs' digests).
    public static let maximumLength = 64 << 20

    /// A descriptor to read, or nil: the bytes are all in `buffer`.
    let descriptor: Int32?
    private var buffer = [UInt8](repeating: 0, count: 64 << 10)
    private var start = 0, end = 0

    public init(descriptor: Int32) { self.descriptor = descriptor }

    /// The messages of `bytes` (a whole stream, as the fuzzer gives it).
    public init(bytes: [UInt8]) {
        descriptor = nil
        buffer = bytes
        end = bytes.count
    }

    public mutating func next() -> Next {
        var length = 0
        for index in 0..<5 {
            switch readByte() {
            case .none where index == 0:
                if let readError { return .failure("cannot read standard input: \(readError)") }
                return .end
            case .none: return .failure("standard input ended inside a request's length")
            case .some(let byte):
                length |= Int(byte & 0x7f) << (7 * index)
                if byte & 0x80 == 0 {
                    guard length <= Self.maximumLength else {
                        return .failure("standard input is not length-delimited WorkRequests (a request of \(length) bytes; at most \(Self.maximumLength))")
                    }
                    return readMessage(length: length)
                }
            }
        }
        return .failure("standard input is not length-delimited WorkRequests (a length longer than 5 bytes)")
    }

    private mutating func readMessage(length: Int) -> Next {
        var message: [UInt8] = []
        message.reserveCapacity(length)
        while message.count < length {
            if start == end, !refill() {
                return .failure("standard input ended inside a request (\(message.count) of its \(length) bytes)")
            }
            let take = min(end - start, length - message.count)
            message += buffer[start..<start + take]
            start += take
        }
        return .message(message)
    }

    private mutating func readByte() -> UInt8? {
        if start == end, !refill() { return nil }
        defer { start += 1 }
        return buffer[start]
    }

    /// Why the stream ended, if not at its end (a read error).
    private(set) var readError: String?

    /// False at the end of the stream or on a read error (`readError`).
    private mutating func refill() -> Bool {
        guard let descriptor else { return false }
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if count < 0 && errno == EINTR { continue }
            if count < 0 { readError = String(cString: strerror(errno)) }
            guard count > 0 else { return false }
            start = 0
            end = count
            return true
        }
    }
}

public enum DelimitedMessageWriter {
    /// The message preceded by its length.
    public static func framed(_ message: [UInt8]) -> [UInt8] {
        var framed: [UInt8] = []
        var length = message.count
        repeat {
            framed.append(UInt8(length & 0x7f) | (length > 0x7f ? 0x80 : 0))
            length >>= 7
        } while length > 0
        return framed + message
    }

}
