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
        if workers == 1 { return inputs.map(body) }
        let next = Atomic<Int>(0)
        let results = Locked<[Int: Output]>([:])
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            while true {
                let i = next.add(1, ordering: .relaxed).oldValue
                guard i < inputs.count else { return }
                let out = body(inputs[i])
                results.withLock { $0[i] = out }
            }
        }
        return results.withLock { all in (0..<inputs.count).map { all[$0]! } }
    }

    /// The number of cores, the default for `-j`.
    public static var defaultJobs: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }
}
