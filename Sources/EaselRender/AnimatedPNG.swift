import CZlib
import EaselModel

extension Diagnostic.Message {
    static let framesDiffer = Diagnostic.Message("the frames of an animation differ in size or format")
    static let notAPNGFrame = Diagnostic.Message("a frame is not a PNG")
}

/// An animated PNG (APNG, PNG Third Edition's `acTL`/`fcTL`/`fdAT` chunks)
/// assembled from frames Cairo has already encoded as PNGs: the first
/// frame's `IDAT` chunks stay as they are (so viewers without APNG show the
/// first frame), later frames' image data moves into `fdAT` chunks. Runs of
/// identical frames are stored once with their delays added up.
public enum AnimatedPNG {
    public struct Frame: Sendable {
        public var png: [UInt8]
        /// How long the frame shows: `numerator / denominator` seconds.
        public var delayNumerator: UInt16
        public var delayDenominator: UInt16
        public init(png: [UInt8], delayNumerator: UInt16, delayDenominator: UInt16) {
            self.png = png; self.delayNumerator = delayNumerator; self.delayDenominator = delayDenominator
        }
    }

    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// `plays`: how many times the animation plays; 0 forever.
    public static func assemble(_ input: [Frame], plays: Int) throws -> [UInt8] {
        let frames = merged(input)
        guard let first = frames.first else { return [] }
        let header = try chunks(of: first.png).first { $0.type == "IHDR" }
        guard let ihdr = header?.data, ihdr.count == 13 else { throw failure(.notAPNGFrame) }
        var out = signature
        append(chunk: "IHDR", ihdr, to: &out)
        append(chunk: "acTL", be32(UInt32(frames.count)) + be32(UInt32(max(0, plays))), to: &out)
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let parts = try chunks(of: frame.png)
            guard parts.first(where: { $0.type == "IHDR" })?.data == ihdr else { throw failure(.framesDiffer) }
            // Width and height from IHDR; offset 0, 0; dispose none; blend
            // source: every frame is a whole picture, alpha included.
            let control = be32(sequence) + Array(ihdr[0..<8]) + be32(0) + be32(0)
                + be16(frame.delayNumerator) + be16(frame.delayDenominator) + [0, 0]
            append(chunk: "fcTL", control, to: &out)
            sequence += 1
            for part in parts where part.type == "IDAT" {
                if index == 0 {
                    append(chunk: "IDAT", part.data, to: &out)
                } else {
                    append(chunk: "fdAT", be32(sequence) + part.data, to: &out)
                    sequence += 1
                }
            }
        }
        append(chunk: "IEND", [], to: &out)
        return out
    }

    /// Consecutive frames with the same bytes become one, shown as long as all of them.
    static func merged(_ frames: [Frame]) -> [Frame] {
        var out: [Frame] = []
        for f in frames {
            if let last = out.last, last.png == f.png, last.delayDenominator == f.delayDenominator,
               UInt32(last.delayNumerator) + UInt32(f.delayNumerator) <= UInt32(UInt16.max) {
                out[out.count - 1].delayNumerator += f.delayNumerator
            } else {
                out.append(f)
            }
        }
        return out
    }

    struct Chunk { var type: String; var data: [UInt8] }

    static func chunks(of png: [UInt8]) throws -> [Chunk] {
        guard png.count >= 8, Array(png[0..<8]) == signature else { throw failure(.notAPNGFrame) }
        var out: [Chunk] = []
        var i = 8
        while i + 12 <= png.count {
            let length = Int(png[i]) << 24 | Int(png[i + 1]) << 16 | Int(png[i + 2]) << 8 | Int(png[i + 3])
            guard length >= 0, i + 12 + length <= png.count else { throw failure(.notAPNGFrame) }
            let type = String(decoding: png[(i + 4)..<(i + 8)], as: UTF8.self)
            out.append(Chunk(type: type, data: Array(png[(i + 8)..<(i + 8 + length)])))
            i += 12 + length
        }
        return out
    }

    static func append(chunk type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        out += be32(UInt32(data.count)) + typeBytes + data
        let body = typeBytes + data
        let crc = body.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) }
        out += be32(UInt32(crc))
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xff), UInt8(v >> 8 & 0xff), UInt8(v & 0xff)] }
    static func be16(_ v: UInt16) -> [UInt8] { [UInt8(v >> 8), UInt8(v & 0xff)] }

    static func failure(_ m: Diagnostic.Message) -> DiagnosticsError { DiagnosticsError([Diagnostic(.error, m, at: nil)]) }
}
