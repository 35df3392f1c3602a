import EaselModel
import XCTest

/// The eight-bytes-at-a-time scan finds what a plain byte loop, written
/// here from the rule, finds: in random text seeded with the characters
/// the rule is about, at every alignment and near the ends.
final class CarriedTextScanTests: XCTestCase {
    /// The rule, one byte at a time.
    func reference(_ bytes: [UInt8], crlf: Bool) -> Int? {
        for i in bytes.indices {
            let b = bytes[i]
            if b < 0x20 && b != 0x09 && b != 0x0A && !(crlf && b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A) { return i }
            if b == 0xEF, i + 2 < bytes.count, bytes[i + 1] == 0xBF, bytes[i + 2] == 0xBE || bytes[i + 2] == 0xBF { return i }
        }
        return nil
    }

    func testTheWordScanAgreesWithTheByteLoop() {
        var generator = SystemRandomNumberGenerator()
        let pieces: [[UInt8]] = [[0x41], [0x7A], [0x0A], [0x09], [0x0D, 0x0A], [0x0D], [0x00], [0x07], [0x1F], [0x20],
                                 [0xEF, 0xBF, 0xBE], [0xEF, 0xBF, 0xBF], [0xEF, 0xBB, 0xBF], [0xEF], [0xC3, 0xA9], [0xE2, 0x82, 0xAC]]
        for round in 0..<4000 {
            var bytes: [UInt8] = []
            let length = Int.random(in: 0...40, using: &generator)
            while bytes.count < length {
                // Mostly plain letters, so that the found character moves about.
                bytes += Int.random(in: 0..<10, using: &generator) < 8 ? [UInt8.random(in: 0x21...0x7E, using: &generator)]
                    : pieces.randomElement(using: &generator)!
            }
            for crlf in [false, true] {
                let found = bytes.withUnsafeBufferPointer { CarriedText.firstNotAllowed(inUTF8: $0, lineEndsMayBeCRLF: crlf) }
                XCTAssertEqual(found?.offset, reference(bytes, crlf: crlf), "round \(round), crlf \(crlf): \(bytes)")
                if let found { XCTAssertEqual(found.scalar.value, bytes[found.offset] == 0xEF ? (bytes[found.offset + 2] == 0xBE ? 0xFFFE : 0xFFFF) : UInt32(bytes[found.offset])) }
            }
        }
    }
}
