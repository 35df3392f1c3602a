import ArgumentParser
import Easel
import EaselParse
import EaselCommandLine
import FoundationEssentials
import Glibc

/// `easel worker`: Bazel's persistent worker with `--persistent_worker`
/// (`PersistentWorker`), or else the command line its arguments give (flag
/// files expanded), run once — the form Bazel uses where it runs no worker
/// (sandboxed, remote or `--strategy=Easel=local`), so one rule serves both.
public struct Worker: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "worker",
        abstract: "Run `easel render` or `easel build` command lines for Bazel, as a persistent worker or once.",
        discussion: """
            With --persistent_worker, length-delimited WorkRequest protocol buffers are read from standard input and \
            answered with WorkResponses on standard output (Bazel's protocol; multiplexed when requests carry ids, \
            cancelled requests answered as such): each request's arguments are one render or build command line, \
            its response the exit status and what the command printed. Font sets and decoded images are kept \
            between requests. Without the flag the arguments are run once: `easel worker @FILE` reads one argument \
            a line from FILE (Bazel's multiline parameter file). A command line may start with --expect-versions FILE \
            (what --versions printed when a cache key was made): a process that loads other library versions \
            refuses it, status 1.
            """)

    @Flag(name: .customLong("persistent_worker"), help: "Serve WorkRequests on standard input until it closes.")
    var persistentWorker = false

    @Flag(help: "Print the versions of Easel and of the libraries that decide its bytes, one a line, and exit (for a build's cache key).")
    var versions = false

    @Argument(parsing: .captureForPassthrough, help: "A render or build command line, or @FILE with one argument a line.")
    var arguments: [String] = []

    // Reached only through `easel help worker`-style parses; `main` calls `run(_:)`.
    public func run() throws {
        let code = Self.run((persistentWorker ? ["--persistent_worker"] : []) + (versions ? ["--versions"] : []) + arguments)
        if code != 0 { throw ExitCode(code) }
    }

    /// The arguments after `worker`, run to an exit status.
    public static func run(_ arguments: [String]) -> Int32 {
        if arguments.first.map({ ["-h", "--help", "help"].contains($0) }) == true {
            return EaselCommand.run(["help", configuration.commandName ?? "worker"])
        }
        if arguments == ["--version"] { return EaselCommand.run(["--version"]) }
        if arguments == ["--versions"] {
            StandardStreams.output(versionLines)
            return 0
        }
        if arguments.contains("--persistent_worker") {
            // Bazel starts the worker with the action's arguments other than
            // its flag file, then --persistent_worker: here, none.
            let others = arguments.filter { $0 != "--persistent_worker" }
            guard others.isEmpty else {
                StandardStreams.error("easel worker: error: --persistent_worker takes no other arguments (got \(others.joined(separator: " ")))\n")
                return 2
            }
            return execWorkerProgram()
        }
        return runCommandLine(arguments)
    }

    /// One request's command line (a persistent worker's request, or the
    /// arguments given once): `render …` or `build …`, flag files expanded.
    public static func runCommandLine(_ arguments: [String], expandingFlagFiles: Bool = true) -> Int32 {
        var expanded = arguments
        if expandingFlagFiles {
            switch FlagFiles.expand(arguments) {
            case .success(let list): expanded = list
            case .failure(let problem):
                StandardStreams.error("easel worker: error: \(problem.message)\n")
                return 2
            }
        }
        // `--expect-versions FILE` first: the versions a build's cache key
        // recorded (`--versions`, written by another process, maybe before
        // the machine's libraries changed). A process that loaded others
        // would put its pictures under a key that says otherwise: it stops.
        if expanded.first == "--expect-versions" {
            guard expanded.count >= 2 else {
                StandardStreams.error("easel worker: error: --expect-versions needs a file\n")
                return 2
            }
            if let mismatch = versionMismatch(recordedIn: expanded[1]) {
                StandardStreams.error("easel worker: error: \(mismatch)\n")
                return 1
            }
            expanded.removeFirst(2)
        }
        if let refusal = refusal(of: expanded) {
            StandardStreams.error("easel worker: error: \(refusal)\n")
            return 2
        }
        return EaselCommand.run(expanded)
    }

    /// `easel 0.2.0`, then `cairo 1.16.0`… as this process loaded them:
    /// asked once (a loaded library's version does not change), however
    /// many requests compare with it.
    static let versionLines: String = {
        (["easel \(Easel.version)"] + LibraryVersions.all.map { "\($0.library) \($0.version)" }).map { $0 + "\n" }.joined()
    }()

    /// Replaces this process with `easel-worker --persistent_worker`,
    /// installed beside `easel`: the protocol buffers (swift-protobuf, which
    /// brings Foundation and ICU) are linked only into that program, so a
    /// render started per action neither loads nor pays for them.
    static func execWorkerProgram() -> Int32 {
        let program = siblingProgram("easel-worker")
        guard FileManager.default.isExecutableFile(atPath: program) else {
            StandardStreams.error("easel worker: error: '\(program)' is missing; easel-worker is installed beside easel (scripts/install, or swift build -c release --product easel-worker for a release easel)\n")
            return 1
        }
        let words: [String] = [program, "--persistent_worker"]
        let argv = words.map { strdup($0) } + [nil]
        execv(program, argv)
        StandardStreams.error("easel worker: error: cannot run '\(program)': \(String(cString: strerror(errno)))\n")
        return 1
    }

    /// Why the versions recorded in `path` are not this process's, or nil.
    static func versionMismatch(recordedIn path: String) -> String? {
        // A versions file is a few lines: anything past 64 KB is not one.
        guard case .success(let bytes) = FileBytes.read(path, limit: 64 << 10) else {
            return "cannot read the versions file '\(path)'"
        }
        let recorded = String(decoding: bytes, as: UTF8.self)
        guard recorded != versionLines else { return nil }
        let mine = versionLines.split(separator: "\n"), theirs = recorded.split(separator: "\n")
        let loaded = mine.filter { !theirs.contains($0) }.joined(separator: ", ")
        let expected = theirs.filter { !mine.contains($0) }.joined(separator: ", ")
        return "this process loads \(loaded.isEmpty ? "other versions" : loaded), but '\(path)' records \(expected.isEmpty ? "others" : expected) (a cache key made on other libraries): make the file again (bazel clean) and rebuild"
    }

    /// Why a command line is not one a worker runs, or nil.
    package static func refusal(of arguments: [String]) -> String? {
        let commands = [Render.configuration.commandName, Build.configuration.commandName]
        guard let command = arguments.first else {
            return "a request needs a command line: render … or build …"
        }
        guard commands.contains(command) else {
            return "a request runs 'render' or 'build', not '\(command)'"
        }
        // A watch never answers.
        if command == Build.configuration.commandName, arguments.contains("--watch") {
            return "build --watch never ends: a request runs one build"
        }
        return nil
    }
}
