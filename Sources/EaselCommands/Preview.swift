import ArgumentParser
import EaselCommandLine
import FoundationEssentials
import Glibc

/// `easel preview` replaces this process with `easel-preview`, installed
/// beside `easel`: the HTTP server is linked only into that program, so
/// `easel render` neither loads it nor pays for it at start-up.
struct Preview: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "preview",
        abstract: "Serve a live preview of scenes: a page that re-renders them as you save.",
        discussion: """
            Prints the page's URL (http://127.0.0.1:8080/ by default). Each scene is re-rendered when it or a file it \
            reads changes; while it has errors the page shows them over the last good picture. The server listens on \
            loopback only unless --host says otherwise. Ctrl-C stops it.
            """)

    @OptionGroup var options: PreviewOptions

    func run() throws {
        if options.reportMissingScenes() { throw ExitCode(1) }
        let arguments = CommandLine.arguments
        let tail = arguments.firstIndex(of: "preview").map { Array(arguments[($0 + 1)...]) } ?? []
        let program = siblingProgram("easel-preview")
        guard FileManager.default.isExecutableFile(atPath: program) else {
            StandardStreams.error("easel: error: '\(program)' is missing; easel-preview is installed beside easel (scripts/install, or swift build -c release --product easel-preview for a release easel)\n")
            throw ExitCode(1)
        }
        let argv = ([program] + tail).map { strdup($0) } + [nil]
        execv(program, argv)
        StandardStreams.error("easel: error: cannot run '\(program)': \(String(cString: strerror(errno)))\n")
        throw ExitCode(1)
    }

}

/// A program installed beside this executable (symlinks resolved).
func siblingProgram(_ name: String) -> String {
    let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    return URL(fileURLWithPath: me).deletingLastPathComponent().appendingPathComponent(name).path
}
