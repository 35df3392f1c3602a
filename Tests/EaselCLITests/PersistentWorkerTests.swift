import EaselTestSupport
import Foundation
import XCTest

/// `easel worker --persistent_worker` spoken to as Bazel speaks to it:
/// length-delimited WorkRequests on standard input, WorkResponses read
/// back from standard output. The messages are encoded and decoded here by
/// a few lines of protobuf wire format (`WireMessage`), not by the worker's
/// generated code, so a field numbered or typed wrongly on either side fails.
final class PersistentWorkerTests: XCTestCase {
    var dir: URL!
    let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../examples").standardized

    override func setUp() {
        dir = ExternalTool.temporaryDirectory(name)
    }

    // MARK: The wire format, written out

    /// Bazel 4.2's messages by field number: WorkRequest {1 arguments,
    /// 2 inputs, 3 request_id, 4 cancel}; WorkResponse {1 exit_code,
    /// 2 output, 3 request_id, 4 was_cancelled}.
    enum WireMessage {
        static func varint(_ value: UInt64) -> [UInt8] {
            var v = value, out: [UInt8] = []
            repeat {
                out.append(UInt8(v & 0x7f) | (v > 0x7f ? 0x80 : 0))
                v >>= 7
            } while v > 0
            return out
        }

        static func request(_ arguments: [String], id: Int32 = 0, cancel: Bool = false,
                            inputs: [(String, [UInt8])] = []) -> [UInt8] {
            var m: [UInt8] = []
            for a in arguments {
                m += [0x0a] + varint(UInt64(a.utf8.count)) + Array(a.utf8)
            }
            for (path, digest) in inputs {
                let input = [0x0a] + varint(UInt64(path.utf8.count)) + Array(path.utf8) + [0x12] + varint(UInt64(digest.count)) + digest
                m += [0x12] + varint(UInt64(input.count)) + input
            }
            if id != 0 { m += [0x18] + varint(UInt64(bitPattern: Int64(id))) }
            if cancel { m += [0x20, 0x01] }
            return varint(UInt64(m.count)) + m
        }

        struct Response: Equatable {
            var exitCode: Int32 = 0
            var output = ""
            var id: Int32 = 0
            var wasCancelled = false
        }

        /// Every response on the stream, and whatever bytes follow the last
        /// whole one (none, if the worker wrote only responses).
        static func responses(_ bytes: [UInt8]) -> (responses: [Response], leftover: Int) {
            var i = 0, out: [Response] = []
            func readVarint() -> UInt64? {
                var v: UInt64 = 0, shift: UInt64 = 0
                while i < bytes.count {
                    let b = bytes[i]; i += 1
                    v |= UInt64(b & 0x7f) << shift
                    if b & 0x80 == 0 { return v }
                    shift += 7
                }
                return nil
            }
            while i < bytes.count {
                let start = i
                guard let length = readVarint(), i + Int(length) <= bytes.count else { return (out, bytes.count - start) }
                let end = i + Int(length)
                var r = Response()
                while i < end {
                    guard let key = readVarint() else { return (out, bytes.count - start) }
                    switch (key >> 3, key & 7) {
                    case (1, 0): r.exitCode = Int32(truncatingIfNeeded: readVarint() ?? 0)
                    case (2, 2):
                        let n = Int(readVarint() ?? 0)
                        r.output = String(decoding: bytes[i..<i + n], as: UTF8.self); i += n
                    case (3, 0): r.id = Int32(truncatingIfNeeded: readVarint() ?? 0)
                    case (4, 0): r.wasCancelled = readVarint() != 0
                    default: return (out, bytes.count - start)
                    }
                }
                out.append(r)
            }
            return (out, 0)
        }
    }

