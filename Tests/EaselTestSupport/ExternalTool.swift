import Foundation
import XCTest

/// Runs a reference tool (rsvg-convert, pdftoppm, qpdf, xmllint, the easel
/// executable) and captures what it printed.
public struct ToolResult {
    public var status: Int32
    public var stdout: String
    public var stderr: String
}

public enum ExternalTool {
    /// Full path of `name` on PATH, or nil.
    /// PATH, then where pip may put scripts (resvg) outside it: ~/.local/bin
    /// and Python's scripts folder.
    static let searchPath: [String] = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        var dirs = path.split(separator: ":").map(String.init)
        dirs.append(NSHomeDirectory() + "/.local/bin")
        if let scripts = try? run("/usr/bin/env", ["python3", "-c", "import sysconfig; print(sysconfig.get_path('scripts'))"]) {
            dirs.append(scripts.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        return dirs
    }()

    public static func find(_ name: String) -> String? {
        for dir in searchPath {
            let candidate = "\(dir)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// Runs `name` with `arguments`. A missing tool fails the test rather than
    /// skipping it: the README's test command installs every tool, and a
    /// cross-check that silently does not run proves nothing.
    @discardableResult
    public static func run(_ name: String, _ arguments: [String], stdin: Data? = nil,
                           file: StaticString = #filePath, line: UInt = #line) throws -> ToolResult {
        let executable: String
        if name.hasPrefix("/") {
            executable = name
        } else {
            guard let found = find(name) else {
                XCTFail("'\(name)' is not installed; run the README's test command (scripts/test), which installs it",
                        file: file, line: line)
                throw NSError(domain: "ExternalTool", code: 127)
            }
            executable = found
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe(), err = Pipe(), input = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(stdin) }
        try input.fileHandleForWriting.close()
        // Read before waiting, so a tool that prints a lot cannot block.
        let o = out.fileHandleForReading.readDataToEndOfFile()
        let e = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ToolResult(status: process.terminationStatus,
                          stdout: String(decoding: o, as: UTF8.self), stderr: String(decoding: e, as: UTF8.self))
    }

    /// The built `easel` executable, next to the test bundle.
    public static var easelExecutable: String {
        let products = Bundle.allBundles.map(\.bundleURL).first { $0.pathExtension == "xctest" }?
            .deletingLastPathComponent()
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        return products.appendingPathComponent("easel").path
    }

    /// Renders `scene` with the built `easel` and asserts what every bad
    /// scene must give: exit 1, `expected` in the message, no output, and
    /// nothing of /etc/passwd shown.
    public static func assertRejected(_ scene: URL, expected: String, name: String,
                                      file: StaticString = #filePath, line: UInt = #line) throws {
        let out = scene.deletingPathExtension().appendingPathExtension("png")
        let r = try run(easelExecutable, ["render", scene.path, "-o", out.path], file: file, line: line)
        XCTAssertEqual(r.status, 1, "\(name): \(r.stderr)", file: file, line: line)
        XCTAssertTrue(r.stderr.contains(expected), "\(name): expected '\(expected)' in:\n\(r.stderr)", file: file, line: line)
        XCTAssertFalse(r.stderr.contains("root:x:0"), "\(name) leaked /etc/passwd", file: file, line: line)
        XCTAssertFalse(FileManager.default.fileExists(atPath: out.path), "\(name) wrote an output", file: file, line: line)
    }

    /// A fresh temporary folder for one test.
    public static func temporaryDirectory(_ name: String = #function) -> URL {
        let safe = name.filter { $0.isLetter || $0.isNumber }
        let dir = URL(fileURLWithPath: NSTemporaryDirectory())
            .appendingPathComponent("easel-tests-\(safe)-\(UUID().uuidString.prefix(8))")
        try? FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The repository root (for examples/ and schemas/).
    public static var repositoryRoot: URL {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
        }
        return URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }
}
