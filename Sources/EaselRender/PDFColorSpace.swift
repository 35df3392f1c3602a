import EaselModel
import FoundationEssentials

/// Display P3 in PDF output. Cairo paints device RGB only, so its finished
/// file gets an incremental update (ISO 32000-1 §7.5.6: objects appended
/// with a new cross-reference section, nothing before them rewritten):
/// the profile (`DisplayP3Profile`) as an ICC-based colour space; every
/// resource dictionary (objects and those written inline, as a tiling
/// pattern's) with it as `DefaultRGB` (§8.6.5.6), so the content streams'
/// `rg`/`RG` colours are read in Display P3; and every dictionary that
/// names `/DeviceRGB` itself — shadings (conic meshes are streams), images,
/// transparency groups' blending space, on the page and on form XObjects —
/// naming the ICC space instead. A stream object is appended with its new
/// dictionary and its data copied as it was.
enum PDFColorSpace {
    /// `pdf` as Cairo wrote it, tagged; nil when it is not laid out as
    /// Cairo lays its files out (a classic cross-reference table).
    static func displayP3(_ pdf: [UInt8]) -> [UInt8]? {
        guard let file = CairoPDF(pdf) else { return nil }
        var out = pdf
        if out.last != 0x0A { out.append(0x0A) }
        var offsets: [(Int, Int)] = []
        var next = file.size
        let profileID = next, spaceID = next + 1
        next += 2
        func object(_ id: Int, _ body: [UInt8]) {
            offsets.append((id, out.count))
            out += Array("\(id) 0 obj\n".utf8) + body + Array("\nendobj\n".utf8)
        }
        let profile = DisplayP3Profile.compressed
        object(profileID, Array("<< /N 3 /Alternate /DeviceRGB /Filter /FlateDecode /Length \(profile.count) >>\nstream\n".utf8)
               + profile + Array("\nendstream".utf8))
        object(spaceID, Array("[ /ICCBased \(profileID) 0 R ]".utf8))
        let reference = Array("\(spaceID) 0 R".utf8)
        let defaultRGB = Array("/ColorSpace << /DefaultRGB ".utf8) + reference + Array(" >> ".utf8)
        for id in file.objectIDs {
            guard let (dictionary, stream) = file.object(id) else { continue }
            var text = dictionary
            var changed = false
            if file.resourceIDs.contains(id), let open = firstIndex(of: Array("<<".utf8), in: text[...]) {
                // Cairo names no colour space resources; were there some, the default joins them.
                if let named = firstIndex(of: Array("/ColorSpace <<".utf8), in: text[...]) {
                    text.insert(contentsOf: Array(" /DefaultRGB ".utf8) + reference, at: named + 14)
                } else {
                    text.insert(contentsOf: defaultRGB, at: open + 2)
                }
                changed = true
            }
            // Resources written inside the object (a pattern's).
            let inline = Array("/Resources <<".utf8)
            var from = 0
            while let at = firstIndex(of: inline, in: text[from...]) {
                text.insert(contentsOf: [0x20] + defaultRGB, at: at + inline.count)
                from = at + inline.count + defaultRGB.count
                changed = true
            }
            let device = Array("/DeviceRGB".utf8)
            while let at = firstIndex(of: device, in: text[...]) {
                text.replaceSubrange(at..<at + device.count, with: [0x20] + reference)
                changed = true
            }
            if changed { object(id, text + (stream.map { [0x0A] + Array($0) } ?? [])) }
        }
        offsets.sort { $0.0 < $1.0 }
        let xref = out.count
        var table = "xref\n"
        for (id, offset) in offsets {
            let digits = String(offset)
            table += "\(id) 1\n" + String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        table += "trailer\n<< /Size \(next) /Root \(file.root) /Prev \(file.xrefOffset)"
            + (file.info.map { " /Info \($0)" } ?? "") + (file.id.map { " /ID \($0)" } ?? "") + " >>\nstartxref\n\(xref)\n%%EOF\n"
        out += Array(table.utf8)
        return out
    }

    /// Where `needle` first occurs in `haystack` (indices are the array's).
    static func firstIndex(of needle: [UInt8], in haystack: ArraySlice<UInt8>) -> Int? {
        guard let first = needle.first, needle.count <= haystack.count else { return nil }
        var i = haystack.startIndex
        while i + needle.count <= haystack.endIndex {
            if haystack[i] == first, haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

/// The parts of a Cairo PDF the colour-space update needs: each object's
/// offset (from the cross-reference table), its dictionary and stream, and
/// which objects are resource dictionaries.
struct CairoPDF {
    let bytes: [UInt8]
    /// `/Size` of the trailer: the next free object number.
    let size: Int
    let root: String
    let info: String?
    /// The trailer's `/ID` array as written, if it has one.
    let id: String?
    let xrefOffset: Int
    private let offsets: [Int: Int]
    let resourceIDs: Set<Int>

    init?(_ bytes: [UInt8]) {
        self.bytes = bytes
        guard let startxref = Self.lastIndex(of: Array("startxref".utf8), in: bytes),
              let xrefOffset = Int(Self.line(bytes, after: startxref + 10)) else { return nil }
        self.xrefOffset = xrefOffset
        var offsets: [Int: Int] = [:]
        var i = xrefOffset
        guard Self.line(bytes, after: i) == "xref" else { return nil }
        i += 5
        // Subsections: "first count", then count 20-byte entries.
        while true {
            let header = Self.line(bytes, after: i)
            let parts = header.split(separator: " ")
            guard parts.count == 2, let first = Int(parts[0]), let count = Int(parts[1]) else { break }
            i += header.utf8.count + 1
            for k in 0..<count {
                let fields = Self.line(bytes, after: i).split(separator: " ")
                if fields.count >= 3, fields[2] == "n", let offset = Int(fields[0]) { offsets[first + k] = offset }
                i += 20
            }
        }
        guard Self.line(bytes, after: i) == "trailer" else { return nil }
        let trailer = bytes[i..<startxref]
        func entry(_ key: String) -> String? {
            let name = Array("/\(key) ".utf8)
            guard let at = PDFColorSpace.firstIndex(of: name, in: trailer) else { return nil }
            var end = at + name.count
            while end < trailer.endIndex, ![0x0A, 0x2F, 0x3E].contains(trailer[end]) { end += 1 }
            return String(decoding: trailer[(at + name.count)..<end], as: UTF8.self).trimmingSpaces
        }
        guard let size = entry("Size").flatMap(Int.init), let root = entry("Root") else { return nil }
        self.size = size; self.root = root; self.info = entry("Info")
        if let at = PDFColorSpace.firstIndex(of: Array("/ID".utf8), in: trailer),
           let close = trailer[at...].firstIndex(of: UInt8(ascii: "]")) {
            id = String(decoding: trailer[(at + 3)...close], as: UTF8.self).trimmingSpaces
        } else {
            id = nil
        }
        self.offsets = offsets
        var resources: Set<Int> = []
        let key = Array("/Resources ".utf8)
        for offset in offsets.values {
            guard let head = Self.head(bytes, at: offset) else { continue }
            var from = head.startIndex
            while let at = PDFColorSpace.firstIndex(of: key, in: head[from...]) {
                from = at + key.count
                var end = from
                while end < head.endIndex, head[end] != 0x0A, head[end] != 0x3E, head[end] != 0x2F { end += 1 }
                let words = String(decoding: head[from..<end], as: UTF8.self).split(separator: " ")
                if words.count == 3, words[1] == "0", words[2] == "R", let n = Int(words[0]) { resources.insert(n) }
            }
        }
        self.resourceIDs = resources
    }

    var objectIDs: [Int] { offsets.keys.sorted() }

    /// The object's dictionary (or other value) between `N 0 obj` and
    /// `endobj`, and for a stream everything from `stream` to `endobj`
    /// (its data found by `/Length`, never searched: it may hold any byte).
    func object(_ id: Int) -> (dictionary: [UInt8], stream: ArraySlice<UInt8>?)? {
        guard let offset = offsets[id], let head = Self.head(bytes, at: offset),
              let body = PDFColorSpace.firstIndex(of: Array(" obj".utf8), in: head) else { return nil }
        var start = body + 4
        while start < head.endIndex, head[start] == 0x0A || head[start] == 0x0D || head[start] == 0x20 { start += 1 }
        if head.last == UInt8(ascii: "j") {   // …endobj: no stream
            return (Array(head[start..<(head.endIndex - 6)]).trimmingNewlines, nil)
        }
        // head ends at "stream"; the data starts after its end of line.
        let keyword = head.endIndex - 6
        var data = head.endIndex
        if data < bytes.count, bytes[data] == 0x0D { data += 1 }
        if data < bytes.count, bytes[data] == 0x0A { data += 1 }
        let dictionary = Array(head[start..<keyword]).trimmingNewlines
        guard let length = streamLength(dictionary), data + length <= bytes.count,
              let end = PDFColorSpace.firstIndex(of: Array("endobj".utf8), in: bytes[(data + length)...]) else { return nil }
        return (dictionary, bytes[keyword..<end])
    }

    /// `/Length n` or `/Length k 0 R` (Cairo writes the length after the stream).
    private func streamLength(_ dictionary: [UInt8]) -> Int? {
        guard let at = PDFColorSpace.firstIndex(of: Array("/Length ".utf8), in: dictionary[...]) else { return nil }
        var end = at + 8
        while end < dictionary.count, dictionary[end] != 0x0A, dictionary[end] != 0x2F, dictionary[end] != 0x3E { end += 1 }
        let words = String(decoding: dictionary[(at + 8)..<end], as: UTF8.self).split(separator: " ")
        if words.count == 1 { return Int(words[0]) }
        guard words.count == 3, let ref = Int(words[0]), let (value, stream) = object(ref), stream == nil else { return nil }
        return Int(String(decoding: value, as: UTF8.self).trimmingSpaces)
    }

    /// An object's bytes from its offset through `endobj`, or through the
    /// `stream` keyword for a stream; nil when neither comes soon.
    static func head(_ bytes: [UInt8], at offset: Int) -> ArraySlice<UInt8>? {
        let stream = Array("stream".utf8), end = Array("endobj".utf8)
        var i = offset
        let limit = min(bytes.count, offset + 1 << 20)
        while i + 6 <= limit {
            if bytes[i] == 0x65, bytes[i..<i + 6].elementsEqual(end) { return bytes[offset..<i + 6] }
            // "stream" at the end of the dictionary: after ">>" and spaces
            // ("endstream" never comes before it).
            if bytes[i] == 0x73, bytes[i..<i + 6].elementsEqual(stream), i > offset,
               [0x0A, 0x0D, 0x20, 0x3E].contains(bytes[i - 1]) {
                return bytes[offset..<i + 6]
            }
            i += 1
        }
        return nil
    }

    static func line(_ bytes: [UInt8], after start: Int) -> String {
        var end = start
        while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
        return start < end ? String(decoding: bytes[start..<end], as: UTF8.self).trimmingSpaces : ""
    }

    static func lastIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        var i = haystack.count - needle.count
        while i >= 0 {
            if haystack[i] == needle[0], haystack[i..<i + needle.count].elementsEqual(needle) { return i }
            i -= 1
        }
        return nil
    }
}

private extension Array where Element == UInt8 {
    var trimmingNewlines: [UInt8] {
        var s = self[...]
        while let f = s.first, f == 0x0A || f == 0x0D || f == 0x20 { s = s.dropFirst() }
        while let l = s.last, l == 0x0A || l == 0x0D || l == 0x20 { s = s.dropLast() }
        return Array(s)
    }
}
