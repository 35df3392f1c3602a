import CPangoCairo
import EaselLayout
import EaselModel

/// Font sets by what they hold, shared across the compiles of a process:
/// a build of 500 scenes with one `--font-dir` loads its fonts once. Keyed
/// by the declared files' paths and content hashes and whether system
/// fonts are in; a set with system fonts is made again when the machine's
/// font folders change (a long-running preview or watch sees new fonts).
public enum FontSets {
    /// A declared file could not be used; its path as the compile read it.
    public struct Failure: Error, Sendable {
        public var path: String
        var problem = FontFileProblem.unreadable
        /// The message, naming the file as `name` (the `src` as written).
        public func message(naming name: String) -> Diagnostic.Message {
            switch problem {
            case .unreadable: return .fontUnreadable(name)
            case .woffCollection: return .woffCollection(name)
            }
        }
    }

    struct Key: Hashable {
        var files: [String]   // "identity path", in declaration order
        var systemFonts: Bool
    }

    /// How many font sets a process keeps (the least recently used goes).
    static let capacity = 8
    private static let sets = Locked<[(key: Key, set: FontSet)]>([])

    public static func fontSet(declared: [DeclaredFontFile], systemFonts: Bool) -> Result<FontSet, Failure> {
        let key = Key(files: declared.map { "\($0.identity) \($0.path)" }, systemFonts: systemFonts)
        if let hit = sets.withLock({ list -> FontSet? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            let entry = list.remove(at: i)
            // A set with the machine's fonts is current only while its folders are unchanged.
            guard !entry.set.includesSystemFonts || FcConfigUptoDate(entry.set.config) != 0 else { return nil }
            list.append(entry)
            return entry.set
        }) {
            return .success(hit)
        }
        let made = make(declared: declared, systemFonts: systemFonts)
        if case .success(let set) = made {
            sets.withLock { list in
                list.removeAll { $0.key == key }
                list.append((key, set))
                if list.count > capacity { list.removeFirst(list.count - capacity) }
            }
        }
        return made
    }

    static func make(declared: [DeclaredFontFile], systemFonts: Bool) -> Result<FontSet, Failure> {
        var stored: [(file: DeclaredFontFile, stored: AnonymousFontFiles.Stored)] = []
        for file in declared {
            switch AnonymousFontFiles.store(file) {
            case .success(let s): stored.append((file, s))
            case .failure(let problem): return .failure(Failure(path: file.path, problem: problem))
            }
        }
        let document = FontRules.document(systemFolders: systemFonts ? FontSystem.machineFolders : nil,
                                          declaredFamilies: stored.flatMap(\.stored.families),
                                          declaredPaths: stored.map(\.stored.path))
        guard let config = FcConfigCreate() else { return .failure(Failure(path: declared.first?.path ?? "")) }
        _ = document.withCString { FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 1) }
        // The system set (folders read from the machine's caches), then the declared files.
        _ = FcConfigBuildFonts(config)
        for (file, s) in stored where s.path.withCString({ FcConfigAppFontAddFile(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }) == 0 {
            FcConfigDestroy(config)
            return .failure(Failure(path: file.path))
        }
        var paths: [String: String] = [:]
        for (file, s) in stored { paths[s.path] = file.path }
        return .success(FontSet(config: config, includesSystemFonts: systemFonts, declaredPaths: paths))
    }
}
