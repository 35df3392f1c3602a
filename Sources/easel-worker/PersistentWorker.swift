import BazelWorkerProtocol
import EaselCommands
import Dispatch
import Easel
import EaselCommandLine
import EaselModel
import Glibc

/// `easel worker --persistent_worker`: Bazel's persistent-worker protocol.
/// Requests are read in order from standard input; a request without an id
/// (a singleplex worker) runs at once on this thread, requests with ids
/// (`supports-multiplex-workers`) run at most one per core at a time and
/// are answered as each finishes; the others wait in order, holding no
/// thread. A multiplexed request's `-j` defaults to one (Bazel counts an
/// action as one CPU) and is never more than the cores; a singleplex one's
/// defaults to the cores, as `easel` does. Each runs one render or build command line in
/// this process, so font sets (`FontSets`) and decoded images
/// (`DecodedImageCache`) made for one request serve the next, within their
/// bounds. Standard output carries only responses: the descriptor is moved
/// aside at start, and anything else written to it goes to standard error
/// (Bazel's worker log).
final class PersistentWorker: @unchecked Sendable {
    private let responses: Int32
    private let writing = Locked(())
    /// Multiplexed requests not answered yet.
    private let inFlight = Locked<[Int32: Flight]>([:])
    /// Requests running, and those waiting for one of them to finish.
    private let schedule = Locked(Schedule())
    private struct Schedule {
        var running = 0
        var waiting: [@Sendable () -> Void] = []
    }
    private let slots = ParallelJobs.cores
    private let running = DispatchGroup()
    private let queue = DispatchQueue(label: "easel.worker", attributes: .concurrent)

    private struct Flight {
        /// Which request this is: an id may come again once answered.
        var serial: Int
        var started = false
        var cancelled = false
    }
    private var serials = 0

    init() {
        // Bazel gone mid-write is seen as a failed write, not a signal.
        signal(SIGPIPE, SIG_IGN)
        responses = dup(STDOUT_FILENO)
        dup2(STDERR_FILENO, STDOUT_FILENO)
    }

    /// Serves until standard input closes (0) or is not the protocol (1,
    /// said on standard error).
    func serve() -> Int32 {
        var reader = DelimitedMessageReader(descriptor: STDIN_FILENO)
        while true {
            switch reader.next() {
            case .end:
                running.wait()
                return 0
            case .failure(let problem):
                StandardStreams.error("easel worker: error: \(problem)\n")
                // Requests already accepted are answered before the end.
                running.wait()
                return 1
            case .message(let bytes):
                let request: Blaze_Worker_WorkRequest
                do {
                    request = try Blaze_Worker_WorkRequest(serializedBytes: bytes)
                } catch {
                    StandardStreams.error("easel worker: error: standard input is not length-delimited WorkRequests (a message of \(bytes.count) bytes is not one: \(error))\n")
                    running.wait()
                    return 1
                }
                accept(request)
            }
        }
    }

    private func accept(_ request: Blaze_Worker_WorkRequest) {
        let id = request.requestID
        if request.cancel {
            cancel(id)
            return
        }
        guard id != 0 else {
            respond(answer(request))
            return
        }
        serials += 1
        let serial = serials
        let known = inFlight.withLock { table -> Bool in
            if table[id] != nil { return true }
            table[id] = Flight(serial: serial)
            return false
        }
        // An id in flight twice is Bazel's mistake: the first keeps its one
        // answer, the second gets none (two answers with one id would be
        // another mistake on ours).
        if known {
            StandardStreams.error("easel worker: error: request \(id) came again while in flight; ignored\n")
            return
        }
        running.enter()
        start { [self] in
            defer { running.leave() }
            // A request cancelled while it waited was answered then.
            guard inFlight.withLock({ table -> Bool in
                guard table[id]?.serial == serial else { return false }
                table[id]!.started = true
                return true
            }) else { return }
            var response = ParallelJobs.$share.withValue(Self.share) { answer(request) }
            if inFlight.withLock({ $0.removeValue(forKey: id)?.cancelled ?? false }) {
                response = Self.response(id: id, exitCode: 0)
                response.wasCancelled = true
            }
            respond(response)
        }
    }

