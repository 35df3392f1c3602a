import EaselModel

extension Diagnostic.Message {
    static let framesDiffer = Diagnostic.Message(.renderFailed, "the frames of an animation differ in size or format")
    static let notAPNGFrame = Diagnostic.Message(.renderFailed, "a frame is not a PNG")
}

/// An animated PNG (APNG, PNG Third Edition's `acTL`/`fcTL`/`fdAT` chunks)
/// assembled from frames already encoded as PNGs (with one colour type): the first
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

    /// `plays`: how many times the animation plays; 0 forever.
    public static func assemble(_ input: [Frame], plays: Int) throws -> [UInt8] {
        let frames = merged(input)
        guard let first = frames.first else { return [] }
        let header = try chunks(of: first.png).first { $0.type == "IHDR" }
        guard let ihdr = header?.data, ihdr.count == 13 else { throw failure(.notAPNGFrame) }
        var out = PNGChunks.signature
        PNGChunks.append("IHDR", ihdr, to: &out)
        for part in try chunks(of: first.png) where PNGChunks.colorChunkTypes.contains(part.type) {
            PNGChunks.append(part.type, part.data, to: &out)
        }
        PNGChunks.append("acTL", PNGChunks.be32(UInt32(frames.count)) + PNGChunks.be32(UInt32(max(0, plays))), to: &out)
        var sequence: UInt32 = 0
        for (index, frame) in frames.enumerated() {
            let parts = try chunks(of: frame.png)
            guard parts.first(where: { $0.type == "IHDR" })?.data == ihdr else { throw failure(.framesDiffer) }
            // Width and height from IHDR; offset 0, 0; dispose none; blend
            // source: every frame is a whole picture, alpha included.
            let control = PNGChunks.be32(sequence) + Array(ihdr[0..<8]) + PNGChunks.be32(0) + PNGChunks.be32(0)
                + PNGChunks.be16(frame.delayNumerator) + PNGChunks.be16(frame.delayDenominator) + [0, 0]
            PNGChunks.append("fcTL", control, to: &out)
            sequence += 1
            for part in parts where part.type == "IDAT" {
                if index == 0 {
                    PNGChunks.append("IDAT", part.data, to: &out)
                } else {
                    PNGChunks.append("fdAT", PNGChunks.be32(sequence) + part.data, to: &out)
                    sequence += 1
                }
            }
        }
        PNGChunks.append("IEND", [], to: &out)
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
        guard png.count >= 8, Array(png[0..<8]) == PNGChunks.signature else { throw failure(.notAPNGFrame) }
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

    static func failure(_ m: Diagnostic.Message) -> DiagnosticsError { DiagnosticsError([Diagnostic(.error, m, at: nil)]) }
}
