import Foundation

/// A value shared between threads and reached only under a lock.
///
/// An `NSLock` (a pthread mutex) rather than the Synchronization module's
/// `Mutex`: ThreadSanitizer understands pthread locking but not `Mutex`'s
/// futex waits, so accesses made under a contended `Mutex` were reported as
/// races (CI's ThreadSanitizer stage, `easel build` reporting progress).
public final class Locked<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    public init(_ value: Value) { self.value = value }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
