import Easel
import Foundation

/// glibc's `malloc_trim` (malloc.h, which the Glibc module leaves out).
@_silgen_name("malloc_trim")
func mallocTrim(_ pad: Int) -> Int32

// A long-lived process's view of Easel (`easel build --watch`, the preview,
// a rendering service): one process compiles and renders the bad-input
// corpus, the fuzz findings, the examples and the docs scenes ROUNDS times
// through the library, on JOBS threads, and reports its resident memory
// after each round. It fails (exit 1) if memory grows by more than 100 KB
// from round to round in most rounds after the second (a leak), or ends more
// than 25% above round 2 (the caches a process keeps — fonts, glyphs,
// malloc's arenas — fill in steps).
//   EaselSoak ROOT [--rounds 20] [--jobs 1] [--formats png,pdf,svg|none]

func residentMegabytes() -> Double {
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let pages = statm.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

func option(_ name: String, _ fallback: Int, in arguments: [String]) -> Int {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count, let v = Int(arguments[i + 1]) else { return fallback }
    return v
}
let arguments = Array(CommandLine.arguments.dropFirst())
let rounds = option("--rounds", 20, in: arguments), jobs = option("--jobs", 1, in: arguments)
/// `--formats png,pdf,svg` (default), or `none` to compile only.
let formats: [OutputFormat] = {
    guard let i = arguments.firstIndex(of: "--formats"), i + 1 < arguments.count else { return [.png, .pdf, .svg] }
    return arguments[i + 1].split(separator: ",").compactMap { OutputFormat(rawValue: String($0)) }
}()
let root = URL(fileURLWithPath: arguments.enumerated().first { i, a in
    !a.hasPrefix("-") && (i == 0 || !arguments[i - 1].hasPrefix("--"))
}?.element ?? ".")
var scenes: [URL] = []
for folder in ["Tests/Fixtures/bad", "fuzz/findings", "examples", "examples/themed", "docs/scenes"] {
    let dir = root.appendingPathComponent(folder)
    for name in ((try? FileManager.default.contentsOfDirectory(atPath: dir.path)) ?? []).sorted()
    where name.hasSuffix(".xml") {
        scenes.append(dir.appendingPathComponent(name))
    }
}
guard !scenes.isEmpty else {
    print("no scenes under \(root.path)")
    exit(2)
}

// Font-set churn: twelve font folders (each a copy of the test font), more
// sets than a process keeps (8), so every round makes and frees font sets,
// their fontconfig configurations and Pango font maps — a leak there grows
// every round.
let fontFolders: [URL] = (0..<12).compactMap { i in
    let folder = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("easel-soak-fonts-\(getpid())-\(i)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let font = folder.appendingPathComponent("Inter.ttf")
    if !FileManager.default.fileExists(atPath: font.path) {
        try? FileManager.default.copyItem(at: root.appendingPathComponent("Tests/Fixtures/fonts/InterVariable-Latin.ttf"), to: font)
    }
    return folder
}
let fontScene = "<scene width=\"120\" height=\"30\"><text font-family=\"Inter\" font-weight=\"600\">Soak 42</text></scene>"
enum Job: Sendable { case scene(URL), fontFolder(URL) }
let jobsList = scenes.map(Job.scene) + fontFolders.map(Job.fontFolder)

var memory: [Double] = []
let start = Date()
for round in 1...rounds {
    let outcomes = ParallelJobs.map(jobsList, jobs: jobs) { job -> Bool in
        var options = Easel.Options()
        var session: CompileSession
        let compiled: CompiledScene?
        switch job {
        case .scene(let url):
            session = CompileSession(options: options)
            compiled = session.compile(fileAt: url)
        case .fontFolder(let folder):
            options.fontDirectories = [folder]
            options.systemFonts = false
            session = CompileSession(options: options)
            compiled = session.compile(source: fontScene, baseDirectory: folder)
        }
        guard let scene = compiled else { return false }
        return session.run {
            for format in formats { _ = try scene.render(format: format, scale: format == .png ? 1 : nil, time: format == .svg ? nil : 0) }
        }
    }
    // Freed memory back to the system first: what is measured is what the
    // process holds, not what malloc's per-thread arenas keep for reuse
    // (with -j 4 each arena keeps its own peak — a 230 MB PDF of the
    // paint-budget case — so the untrimmed figure wanders with which thread
    // rendered what).
    _ = mallocTrim(0)
    memory.append(residentMegabytes())
    print(String(format: "round %2d: %d scenes (%d rendered), resident %.1f MB", round, jobsList.count,
                 outcomes.filter { $0 }.count, memory.last!))
}
// A leak grows memory every round; the caches a process fills (fonts,
// glyphs, malloc's arenas) grow it in steps — with -j 4 a new arena adds
// about 2 MB at once, in whichever round four threads first collide. So the
// leak test is the median growth from one round to the next after round 2
// (a step is one round, a leak is all of them): at most 100 KB; and at most
// 25% in all over round 2.
let early = memory[min(1, memory.count - 1)]
let steps = zip(memory.dropFirst(2), memory.dropFirst(1)).map { ($0 - $1) * 1024 }.sorted()
let medianStep = steps.isEmpty ? 0 : steps[steps.count / 2]
let peak = memory.dropFirst(2).max() ?? early
let totalGrowth = (peak / early - 1) * 100
print(String(format: "-j %d, %d rounds in %.0f s: after round 2 %.1f MB, highest after it %.1f MB (%+.1f%%), last %.1f MB; median growth a round %+.0f KB",
             jobs, rounds, Date().timeIntervalSince(start), early, peak, totalGrowth, memory.last!, medianStep))
if medianStep > 100 {
    print("FAIL: resident memory grew by more than 100 KB in most rounds: a leak")
    exit(1)
}
if totalGrowth > 25 {
    print("FAIL: resident memory grew more than 25% after the second round")
    exit(1)
}
