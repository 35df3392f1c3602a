import EaselModel
import FoundationEssentials

/// Display P3 in PDF output. Cairo paints device RGB only, so its finished
/// file gets an incremental update (ISO 32000-1 §7.5.6: objects appended
/// with a new cross-reference section, nothing before them rewritten):
/// the profile (`DisplayP3Profile`) as an ICC-based colour space; every
/// resource dictionary with it as `DefaultRGB` (§8.6.5.6), so the content
/// streams' `rg`/`RG` colours and device-RGB images are read in Display
/// P3; and every dictionary that names `/DeviceRGB` itself (shadings,
/// transparency groups' blending space) naming the ICC space instead.
/// Stream objects keep their dictionaries (their data would have to be
/// copied): images and groups in them are covered by `DefaultRGB`.
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
        for id in file.objectIDs {
            guard let dictionary = file.dictionary(of: id) else { continue }
            var text = dictionary
            var changed = false
            if file.resourceIDs.contains(id), let open = firstIndex(of: Array("<<".utf8), in: text) {
                text.replaceSubrange(open..<open + 2, with: Array("<< /ColorSpace << /DefaultRGB ".utf8) + reference + Array(" >>".utf8))
                changed = true
            }
            let device = Array("/DeviceRGB".utf8)
            while let at = firstIndex(of: device, in: text) {
                text.replaceSubrange(at..<at + device.count, with: [0x20] + reference)
                changed = true
            }
            if changed { object(id, text) }
        }
        offsets.sort { $0.0 < $1.0 }
        let xref = out.count
        var table = "xref\n"
        for (id, offset) in offsets {
            let digits = String(offset)
            table += "\(id) 1\n" + String(repeating: "0", count: 10 - digits.count) + digits + " 00000 n \n"
        }
        table += "trailer\n<< /Size \(next) /Root \(file.root) /Prev \(file.xrefOffset)"
            + (file.info.map { " /Info \($0)" } ?? "") + " >>\nstartxref\n\(xref)\n%%EOF\n"
        out += Array(table.utf8)
        return out
    }

    static func firstIndex(of needle: [UInt8], in haystack: [UInt8], from start: Int = 0) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], Array(haystack[i..<i + needle.count]) == needle { return i }
            i += 1
        }
        return nil
    }
}

/// The parts of a Cairo PDF the colour-space update needs: each object's
/// offset (from the cross-reference table), its dictionary when it is not
/// a stream, and which objects are resource dictionaries.
struct CairoPDF {
    let bytes: [UInt8]
    /// `/Size` of the trailer: the next free object number.
    let size: Int
    let root: String
    let info: String?
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
                let entry = Self.line(bytes, after: i)
                let fields = entry.split(separator: " ")
                if fields.count >= 3, fields[2] == "n", let offset = Int(fields[0]) { offsets[first + k] = offset }
                i += 20
            }
        }
        guard Self.line(bytes, after: i) == "trailer" else { return nil }
        let trailer = Array(bytes[i..<startxref])
        func entry(_ key: String) -> String? {
            guard let at = PDFColorSpace.firstIndex(of: Array("/\(key) ".utf8), in: trailer) else { return nil }
            var end = at + key.utf8.count + 2
            while end < trailer.count, ![0x0A, 0x2F, 0x3E].contains(trailer[end]) { end += 1 }
            return String(decoding: trailer[(at + key.utf8.count + 2)..<end], as: UTF8.self).trimmingSpaces
        }
        guard let size = entry("Size").flatMap(Int.init), let root = entry("Root") else { return nil }
        self.size = size; self.root = root; self.info = entry("Info")
        self.offsets = offsets
        var resources: Set<Int> = []
        for id in offsets.keys {
            guard let head = Self.head(bytes, at: offsets[id]!) else { continue }
            let key = Array("/Resources ".utf8)
            var from = 0
            while let at = PDFColorSpace.firstIndex(of: key, in: head, from: from) {
                from = at + key.count
                var end = from
                while end < head.count, head[end] != 0x0A, head[end] != 0x3E, head[end] != 0x2F { end += 1 }
                let words = String(decoding: head[from..<end], as: UTF8.self).split(separator: " ")
                if words.count == 3, words[1] == "0", words[2] == "R", let n = Int(words[0]) { resources.insert(n) }
            }
        }
        self.resourceIDs = resources
    }

    var objectIDs: [Int] { offsets.keys.sorted() }

    /// The object's body between `N 0 obj` and `endobj` when it is not a
    /// stream (a dictionary or array), else nil.
    func dictionary(of id: Int) -> [UInt8]? {
        guard let offset = offsets[id], let head = Self.head(bytes, at: offset) else { return nil }
        guard PDFColorSpace.firstIndex(of: Array("\nstream".utf8), in: head) == nil,
              let body = PDFColorSpace.firstIndex(of: Array(" obj\n".utf8), in: head), head.count >= 6 else { return nil }
        return Array(head[(body + 5)..<(head.count - 6)]).trimmingNewlines
    }

    /// An object's text up to `endobj`, or up to `stream` for a stream
    /// (whose data may hold any byte); nil when neither comes soon.
    static func head(_ bytes: [UInt8], at offset: Int) -> [UInt8]? {
        let stream = Array("stream\n".utf8), end = Array("endobj".utf8)
        var i = offset
        let limit = min(bytes.count, offset + 1 << 20)
        while i < limit {
            if bytes[i] == 0x65, i + end.count <= bytes.count, Array(bytes[i..<i + end.count]) == end {
                return Array(bytes[offset..<i + end.count])
            }
            if bytes[i] == 0x73, i + stream.count <= bytes.count, Array(bytes[i..<i + stream.count]) == stream,
               i > offset, bytes[i - 1] == 0x0A || bytes[i - 1] == 0x20 || bytes[i - 1] == 0x3E {
                // "endstream" ends in "stream" too; a dictionary never holds it.
                return Array(bytes[offset..<i]) + Array("\nstream".utf8)
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
            if haystack[i] == needle[0], Array(haystack[i..<i + needle.count]) == needle { return i }
            i -= 1
        }
        return nil
    }
}

private extension Array where Element == UInt8 {
    var trimmingNewlines: [UInt8] {
        var s = self[...]
        while let f = s.first, f == 0x0A || f == 0x20 { s = s.dropFirst() }
        while let l = s.last, l == 0x0A || l == 0x20 { s = s.dropLast() }
        return Array(s)
    }
}
