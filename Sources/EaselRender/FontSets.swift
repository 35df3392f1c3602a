import CPangoCairo
import Glibc
import EaselLayout
import EaselModel

/// Font sets by what they hold, shared across the compiles of a process:
/// a build of 500 scenes with one `--font-dir` loads its fonts once. Keyed
/// by the declared files (path and identity: a content hash, or a font
/// folder file's size, time and inode) and whether system fonts are in; a
/// set with system fonts is made again when the machine's font folders
/// change (a long-running preview or watch sees new fonts).
public enum FontSets {
    /// The font set could not be made: a declared file could not be used
    /// (`path`, as the compile read it), or fontconfig failed.
    public struct Failure: Error, Sendable {
        public var path: String?
        var problem: FontFileProblem
        /// The message, naming the file as `name` (the `src` as written).
        public func message(naming name: String) -> Diagnostic.Message {
            switch problem {
            case .unreadable: return .fontUnreadable(name)
            case .woffCollection: return .woffCollection(name)
            case .tooManyFaces(let count): return .tooManyFaces(name, count)
            case .noAnonymousFile(let reason): return .noAnonymousFile(name, reason)
            case .configuration: return .fontConfigurationFailed
            }
        }
    }

    struct Key: Hashable {
        var files: [String]   // "identity path", in declaration order
        var systemFonts: Bool
    }

    /// How many font sets a process keeps, and how many bytes of declared
    /// font files they may hold (each set keeps its own copy of them): past
    /// either, the least recently used goes, the newest always stays. A
    /// persistent worker or preview serving many projects stays bounded.
    static let capacity = 8
    static let byteCapacity = 256 << 20
    private struct Entry { var key: Key; var set: FontSet; var checked: Int; var bytes: Int }
    private static let sets = Locked<[Entry]>([])

    public static func fontSet(declared: [DeclaredFontFile], systemFonts: Bool) -> Result<FontSet, Failure> {
        let key = Key(files: declared.map { "\($0.identity) \($0.path)" }, systemFonts: systemFonts)
        let now = Int(time(nil))
        if let hit = sets.withLock({ list -> FontSet? in
            guard let i = list.firstIndex(where: { $0.key == key }) else { return nil }
            var entry = list.remove(at: i)
            // A set with the machine's fonts is current only while its
            // folders are unchanged; they are looked at once a second at
            // most (FcConfigUptoDate stats every folder, and only ever
            // under this lock).
            if entry.set.includesSystemFonts, entry.checked != now {
                guard FcConfigUptoDate(entry.set.config) != 0 else { return nil }
                entry.checked = now
            }
            list.append(entry)
            return entry.set
        }) {
            return .success(hit)
        }
        let made = make(declared: declared, systemFonts: systemFonts)
        if case .success(let set) = made {
            sets.withLock { list in
                list.removeAll { $0.key == key }
                list.append(Entry(key: key, set: set, checked: now, bytes: declared.reduce(0) { $0 + $1.bytes.count }))
                while list.count > 1, list.count > capacity || list.reduce(0, { $0 + $1.bytes }) > byteCapacity {
                    list.removeFirst()
                }
            }
        }
        return made
    }

    static func make(declared: [DeclaredFontFile], systemFonts: Bool) -> Result<FontSet, Failure> {
        var stored: [(file: DeclaredFontFile, stored: AnonymousFontFiles.Stored)] = []
        // Each file stored is held by the set made, or given back if none is.
        var held: [String] = []
        func failed(_ failure: Failure) -> Result<FontSet, Failure> {
            AnonymousFontFiles.release(held)
            return .failure(failure)
        }
        for file in declared {
            switch AnonymousFontFiles.store(file) {
            case .success(let s): stored.append((file, s)); held.append(file.identity)
            case .failure(let problem): return failed(Failure(path: file.path, problem: problem))
            }
        }
        let document = FontRules.document(systemFolders: systemFonts ? FontSystem.machineFolders : nil,
                                          declaredFamilies: stored.flatMap(\.stored.families),
                                          declaredPaths: stored.map(\.stored.path),
                                          declaredColorFamilies: stored.filter(\.stored.isColor).flatMap(\.stored.families))
        guard let config = FcConfigCreate() else { return failed(Failure(path: nil, problem: .configuration)) }
        // FcConfigCreate takes FONTCONFIG_SYSROOT from the environment and
        // would put it before every declared path.
        FcConfigSetSysRoot(config, nil)
        // Without its rules a set would draw differently: not made at all then.
        // The system set (folders read from the machine's caches), then the declared files.
        guard document.withCString({ FcConfigParseAndLoadFromMemory(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self), 1) }) != 0,
              FcConfigBuildFonts(config) != 0 else {
            FcConfigDestroy(config)
            return failed(Failure(path: nil, problem: .configuration))
        }
        for (file, s) in stored where s.path.withCString({ FcConfigAppFontAddFile(config, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }) == 0 {
            FcConfigDestroy(config)
            return failed(Failure(path: file.path, problem: .unreadable))
        }
        var paths: [String: String] = [:]
        for (file, s) in stored { paths[s.path] = file.path }
        // Texts over a few of the machine's families shape over a smaller
        // set cut from the same document (`NarrowedFonts`); with declared
        // fonts the set is not the machine's, and is not cut.
        let set = FontSet(config: config, includesSystemFonts: systemFonts, declaredPaths: paths, heldFonts: held,
                          document: systemFonts && declared.isEmpty ? document : nil)
        set.systemFontsProblem = systemFonts ? FontSystem.machineFolders.problem : nil
        return .success(set)
    }
}
