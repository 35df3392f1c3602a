import Dispatch
import FoundationEssentials
import Glibc
import Synchronization

/// Runs independent jobs on up to `jobs` threads and returns their results
/// in input order, so output never depends on which thread finished first.
public enum ParallelJobs {
    public static func map<Input: Sendable, Output: Sendable>(
        _ inputs: [Input], jobs: Int, _ body: @Sendable (Input) -> Output
    ) -> [Output] {
        let workers = max(1, min(jobs, inputs.count))
        if workers == 1 {
            return inputs.map { input in
                let counted = started()
                defer { ended(counted) }
                return body(input)
            }
        }
        let next = Atomic<Int>(0)
        let results = Locked<[Int: Output]>([:])
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < inputs.count else { return }
                let counted = started()
                let out = body(inputs[i])
                ended(counted)
                results.withLock { $0[i] = out }
            }
        }
        return results.withLock { all in (0..<inputs.count).map { all[$0]! } }
    }

    /// The default for `-j`: the number of cores, or in a persistent
    /// worker the request's share (`share`).
    public static var defaultJobs: Int { share ?? cores }

    /// The threads a command runs on when `-j` says `asked`: what it asks,
    /// but within a worker's request never more than the cores.
    public static func jobs(asked: Int?) -> Int {
        guard let share else { return asked ?? cores }
        return min(asked ?? share, cores)
    }

    /// The number of cores.
    public static var cores: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Jobs running now in this process, and the most that ever ran at
    /// once (a persistent worker reports it: never more than the cores).
    private static let running = Atomic<Int>(0)
    private static let mostAtOnce_ = Atomic<Int>(0)
    public static var mostAtOnce: Int { mostAtOnce_.load(ordering: .relaxed) }

    /// Set on a thread while it runs a job: a job's own parallel map (a
    /// scene's locales) runs on threads of which the one running the job
    /// is already counted.
    private static let insideJob: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key, nil)
        return key
    }()

    /// Counts a job starting on this thread, unless the thread is running
    /// one already; true if counted.
    private static func started() -> Bool {
        guard pthread_getspecific(insideJob) == nil else { return false }
        pthread_setspecific(insideJob, UnsafeRawPointer(bitPattern: 1))
        let now = running.add(1, ordering: .relaxed).newValue
        var seen = mostAtOnce_.load(ordering: .relaxed)
        while now > seen {
            let (exchanged, original) = mostAtOnce_.compareExchange(expected: seen, desired: now, ordering: .relaxed)
            if exchanged { break }
            seen = original
        }
        return true
    }

    private static func ended(_ counted: Bool) {
        guard counted else { return }
        pthread_setspecific(insideJob, nil)
        running.subtract(1, ordering: .relaxed)
    }

    /// A persistent worker's request's default `-j` (one: Bazel counts an
    /// action as one CPU): several requests at once do not each take every
    /// core.
    @TaskLocal public static var share: Int?
}
