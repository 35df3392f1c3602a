import EaselModel

/// `docs/diagnostics.md`, generated from `DiagnosticCode` (a test keeps the
/// file equal to this, and compiles every scene example to check that it
/// reports its code).
public enum DiagnosticIndex {
    /// Diagnostics about the command line rather than a scene (a `--set`
    /// naming no parameter, two inputs writing one output): exit status 2.
    public static let commandLineCodes: Set<DiagnosticCode> = [.unknownSetting, .outputCollision]

    public static func markdown() -> String {
        var out = """
        # Diagnostics

        Every message Easel prints has a stable code: `E` and four digits for an
        error, `W` for a warning. A switch that makes a warning an error
        (`--missing-glyphs error`, `--text-overflow error`) keeps the number and
        changes the letter: `W0605` becomes `E0605`. The codes appear at the end
        of each text message, as `code` in `--diagnostics-format json`, and as
        rule ids in `--diagnostics-format sarif`.

        With `--diagnostics-format json` each diagnostic is one line on stderr:

        ```json
        {"file":"card.scene.xml","line":3,"column":32,"endLine":null,"endColumn":null,"severity":"error","code":"E0103","message":"unknown attribute 'fil' on <view>; did you mean 'fill'?","suggestion":"fill"}
        ```

        `line` and `column` are 1-based and null for a problem that belongs to no
        place in a file (an output that cannot be written); columns count UTF-8
        bytes, as clang's do. `endLine`/`endColumn` mark the end of the value the
        message is about, where Easel knows it. `--diagnostics-format sarif`
        prints one [SARIF 2.1.0](https://docs.oasis-open.org/sarif/sarif/v2.1.0/sarif-v2.1.0.html)
        log for the run, which GitHub code scanning and editors read (its columns
        count code points).

        Errors stop the scene from being written (exit status 1); a code marked
        *command line* is a mistake on the command line (exit status 2).


        """
        for code in DiagnosticCode.allCases {
            let id = code.code(code.usualSeverity)
            out += "## \(id) \(code.name)\n\n"
            out += code.summary + "\n\n"
            if commandLineCodes.contains(code) {
                out += "*Command line: exit status 2.*\n\n"
            }
            if code.example.hasPrefix("$") {
                out += "```sh\n\(code.example)\n```\n\n"
            } else {
                out += "```xml\n\(code.example)\n```\n\n"
            }
        }
        return out
    }
}
