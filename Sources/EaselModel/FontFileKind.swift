/// The kinds of font file Easel reads, told by their first four bytes.
public enum FontFileKind: Sendable {
    case sfnt, collection, woff, woff2

    public init?(_ bytes: [UInt8]) {
        guard bytes.count >= 12 else { return nil }
        switch (bytes[0], bytes[1], bytes[2], bytes[3]) {
        case (0x00, 0x01, 0x00, 0x00), (0x4F, 0x54, 0x54, 0x4F), (0x74, 0x72, 0x75, 0x65): self = .sfnt   // 1.0, OTTO, true
        case (0x74, 0x74, 0x63, 0x66): self = .collection   // ttcf
        case (0x77, 0x4F, 0x46, 0x46): self = .woff         // wOFF
        case (0x77, 0x4F, 0x46, 0x32): self = .woff2        // wOF2
        default: return nil
        }
    }
}
