import Foundation

/// Sizes that only cost time, smaller under sanitizers.
///
/// `.ci/run` sets `EASEL_TEST_SIZES=small` for its AddressSanitizer and
/// ThreadSanitizer stages, where each painted pixel costs ten to fifty
/// times more: the same kinds of input (every example, every format) at
/// fewer scales and with fewer points. `scripts/test` runs the full sizes.
public enum TestSizes {
    public static let small = ProcessInfo.processInfo.environment["EASEL_TEST_SIZES"] == "small"

    /// The output scales a test paints every example at.
    public static var scales: [Double] { small ? [1, 2] : [1, 2, 3] }

    /// `full`, or `reduced` under sanitizers.
    public static func pick<T>(_ full: T, small reduced: T) -> T { small ? reduced : full }
}
