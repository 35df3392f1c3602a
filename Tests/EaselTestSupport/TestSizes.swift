import Foundation

/// How long a test waits for an event (a line, a file, a page's state)
/// before it calls the event missing. A guard against a hang, never a
/// measure of speed: waits return as soon as the event comes, so the bound
/// is set far above the slowest run seen (sanitizers on a loaded 2-core
/// machine), not near a typical one.
public enum EventWait {
    public static let timeout: TimeInterval = 120
}

/// Sizes that only cost time, smaller under sanitizers.
///
/// `.ci/run` sets `EASEL_TEST_SIZES=small` for its AddressSanitizer and
/// ThreadSanitizer stages, where each painted pixel costs ten to fifty
/// times more: the same kinds of input (every example, every format, every
/// spread, hostile cases of each sort) at fewer scales, on smaller canvases,
/// with fewer points. `scripts/test` runs the full sizes.
public enum TestSizes {
    public static let small = ProcessInfo.processInfo.environment["EASEL_TEST_SIZES"] == "small"

    /// The output scales a test paints every example at.
    public static var scales: [Double] { small ? [1, 2] : [1, 2, 3] }

    /// `full`, or `reduced` under sanitizers.
    public static func pick<T>(_ full: T, small reduced: T) -> T { small ? reduced : full }
}
