import CPangoCairo
import Glibc
import Synchronization
import EaselModel

/// Fontconfig's and FreeType's process-wide state, which belongs to no
/// one compile: the default configuration Pango would otherwise load, the
/// machine's font folders, and a FreeType library for reading font files.
public enum FontSystem {
    /// For a program that uses fontconfig only through Easel, called once
    /// at start-up, before any text. (A library must not: its host may use
    /// fontconfig's default configuration, and its own file limit.)
    ///
    /// - Every Pango font map starts fontconfig's default configuration in
    ///   the background (`FcInit`: tens of millions of instructions reading
    ///   `/etc/fonts` and every font folder's cache), even one given its
    ///   own configuration, as every Easel font set is. An empty default
    ///   leaves the machine's configuration to a compile that asks for
    ///   system fonts.
    /// - Each distinct declared font a process loads keeps a file open
    ///   (`AnonymousFontFiles`): the soft limit of open files is raised to
    ///   the hard one, so a large `--font-dir` does not run out.
    public static func prepareProgram() {
        prepared.withLock { done in
            guard !done else { return }
            done = true
            if let empty = FcConfigCreate() {
                if FcConfigSetCurrent(empty) != 0 { emptyDefault.store(true, ordering: .releasing) }
                FcConfigDestroy(empty)   // the current configuration holds its own reference
            }
            var limit = rlimit()
            if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max {
                limit.rlim_cur = limit.rlim_max
                setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
            }
        }
    }
    private static let prepared = Locked(false)

    /// Whether fontconfig's default configuration is `prepareProgram`'s
    /// empty one: then a whole font set (declared fonts, emoji, scripts
    /// with faces of their own) shapes with PangoFT2 and no lock, which
    /// substitutes with the default configuration before the set's own
    /// (`ShapingContext`). In a host's process, whose default may hold
    /// rules of its own, such a set shapes with PangoCairo.
    /// Read for each text shaped: an atomic, not a lock. (The engines give
    /// the same runs, so a text measured before `prepareProgram` and shaped
    /// after it is laid out alike.)
    static var defaultConfigurationIsEmpty: Bool { emptyDefault.load(ordering: .acquiring) }
    private static let emptyDefault = Atomic<Bool>(false)

    /// The folders the machine's fontconfig configuration names
    /// (`FONTCONFIG_FILE` or `/etc/fonts/fonts.conf`), read once a process.
    static var machineFolders: MachineFontFolders {
        machine.withLock { folders in
            if let folders { return folders }
            let read = MachineFontFolders.read()
            folders = read
            return read
        }
    }
    private static let machine = Locked<MachineFontFolders?>(nil)

    /// Every font file in the machine's font folders (and their
    /// subfolders), sorted: what a build compares to notice a font added or
    /// removed (one changed is noticed by the scenes that used it).
    public static func machineFontFiles() -> [String] {
        let extensions: Set<String> = ["ttf", "otf", "ttc", "otc", "woff", "woff2", "pfb", "pfa", "pcf", "gz", "bdf"]
        var out: [String] = []
        func walk(_ folder: String, depth: Int) {
            guard depth < 16, let dir = opendir(folder) else { return }
            defer { closedir(dir) }
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix(while: { $0 != 0 }), as: UTF8.self) }
                guard name != ".", name != ".." else { continue }
                let path = folder + "/" + name
                var info = stat()
                guard stat(path, &info) == 0 else { continue }
                if info.st_mode & S_IFMT == S_IFDIR {
                    walk(path, depth: depth + 1)
                } else if let dot = name.lastIndex(of: "."), extensions.contains(name[name.index(after: dot)...].lowercased()) {
                    out.append(path)
                }
            }
        }
        for folder in machineFolders.fontFolders { walk(folder, depth: 0) }
        return out.sorted()
    }

    /// FreeType's library, used under its lock (FreeType's face creation
    /// is not thread-safe on one library).
    static func withFreeType<T>(_ body: (FT_Library?) -> T) -> T {
        freeType.withLock { box in
            if box.library == nil {
                var lib: FT_Library?
                if FT_Init_FreeType(&lib) == 0 { box.library = lib }
            }
            return body(box.library)
        }
    }
    private final class FreeTypeLibrary: @unchecked Sendable { var library: FT_Library? }
    private static let freeType = Locked(FreeTypeLibrary())
}

/// The machine's font folders and font caches, as its fontconfig
/// configuration names them. Its rules are not used: only its fonts.
struct MachineFontFolders: Hashable, Sendable {
    var fontFolders: [String]
    var cacheFolders: [String]
    /// Why the configuration gave no folders, if it could not be read: the
    /// compiles that use system fonts warn (they would otherwise fall back
    /// to declared fonts, or none, without a word).
    var problem: String?

    /// The lists as fontconfig's parse of the configuration gives them:
    /// read without it where `FontConfigurationFolders` can (the same
    /// lists, a small part of the cost), else by it.
    static func read() -> MachineFontFolders {
        if let lists = FontConfigurationFolders.read() {
            return MachineFontFolders(fontFolders: lists.fonts, cacheFolders: lists.caches,
                                      problem: lists.fonts.isEmpty ? noFolder : nil)
        }
        return readByFontconfig()
    }

    private static var noFolder: String {
        let file = getenv("FONTCONFIG_FILE").map { String(cString: $0) } ?? "fonts.conf"
        return "fontconfig's configuration '\(file)' names no font folder (missing or unreadable?)"
    }

    /// fontconfig's own parse of the whole configuration, rules and all.
    static func readByFontconfig() -> MachineFontFolders {
        guard let config = FcConfigCreate() else {
            return MachineFontFolders(fontFolders: [], cacheFolders: [], problem: "fontconfig could not start")
        }
        defer { FcConfigDestroy(config) }
        // NULL: the file fontconfig itself would read (FONTCONFIG_FILE, or
        // fonts.conf). Without "complain" it reports no failure (with it,
        // fontconfig prints to standard error, which may be carrying JSON
        // or SARIF diagnostics): a configuration that names no font folder
        // is how a missing or broken one shows.
        _ = FcConfigParseAndLoad(config, nil, 0)
        let folders = strings(FcConfigGetFontDirs(config))
        return MachineFontFolders(fontFolders: folders, cacheFolders: strings(FcConfigGetCacheDirs(config)),
                                  problem: folders.isEmpty ? noFolder : nil)
    }

    private static func strings(_ list: OpaquePointer?) -> [String] {
        guard let list else { return [] }
        defer { FcStrListDone(list) }
        var out: [String] = []
        while let s = FcStrListNext(list) { out.append(String(cString: s)) }
        return out
    }
}
