/// Unicode's Stream-Safe Text Format (UAX #15, section 13) and a bound on
/// the marks one character carries, applied to every text before shaping.
///
/// Stream-safe: no more than 30 non-starters in a row — a COMBINING
/// GRAPHEME JOINER (U+034F, which renders as nothing) after every 30th, as
/// the standard prescribes, so that canonical reordering of a run of marks
/// (which sorts the run) stays bounded.
///
/// That is not enough for the shaper Easel runs on: HarfBuzz positions each
/// mark by looking back over every mark to its base, skipping default
/// ignorables such as the joiner, so a letter with n accents costs n²
/// (10,000 accents: 0.55 s, 20,000: 2 s — with or without joiners, measured
/// with HarfBuzz 6.0). Marks beyond `maxMarksPerCharacter` on one character
/// are therefore dropped, with a warning: no script stacks more than a few,
/// and past a few hundred the stack is a solid bar whatever its height.
/// Text with neither problem (all real text) is returned unchanged.
enum StreamSafeText {
    static let maxNonStarters = 30
    static let maxMarksPerCharacter = 255
    static let graphemeJoiner: Unicode.Scalar = "\u{034F}"

    /// The text to shape, and how many marks were dropped.
    static func apply(_ text: String) -> (text: String, dropped: Int) {
        var run = 0
        var needed = false
        for scalar in text.unicodeScalars {
            run = isNonStarter(scalar) ? run + 1 : 0
            if run > maxNonStarters { needed = true; break }
        }
        guard needed else { return (text, 0) }
        var out = String.UnicodeScalarView()
        var sinceJoiner = 0, onCharacter = 0, dropped = 0
        for scalar in text.unicodeScalars {
            guard isNonStarter(scalar) else {
                sinceJoiner = 0
                onCharacter = 0
                out.append(scalar)
                continue
            }
            onCharacter += 1
            if onCharacter > maxMarksPerCharacter {
                dropped += 1
                continue
            }
            if sinceJoiner == maxNonStarters {
                out.append(graphemeJoiner)
                sinceJoiner = 0
            }
            sinceJoiner += 1
            out.append(scalar)
        }
        return (String(out), dropped)
    }

    /// A non-zero canonical combining class. (UAX #15 counts the
    /// non-starters of each character's compatibility decomposition; for
    /// the characters that have any, the difference is a few per character,
    /// and the run bound is what matters here.)
    static func isNonStarter(_ s: Unicode.Scalar) -> Bool {
        s.properties.canonicalCombiningClass.rawValue != 0
    }
}
