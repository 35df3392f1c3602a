import Glibc

/// A value shared between threads and reached only under a lock.
///
/// A pthread mutex (what `NSLock` wraps; Foundation's ICU-backed part is no
/// longer linked) rather than the Synchronization module's `Mutex`:
/// ThreadSanitizer understands pthread locking but not `Mutex`'s futex
/// waits, so accesses made under a contended `Mutex` were reported as races
/// (CI's ThreadSanitizer stage, `easel build` reporting progress).
public final class Locked<Value: Sendable>: @unchecked Sendable {
    // Allocated, not stored inline: a pthread mutex must not move.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
