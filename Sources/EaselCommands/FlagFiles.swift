import FoundationEssentials

/// Arguments read from files: `@FILE` or `--flagfile=FILE` stands for the
/// file's lines, one argument each (Bazel's "multiline" parameter files,
/// which is what `easel_image` writes). `@@x` is the argument `@x`.
enum FlagFiles {
    struct Problem: Error {
        var message: String
    }

    static func expand(_ arguments: [String]) -> Result<[String], Problem> {
        var expanded: [String] = []
        for argument in arguments {
            let path: Substring
            if argument.hasPrefix("@@") {
                expanded.append(String(argument.dropFirst()))
                continue
            } else if argument.hasPrefix("@"), argument.count > 1 {
                path = argument.dropFirst()
            } else if argument.hasPrefix("--flagfile=") {
                path = argument.dropFirst("--flagfile=".count)
            } else {
                expanded.append(argument)
                continue
            }
            guard let data = FileManager.default.contents(atPath: String(path)),
                  let text = String(data: data, encoding: .utf8) else {
                return .failure(Problem(message: "cannot read the flag file '\(path)'"))
            }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            expanded += lines
        }
        return .success(expanded)
    }
}
