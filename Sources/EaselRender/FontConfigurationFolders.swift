import CLibXML2
import CPangoCairo
import Glibc

/// The font and cache folders a fontconfig configuration names, read
/// without fontconfig's parser where that is exact: fontconfig builds every
/// rule of every file it reads (`/etc/fonts` and its `conf.d`: 35 files,
/// 88 KB on Debian 12, about 15 million instructions, once a process that
/// has text), and Easel takes only the folders (its own rules replace the
/// machine's). Files that cannot hold a folder element are skipped unread
/// by a parser; the others are read with libxml2 under fontconfig 2.14's
/// rules for `<dir>`, `<cachedir>`, `<include>` and `<reset-dirs/>`.
///
/// `read()` gives nil — ask fontconfig — for whatever those rules do not
/// cover exactly: `FONTCONFIG_SYSROOT`, no `HOME` (or one not UTF-8), an
/// XDG variable set that a `prefix="xdg"` element would read, a relative
/// or non-canonical folder, `prefix="relative"` or an unknown prefix,
/// `<remap-dir>`, `<reset-dirs>` holding elements, an include without
/// `ignore_missing="yes"` (fontconfig then stops a folder at the first
/// file with any error, rules included, which this reader does not
/// parse), a file reached twice, a folder of configuration files holding a
/// folder, and where libxml2 would not read a file as fontconfig's expat
/// does: bytes that are not UTF-8, a DOCTYPE with an internal subset
/// (entities, attribute defaults), namespaces, an XML error, an entity
/// reference or element inside a folder element. Folder names are
/// compared as bytes, as fontconfig compares them. A host that turned
/// fontconfig's home off (`FcConfigEnableHome`) is not followed: Easel
/// never does. The tests hold both readers to the same lists
/// (`FontConfigurationFoldersTests`).
enum FontConfigurationFolders {
    struct Lists: Equatable {
        var fonts: [String] = []
        var caches: [String] = []
    }

    /// libxml2's globals set up once, before any parse (as `XMLReader`
    /// does: its implicit first-use set-up is not thread-safe).
    private static let parserInitialised: Void = xmlInitParser()

    /// Nil when the configuration needs more than this reader follows.
    static func read() -> Lists? {
        _ = parserInitialised
        guard getenv("FONTCONFIG_SYSROOT") == nil, let homeValue = getenv("HOME"),
              let home = String(validatingCString: homeValue) else { return nil }
        // Like fontconfig: FONTCONFIG_FILE if set, else fonts.conf (found
        // in FONTCONFIG_PATH, then the configuration folder). Empty names
        // the folder itself.
        let top = getenv("FONTCONFIG_FILE").map { String(cString: $0) } ?? "fonts.conf"
        guard !top.isEmpty, let config = FcConfigCreate() else { return nil }
        defer { FcConfigDestroy(config) }
        var reader = Reader(config: config, home: home)
        // A missing top file gives empty lists, as fontconfig's parse of it
        // does (without complaint).
        guard let path = reader.resolve(top) else { return Lists() }
        return reader.readFile(path) ? reader.lists : nil
    }

    private struct Reader {
        let config: OpaquePointer
        let home: String
        var lists = Lists()
        var seen: Set<String> = []

        /// fontconfig's own lookup of a configuration name (absolute, `~`,
        /// or relative to FONTCONFIG_PATH and the configuration folder);
        /// nil if no such file or folder is readable.
        func resolve(_ name: String) -> String? {
            guard let found = FcConfigGetFilename(config, name) else { return nil }
            defer { FcStrFree(found) }
            return String(cString: found)
        }

        /// False: outside this reader's rules.
        mutating func readFile(_ path: String) -> Bool {
            guard let real = realpath(path, nil) else { return false }
            let identity = String(cString: real)
            free(real)
            // fontconfig reads a file once; a second reach is left to it.
            guard seen.insert(identity).inserted else { return false }
            var info = stat()
            guard stat(path, &info) == 0 else { return false }
            if info.st_mode & S_IFMT == S_IFDIR { return readFolder(path) }
            guard let bytes = contents(of: path) else { return false }
            guard mayHoldFolders(bytes) else { return true }
            // expat, which fontconfig reads with, takes the bytes as UTF-8.
            guard bytes.count < Int32.max, String(validating: bytes, as: UTF8.self) != nil else { return false }
            return readDocument(bytes, path: path)
        }