    /// Runs `job` on a thread of its own now if fewer requests than cores
    /// are running, else when one finishes (in the order they came), with
    /// one core as its default `-j`: Bazel counts an action as one CPU and
    /// runs as many as there are, and a share that stays with a request
    /// after others start would put more jobs than cores at once.
    private func start(_ job: @escaping @Sendable () -> Void) {
        let admitted: Bool = schedule.withLock { s in
            guard s.running < slots else {
                s.waiting.append(job)
                return false
            }
            s.running += 1
            return true
        }
        if admitted { run(job) }
    }

    /// A request's default `-j`.
    static let share = 1

    private func run(_ job: @escaping @Sendable () -> Void) {
        queue.async { [self] in
            job()
            // The next waiting request takes this one's place.
            let next: (@Sendable () -> Void)? = schedule.withLock { s in
                guard !s.waiting.isEmpty else {
                    s.running -= 1
                    return nil
                }
                return s.waiting.removeFirst()
            }
            if let next { run(next) }
        }
    }

    /// A request not started is answered as cancelled now and never runs;
    /// one running finishes (a render has no safe point to stop at short of
    /// its atomic write) and is answered as cancelled; one already answered
    /// is not answered twice.
    private func cancel(_ id: Int32) {
        let waiting = inFlight.withLock { table -> Bool in
            guard let flight = table[id] else { return false }
            if flight.started {
                table[id]!.cancelled = true
                return false
            }
            table[id] = nil
            return true
        }
        if waiting {
            var response = Self.response(id: id, exitCode: 0)
            response.wasCancelled = true
            respond(response)
        }
    }

    /// Runs the request's command line, with what it prints as the output.
    private func answer(_ request: Blaze_Worker_WorkRequest) -> Blaze_Worker_WorkResponse {
        // Bazel expanded the flag files already (an argument `@x` left in a
        // request is an argument).
        let (code, printed) = StandardStreams.capturing { Worker.runCommandLine(request.arguments, expandingFlagFiles: false) }
        var response = Self.response(id: request.requestID, exitCode: code)
        response.output = printed
        return response
    }

    /// `EASEL_WORKER_MEMORY=1`: after each response, one line on standard
    /// error (Bazel's worker log) with the heap in use, resident memory,
    /// open descriptors, threads and the most compile jobs that ran at once
    /// — what the worker tests read to see that a long-lived worker stays
    /// flat and within its cores.
    private let reportsMemory = getenv("EASEL_WORKER_MEMORY").map { String(cString: $0) == "1" } ?? false
    private var responsesWritten = 0

    /// Called under the writing lock.
    private func reportMemory(after id: Int32) {
        responsesWritten += 1
        ProcessMemory.trim()
        let heap = ProcessMemory.heapInUse ?? -1, resident = ProcessMemory.resident ?? -1, fds = ProcessMemory.openDescriptors ?? -1
        StandardStreams.error("easel worker: memory after response \(responsesWritten) (request \(id)): heap \(heap) resident \(resident) descriptors \(fds) threads \(ProcessMemory.threads ?? -1) jobs-at-once \(ParallelJobs.mostAtOnce)\n")
    }

    private static func response(id: Int32, exitCode: Int32) -> Blaze_Worker_WorkResponse {
        var response = Blaze_Worker_WorkResponse()
        response.requestID = id
        response.exitCode = exitCode
        return response
    }

    /// One whole response at a time; Bazel gone ends the worker.
    private func respond(_ response: Blaze_Worker_WorkResponse) {
        let bytes: [UInt8]
        do {
            bytes = try response.serializedBytes()
        } catch {
            StandardStreams.error("easel worker: error: cannot encode a response: \(error)\n")
            Glibc.exit(1)
        }
        let written = writing.withLock { _ in
            let written = StandardStreams.writeAll(DelimitedMessageWriter.framed(bytes), to: responses)
            if written, reportsMemory { reportMemory(after: response.requestID) }
            return written
        }
        if !written {
            StandardStreams.error("easel worker: error: standard output closed; stopping\n")
            Glibc.exit(1)
        }
    }
}
