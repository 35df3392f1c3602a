/// SplitMix64: a seeded random generator, so that a test drawing random
/// cases draws the same ones every run and a failure names its case.
public struct SeededGenerator: RandomNumberGenerator {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Knuth's MMIX linear congruential generator from a seed: the fixed data
/// of the coverage and reduction tests (their bounds were measured on
/// exactly these numbers, so the sequence must not change).
public struct FixedLCG {
    public var state: UInt64
    public init(seed: UInt64) { state = seed }
    /// The next state.
    public mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }
    /// The next state's top 53 bits, as a number in 0..<1.
    public mutating func unit() -> Double { Double(next() >> 11) / Double(1 << 53) }
}