        /// A folder of configuration files: those whose names start with a
        /// digit, are longer than five bytes and end in `.conf`, in byte
        /// order (fontconfig's `FcConfigParseAndLoadDir`).
        mutating func readFolder(_ folder: String) -> Bool {
            guard let dir = opendir(folder) else { return false }
            var names: [[UInt8]] = []
            while let entry = readdir(dir) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { Array($0.prefix(while: { $0 != 0 })) }
                if name.count > 5, let first = name.first, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first),
                   name.suffix(5).elementsEqual(".conf".utf8) {
                    names.append(name)
                }
            }
            closedir(dir)
            names.sort { $0.lexicographicallyPrecedes($1) }
            for name in names {
                let path = folder + "/" + String(decoding: name, as: UTF8.self)
                var info = stat()
                // A folder named like a file is read as a folder by
                // fontconfig; rare enough to leave to it.
                guard stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFDIR else { return false }
                guard readFile(path) else { return false }
            }
            return true
        }

        func contents(of path: String) -> [UInt8]? {
            guard let file = fopen(path, "rb") else { return nil }
            defer { fclose(file) }
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16_384)
            while true {
                let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
                bytes += chunk.prefix(n)
                if n < chunk.count { return ferror(file) == 0 ? bytes : nil }
            }
        }

        /// Whether the file mentions an element that names or resets
        /// folders or includes a file, or declares an entity (whose text
        /// could hold one; parsed, then given back to fontconfig). A false
        /// yes costs only a parse.
        func mayHoldFolders(_ bytes: [UInt8]) -> Bool {
            let names = ["dir", "cachedir", "include", "reset-dirs", "remap-dir", "!ENTITY"].map { Array($0.utf8) }
            return bytes.withUnsafeBufferPointer { buffer in
                var i = 0
                while i < buffer.count {
                    if buffer[i] == UInt8(ascii: "<") {
                        let rest = buffer[(i + 1)...]
                        if names.contains(where: { rest.starts(with: $0) }) { return true }
                    }
                    i += 1
                }
                return false
            }
        }

        mutating func readDocument(_ bytes: [UInt8], path: String) -> Bool {
            // No network, no entity substitution, no DTD: an external
            // subset is named, never read; an entity reference gives up.
            let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue)
            guard let document = bytes.withUnsafeBufferPointer({ buffer in
                buffer.withMemoryRebound(to: CChar.self) { xmlReadMemory($0.baseAddress, Int32(buffer.count), path, "UTF-8", options) }
            }) else { return false }
            defer { xmlFreeDoc(document) }
            // expat applies an internal subset's attribute defaults and
            // expands its entities; libxml2 here does neither.
            if let subset = document.pointee.intSubset, subset.pointee.children != nil { return false }
            guard let root = xmlDocGetRootElement(document), root.pointee.ns == nil, name(root) == "fontconfig" else { return false }
            return walk(root)
        }

        /// Each element in document order (fontconfig acts on them as they
        /// close; the ones read here hold no elements, so the order is the
        /// same), wherever it stands.
        mutating func walk(_ element: xmlNodePtr) -> Bool {
            var child = element.pointee.children
            while let node = child {
                child = node.pointee.next
                switch node.pointee.type {
                case XML_ELEMENT_NODE:
                    // libxml2 names `x:dir` "dir"; expat, unaware of
                    // namespaces here, does not.
                    guard node.pointee.ns == nil, act(on: node), walk(node) else { return false }
                case XML_ENTITY_REF_NODE:
                    return false
                default:
                    continue
                }
            }
            return true
        }

        mutating func act(on element: xmlNodePtr) -> Bool {
            switch name(element) {
            case "dir":
                guard let text = text(of: element) else { return false }
                guard !text.isEmpty else { return true }
                let paths: [String]
                switch attribute(element, "prefix") {
                case nil, "default", "cwd":
                    paths = [text]
                case "xdg":
                    // XDG_DATA_HOME's folder, then each XDG_DATA_DIRS one.
                    guard getenv("XDG_DATA_HOME") == nil, getenv("XDG_DATA_DIRS") == nil else { return false }
                    paths = [home + "/.local/share", "/usr/local/share", "/usr/share"].map { $0 + "/" + text }
                default:
                    return false
                }
                for path in paths {
                    guard let folder = absolute(path) else { return false }
                    // A folder named again moves to the end.
                    lists.fonts.removeAll { $0.utf8.elementsEqual(folder.utf8) }
                    lists.fonts.append(folder)
                }
                return true
            case "cachedir":
                guard let text = text(of: element) else { return false }
                guard !text.isEmpty else { return true }
                var path = text
                // Only "xdg" means anything here.
                switch attribute(element, "prefix") {
                case "xdg":
                    guard getenv("XDG_CACHE_HOME") == nil else { return false }
                    path = home + "/.cache/" + text
                case Self.unreadable:
                    return false
                default:
                    break
                }
                guard let folder = absolute(path) else { return false }
                // A cache folder named again keeps its first place.
                if !lists.caches.contains(where: { $0.utf8.elementsEqual(folder.utf8) }) { lists.caches.append(folder) }
                return true
            case "reset-dirs":
                // fontconfig clears when the element closes, after any
                // folder inside it: left to it.
                guard text(of: element) != nil else { return false }
                lists.fonts.removeAll()
                return true
            case "remap-dir":
                return false
            case "include":
                guard let text = text(of: element), !text.isEmpty else { return false }
                var name = text
                switch attribute(element, "prefix") {
                case nil:
                    break
                case "xdg":
                    guard getenv("XDG_CONFIG_HOME") == nil else { return false }
                    name = home + "/.config/" + text
                default:
                    return false
                }
                // Without it fontconfig "complains": a folder stops at its
                // first file with an error of any kind, rules included.
                guard attribute(element, "ignore_missing") == "yes" else { return false }
                guard let path = resolve(name) else { return true }
                return readFile(path)
            default:
                return true
            }
        }

        /// `~` is HOME (put before the rest as it is: `~/x` is HOME/x);
        /// nil for a path that is relative or not already canonical, which
        /// fontconfig would complete against the working folder or rewrite.
        func absolute(_ path: String) -> String? {
            let expanded = path.utf8.first == UInt8(ascii: "~") ? home + String(decoding: path.utf8.dropFirst(), as: UTF8.self) : path
            // Compared as bytes: String's comparisons see through combining marks.
            let bytes = Array(expanded.utf8)
            func has(_ part: String) -> Bool {
                let needle = Array(part.utf8)
                return bytes.count >= needle.count && (0...(bytes.count - needle.count)).contains { bytes[$0..<$0 + needle.count].elementsEqual(needle) }
            }
            guard bytes.first == UInt8(ascii: "/"), bytes.count > 1, bytes.last != UInt8(ascii: "/"),
                  !bytes.suffix(2).elementsEqual("/.".utf8), !bytes.suffix(3).elementsEqual("/..".utf8),
                  !has("//"), !has("/./"), !has("/../") else { return nil }
            return expanded
        }

        func name(_ node: xmlNodePtr) -> String {
            node.pointee.name.map { String(cString: $0) } ?? ""
        }

        /// The attribute's value; nil if absent, `unreadable` if it holds
        /// an entity reference (not substituted here).
        func attribute(_ element: xmlNodePtr, _ wanted: String) -> String? {
            var attribute = element.pointee.properties
            while let current = attribute {
                attribute = current.pointee.next
                guard current.pointee.name.map({ String(cString: $0) }) == wanted else { continue }
                var value = ""
                var child = current.pointee.children
                while let node = child {
                    child = node.pointee.next
                    guard node.pointee.type == XML_TEXT_NODE else { return Self.unreadable }
                    if let content = node.pointee.content { value += String(cString: content) }
                }
                return value
            }
            return nil
        }
        static let unreadable = "\u{0}"

        /// The element's text and CDATA, untrimmed (as fontconfig reads
        /// it); nil if it holds an element or an entity reference.
        func text(of element: xmlNodePtr) -> String? {
            var out = ""
            var child = element.pointee.children
            while let node = child {
                child = node.pointee.next
                switch node.pointee.type {
                case XML_TEXT_NODE, XML_CDATA_SECTION_NODE:
                    if let content = node.pointee.content { out += String(cString: content) }
                case XML_COMMENT_NODE, XML_PI_NODE:
                    continue
                default:
                    return nil
                }
            }
            return out
        }
    }
}
