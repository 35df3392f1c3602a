import FoundationEssentials

/// Arguments read from files, as Bazel expands them for a worker: `@FILE`
/// or `--flagfile=FILE` stands for the file's lines, one argument each
/// (Bazel's "multiline" parameter files, which the rules write), expanded
/// again where a line is itself one; an argument starting `@@` is left as
/// it is.
enum FlagFiles {
    struct Problem: Error {
        var message: String
    }

    /// Files naming files: a cycle or a chain this deep is a mistake.
    static let maximumDepth = 16

    static func expand(_ arguments: [String], depth: Int = 0) -> Result<[String], Problem> {
        var expanded: [String] = []
        for argument in arguments {
            let path: Substring
            if argument.hasPrefix("@"), !argument.hasPrefix("@@"), argument.count > 1 {
                path = argument.dropFirst()
            } else if argument.hasPrefix("--flagfile=") {
                path = argument.dropFirst("--flagfile=".count)
            } else {
                expanded.append(argument)
                continue
            }
            guard depth < maximumDepth else {
                return .failure(Problem(message: "flag files name flag files more than \(maximumDepth) deep (at '\(path)')"))
            }
            guard let data = FileManager.default.contents(atPath: String(path)),
                  let text = String(data: data, encoding: .utf8) else {
                return .failure(Problem(message: "cannot read the flag file '\(path)'"))
            }
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            switch expand(lines, depth: depth + 1) {
            case .success(let more): expanded += more
            case .failure(let problem): return .failure(problem)
            }
        }
        return .success(expanded)
    }
}
