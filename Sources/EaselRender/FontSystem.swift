import CPangoCairo
import EaselModel

/// Fontconfig's and FreeType's process-wide state, which belongs to no
/// one compile: the default configuration Pango would otherwise load, the
/// machine's font folders, and a FreeType library for reading font files.
public enum FontSystem {
    /// Every Pango font map starts fontconfig's default configuration in
    /// the background (`FcInit`: about 24 M instructions reading
    /// `/etc/fonts`), even one that is given its own configuration, as
    /// every Easel font set is. A program that uses fontconfig only
    /// through Easel calls this once, before any text, so that the
    /// machine's configuration is read only by a compile that asks for
    /// system fonts. (A library must not: its host may use the default.)
    public static func useEmptyDefaultConfiguration() {
        emptyDefault.withLock { done in
            guard !done else { return }
            done = true
            if let empty = FcConfigCreate() {
                FcConfigSetCurrent(empty)
                FcConfigDestroy(empty)   // the current configuration holds its own reference
            }
        }
    }
    private static let emptyDefault = Locked(false)

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

    static func read() -> MachineFontFolders {
        guard let config = FcConfigCreate() else { return MachineFontFolders(fontFolders: [], cacheFolders: []) }
        defer { FcConfigDestroy(config) }
        // NULL: the file fontconfig itself would read (FONTCONFIG_FILE, or fonts.conf).
        _ = FcConfigParseAndLoad(config, nil, 0)
        return MachineFontFolders(fontFolders: strings(FcConfigGetFontDirs(config)),
                                  cacheFolders: strings(FcConfigGetCacheDirs(config)))
    }

    private static func strings(_ list: OpaquePointer?) -> [String] {
        guard let list else { return [] }
        defer { FcStrListDone(list) }
        var out: [String] = []
        while let s = FcStrListNext(list) { out.append(String(cString: s)) }
        return out
    }
}
