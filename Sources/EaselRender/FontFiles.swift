import EaselLayout
import EaselModel

/// The numbers of the font files runs name (`FontFileID`): a path leaves
/// the font layer only as its number. Each path is numbered once a process
/// (a declared font's anonymous file path is never given to other bytes:
/// `FontPaths`), when the first font set holding it is made — so naming a
/// run's file is a read of its set's own table, not of this one.
enum FontFiles {
    private struct Table {
        var numbers: [String: Int] = [:]
        var paths: [String] = []
    }
    private static let table = Locked(Table())

    /// The numbers of `paths`, each numbered if it was not.
    static func number(_ paths: some Sequence<String>) -> [String: FontFileID] {
        table.withLock { t in
            var out: [String: FontFileID] = [:]
            for path in paths {
                let number = t.numbers[path] ?? {
                    t.paths.append(path)
                    t.numbers[path] = t.paths.count - 1
                    return t.paths.count - 1
                }()
                out[path] = FontFileID(number: number)
            }
            return out
        }
    }

    /// The number of `path`, if it has one.
    static func existing(_ path: String) -> FontFileID? {
        table.withLock { $0.numbers[path].map(FontFileID.init(number:)) }
    }

    /// Where the file can be opened (by the font layer only).
    static func path(_ file: FontFileID) -> String {
        table.withLock { $0.paths[file.number] }
    }
}
