import CPangoCairo
import Glibc
import EaselModel

/// Paths for font files that are never used twice in a process. Cairo
/// and fontconfig know a font by its path, and Cairo keeps recently used
/// fonts (and reopens their FreeType faces by path) for a while after the
/// last reference goes: a closed font's `/proc/self/fd/N` handed to other
/// bytes could draw the old font's glyphs. Descriptor numbers are reused as
/// the kernel hands them out; the path of the g-th font at number N spells
/// g in components that lead back where they start (after `/proc/self`,
/// `/task/..` a 1, `/fd/..` a 0): one path per font, however many fonts a
/// process has held, and no descriptor kept past its font. (Numbers that
/// only grew ran out past half the descriptor limit, and every later
/// font's descriptor then stayed open.)
enum FontPaths {
    /// Fonts held so far at each number (bounded by the descriptor limit).
    private static let generations = Locked<[Int32: UInt64]>([:])

    /// A path for the anonymous file open at `fd` that no font had before.
    static func unused(for fd: Int32) -> String {
        let generation = generations.withLock { all -> UInt64 in
            let g = all[fd, default: 0]
            all[fd] = g + 1
            return g
        }
        return path(fd: fd, generation: generation)
    }

    /// `/proc/self/fd/7`, then `/proc/self/task/../fd/7`,
    /// `/proc/self/task/../fd/../fd/7`, `/proc/self/task/../task/../fd/7`…
    static func path(fd: Int32, generation: UInt64) -> String {
        var bits: [String] = []
        var rest = generation
        while rest > 0 {
            bits.append(rest & 1 == 1 ? "/task/.." : "/fd/..")
            rest >>= 1
        }
        return "/proc/self" + bits.reversed().joined() + "/fd/\(fd)"
    }
}