    /// Runs a worker over these requests, standard input closed after them
    /// (Bazel's way of ending a worker); standard output as bytes.
    func serve(_ requests: [[UInt8]]) throws -> (responses: [WireMessage.Response], status: Int32, stderr: String, leftover: Int) {
        let (process, input, output, error) = try startWorker()
        input.fileHandleForWriting.write(Data(requests.flatMap { $0 }))
        try input.fileHandleForWriting.close()
        let stdout = [UInt8](output.fileHandleForReading.readDataToEndOfFile())
        let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let parsed = WireMessage.responses(stdout)
        return (parsed.responses, process.terminationStatus, stderr, parsed.leftover)
    }

    /// `easel worker --persistent_worker` with its three streams piped.
    func startWorker(onExit: (@Sendable () -> Void)? = nil) throws -> (Process, input: Pipe, output: Pipe, error: Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.easelExecutable)
        process.arguments = ["worker", "--persistent_worker"]
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        if let onExit { process.terminationHandler = { _ in onExit() } }
        try process.run()
        return (process, input, output, error)
    }

    func scene(_ name: String) -> String { examples.appendingPathComponent(name).path }

    // MARK: Tests

    /// One request at a time (no ids): each answered in order, a failing
    /// scene with its located diagnostics and status 1, the worker serving on
    /// after it; the picture the worker writes is the one `easel render` writes.
    func testSingleRequestsAreAnsweredInOrderAndAFailingSceneDoesNotStopTheWorker() throws {
        let bad = dir.appendingPathComponent("bad.scene.xml")
        try ##"<scene width="10" height="10"><rect width="4" height="4" fill="#zz0000"/></scene>"##.write(to: bad, atomically: true, encoding: .utf8)
        let folder = dir.appendingPathComponent("scenes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["card", "flo-graph"] {
            try FileManager.default.copyItem(atPath: scene(name + ".scene.xml"), toPath: folder.appendingPathComponent(name + ".scene.xml").path)
        }
        let card = dir.appendingPathComponent("first.png").path, again = dir.appendingPathComponent("card-again.png").path
        let (responses, status, stderr, leftover) = try serve([
            WireMessage.request(["render", scene("card.scene.xml"), "-o", card, "--scale", "2"],
                                inputs: [(scene("card.scene.xml"), [1, 2, 3])]),
            WireMessage.request(["render", bad.path, "-o", dir.appendingPathComponent("bad.png").path]),
            WireMessage.request(["render", scene("card.scene.xml"), "--out-dir", dir.path, "--scales", "1,2"]),
            WireMessage.request(["render", scene("card.scene.xml"), "-o", again, "--scale", "2"]),
            WireMessage.request(["build", folder.path, "--out-dir", dir.appendingPathComponent("built").path, "--jobs", "2"]),
        ])
        XCTAssertEqual(status, 0, stderr)
        XCTAssertEqual(leftover, 0, "standard output holds responses and nothing else")
        XCTAssertEqual(responses.map(\.exitCode), [0, 1, 0, 0, 0], responses.map(\.output).joined())
        guard responses.count == 5 else { return }
        XCTAssertEqual(responses.map(\.id), [0, 0, 0, 0, 0])
        // What a build says, from its threads too, is its response's.
        XCTAssertTrue(responses[4].output.contains("rendered card.scene.xml"), responses[4].output)
        XCTAssertTrue(responses[4].output.contains("easel build: 2 rendered"), responses[4].output)
        XCTAssertTrue(responses[1].output.contains("bad.scene.xml:1:64: error:"), responses[1].output)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dir.appendingPathComponent("bad.png").path))

        let direct = dir.appendingPathComponent("direct.png").path
        XCTAssertEqual(try ExternalTool.run(ExternalTool.easelExecutable, ["render", scene("card.scene.xml"), "-o", direct, "--scale", "2"]).status, 0)
        let expected = try Data(contentsOf: URL(fileURLWithPath: direct))
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: card)), expected)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: again)), expected, "the second render of the same scene, with what the first kept")
        XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("card@2x.png")), expected)
    }

    /// Requests with ids are answered once each, with their ids, whatever
    /// order they finish in; each writes its own picture. Runs under
    /// ThreadSanitizer in CI ("Thread"): the worker runs them on threads.
    func testMultiplexedRequestsRunOnThreadsAndEachIsAnsweredOnceWithItsId() throws {
        let scenes = ["card.scene.xml", "flo-graph.scene.xml", "gradient-gallery.scene.xml", "steps-graph.scene.xml", "card.scene.xml", "flo-graph.scene.xml"]
        var requests: [[UInt8]] = []
        for (i, name) in scenes.enumerated() {
            requests.append(WireMessage.request(["render", scene(name), "-o", dir.appendingPathComponent("out\(i + 1).png").path], id: Int32(i + 1)))
        }
        let (responses, status, stderr, leftover) = try serve(requests)
        XCTAssertEqual(status, 0, stderr)
        XCTAssertEqual(leftover, 0)
        XCTAssertEqual(responses.map(\.id).sorted(), [1, 2, 3, 4, 5, 6], "one response per request")
        XCTAssertTrue(responses.allSatisfy { $0.exitCode == 0 && !$0.wasCancelled }, "\(responses)")
        for (i, name) in scenes.enumerated() {
            let direct = dir.appendingPathComponent("direct\(i + 1).png").path
            XCTAssertEqual(try ExternalTool.run(ExternalTool.easelExecutable, ["render", scene(name), "-o", direct]).status, 0)
            XCTAssertEqual(try Data(contentsOf: dir.appendingPathComponent("out\(i + 1).png")), try Data(contentsOf: URL(fileURLWithPath: direct)), name)
        }
    }

    /// Sixteen multiplexed requests at once: at most one per core runs, the
    /// others wait holding no thread, and each runs on one core by default
    /// — the worker's threads stay within a bound of the cores, not of
    /// the requests (before 1.3 each waiting request blocked a thread of its
    /// own, and each running one took every core: up to cores² threads).
    func testMultiplexedRequestsWaitWithoutThreadsAndShareTheCores() throws {
        // Each request renders four scenes: with every core its own, two
        // requests at once would run twice as many jobs as there are cores.
        let scenes = ["card", "flo-graph", "gradient-gallery", "steps-graph"].map { scene($0 + ".scene.xml") }
        let requests = (1...16).map { id in
            WireMessage.request(["render"] + scenes + ["--out-dir", dir.appendingPathComponent("o\(id)").path], id: Int32(id))
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExternalTool.easelExecutable)
        process.arguments = ["worker", "--persistent_worker"]
        process.environment = ProcessInfo.processInfo.environment.merging(["EASEL_WORKER_MEMORY": "1"]) { $1 }
        let input = Pipe(), output = Pipe(), error = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = error
        try process.run()
        input.fileHandleForWriting.write(Data(requests.flatMap { $0 }))
        try input.fileHandleForWriting.close()
        // After each response, while the rest are in flight: the worker's
        // threads, read from outside.
        var threads: [Int] = [], stdout: [UInt8] = []
        while true {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty { break }
            stdout += more
            threads.append((try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/task"))?.count ?? 0)
        }
        let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let responses = WireMessage.responses(stdout).responses
        XCTAssertEqual(responses.map(\.id).sorted(), Array(1...16), stderr)
        XCTAssertTrue(responses.allSatisfy { $0.exitCode == 0 }, "\(responses)")
        let cores = ProcessInfo.processInfo.activeProcessorCount
        // The jobs that ran at once, as the worker counts them: never more than the cores.
        let jobs = stderr.split(separator: "\n").compactMap { line -> Int? in
            let words = line.split(separator: " ")
            return words.firstIndex(of: "jobs-at-once").flatMap { Int(words[$0 + 1]) }
        }
        XCTAssertEqual(jobs.count, 16, "a report per response: \(stderr)")
        XCTAssertLessThanOrEqual(jobs.max() ?? .max, cores, "compile jobs at once")
        // The main thread, the runners (one per core) and what Dispatch
        // keeps for them (at most a core's worth more); never one a request.
        XCTAssertLessThanOrEqual(threads.max() ?? .max, 2 * cores + 3, "threads while 16 requests were in flight: \(threads)")
    }

    /// A cancel for a request in flight is answered `was_cancelled` for that
    /// id, once; a cancel for an id already answered (or never sent) gets no
    /// answer at all.
    func testACancelledRequestIsAnsweredCancelledExactlyOnce() throws {
        var requests: [[UInt8]] = []
        for id in Int32(1)...4 {
            requests.append(WireMessage.request(["render", scene("gradient-gallery.scene.xml"), "-o", dir.appendingPathComponent("g\(id).png").path, "--scale", "2"], id: id))
        }
        requests.append(WireMessage.request([], id: 4, cancel: true))
        requests.append(WireMessage.request([], id: 99, cancel: true))
        let (responses, status, stderr, leftover) = try serve(requests)
        XCTAssertEqual(status, 0, stderr)
        XCTAssertEqual(leftover, 0)
        XCTAssertEqual(responses.map(\.id).sorted(), [1, 2, 3, 4], "\(responses)")
        XCTAssertEqual(responses.first { $0.id == 4 }?.wasCancelled, true)
        XCTAssertTrue(responses.filter { $0.id != 4 }.allSatisfy { $0.exitCode == 0 && !$0.wasCancelled })
    }

    /// A request that is not a render or build command line is answered
    /// with status 2 and the reason; the worker goes on.
    func testABadCommandLineIsAnsweredWithStatusTwo() throws {
        let out = dir.appendingPathComponent("ok.png").path
        let (responses, status, stderr, leftover) = try serve([
            WireMessage.request(["render"]),
            WireMessage.request(["render", scene("card.scene.xml"), "-o", out, "--bogus"]),
            WireMessage.request(["preview", scene("card.scene.xml")]),
            WireMessage.request(["build", examples.path, "--out-dir", dir.path, "--watch"]),
            WireMessage.request([]),
            WireMessage.request(["render", scene("card.scene.xml"), "-o", out]),
            // Bazel expanded flag files already: `@x` in a request is an argument.
            WireMessage.request(["@" + dir.appendingPathComponent("none.params").path]),
        ])
        XCTAssertEqual(status, 0, stderr)
        XCTAssertEqual(leftover, 0)
        XCTAssertEqual(responses.map(\.exitCode), [2, 2, 2, 2, 2, 0, 2], responses.map(\.output).joined(separator: "|"))
        guard responses.count == 7 else { return }
        XCTAssertTrue(responses[6].output.contains("not '@"), responses[6].output)
        XCTAssertTrue(responses[0].output.contains("Missing expected argument"), responses[0].output)
        XCTAssertTrue(responses[1].output.contains("--bogus"), responses[1].output)
        XCTAssertTrue(responses[2].output.contains("not 'preview'"), responses[2].output)
        XCTAssertTrue(responses[3].output.contains("--watch"), responses[3].output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: out))
    }

    /// A request carrying the library versions its cache key recorded runs
    /// only in a process that loads those versions: under a key made on
    /// other libraries it is refused (status 1, both versions named), so
    /// its picture never lands in that key's cache entry.
    func testARequestUnderAKeyMadeOnOtherLibrariesIsRefused() throws {
        let versions = try ExternalTool.run(ExternalTool.easelExecutable, ["worker", "--versions"])
        XCTAssertEqual(versions.status, 0)
        XCTAssertTrue(versions.stdout.hasPrefix("easel "), versions.stdout)
        XCTAssertTrue(versions.stdout.contains("\ncairo "), versions.stdout)
        XCTAssertTrue(versions.stdout.contains("\npango "), versions.stdout)
        let same = dir.appendingPathComponent("same.versions"), other = dir.appendingPathComponent("other.versions")
        try versions.stdout.write(to: same, atomically: true, encoding: .utf8)
        let cairo = try XCTUnwrap(versions.stdout.split(separator: "\n").first { $0.hasPrefix("cairo ") })
        try versions.stdout.replacingOccurrences(of: String(cairo), with: "cairo 0.9.0").write(to: other, atomically: true, encoding: .utf8)
        let ok = dir.appendingPathComponent("ok.png").path, refused = dir.appendingPathComponent("refused.png").path
        let (responses, status, stderr, leftover) = try serve([
            WireMessage.request(["--expect-versions", same.path, "render", scene("card.scene.xml"), "-o", ok]),
            WireMessage.request(["--expect-versions", other.path, "render", scene("card.scene.xml"), "-o", refused]),
        ])
        XCTAssertEqual(status, 0, stderr)
        XCTAssertEqual(leftover, 0)
        XCTAssertEqual(responses.map(\.exitCode), [0, 1], responses.map(\.output).joined())
        guard responses.count == 2 else { return }
        XCTAssertTrue(responses[1].output.contains("this process loads \(cairo)"), responses[1].output)
        XCTAssertTrue(responses[1].output.contains("other.versions"), responses[1].output)
        XCTAssertTrue(FileManager.default.fileExists(atPath: ok))
        XCTAssertFalse(FileManager.default.fileExists(atPath: refused))
    }

    /// Bytes that are not WorkRequests end the worker with status 1 and a
    /// message on standard error, nothing on standard output — both when
    /// input ends inside a "request" and when a whole frame is not one
    /// (standard input still open: the worker must not wait for more).
    func testGarbageOnStandardInputEndsTheWorkerWithAMessage() throws {
        let truncated = try ExternalTool.run(ExternalTool.easelExecutable, ["worker", "--persistent_worker"],
                                             stdin: Data("this is not a protocol buffer\n".utf8))
        XCTAssertEqual(truncated.status, 1)
        XCTAssertEqual(truncated.stdout, "")
        XCTAssertTrue(truncated.stderr.contains("easel worker: error: standard input ended inside a request"), truncated.stderr)

        let ended = DispatchSemaphore(value: 0)
        let (process, input, output, error) = try startWorker(onExit: { ended.signal() })
        // A frame of 3 bytes whose first is a key of wire type 7 (none such).
        input.fileHandleForWriting.write(Data([0x03, 0xff, 0xff, 0x0f]))
        let exited = ended.wait(timeout: .now() + 60) == .success
        if !exited { process.terminate() }
        XCTAssertTrue(exited, "the worker waited for more input after a frame that is no WorkRequest")
        try input.fileHandleForWriting.close()
        let stderr = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 1)
        XCTAssertEqual(output.fileHandleForReading.readDataToEndOfFile().count, 0)
        XCTAssertTrue(stderr.contains("is not one"), stderr)
    }

    /// Without --persistent_worker the arguments run once, a flag file
    /// standing for its lines: what Bazel runs where it uses no worker.
    func testWithoutTheFlagTheArgumentsRunOnceFromAFlagFile() throws {
        let out = dir.appendingPathComponent("once.png").path, direct = dir.appendingPathComponent("direct.png").path
        let params = dir.appendingPathComponent("render.params")
        try ["render", scene("flo-graph.scene.xml"), "-o", out, "--scale", "2"].joined(separator: "\n").appending("\n")
            .write(to: params, atomically: true, encoding: .utf8)
        let once = try ExternalTool.run(ExternalTool.easelExecutable, ["worker", "@" + params.path])
        XCTAssertEqual(once.status, 0, once.stderr)
        XCTAssertEqual(try ExternalTool.run(ExternalTool.easelExecutable, ["render", scene("flo-graph.scene.xml"), "-o", direct, "--scale", "2"]).status, 0)
        XCTAssertEqual(try Data(contentsOf: URL(fileURLWithPath: out)), try Data(contentsOf: URL(fileURLWithPath: direct)))
        let missing = try ExternalTool.run(ExternalTool.easelExecutable, ["worker", "@" + dir.appendingPathComponent("none.params").path])
        XCTAssertEqual(missing.status, 2)
        XCTAssertTrue(missing.stderr.contains("cannot read the flag file"), missing.stderr)
    }
}
