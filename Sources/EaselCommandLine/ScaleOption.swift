import Easel

/// `--scale` and `--scales` on every command: one range, from `Limits`.
public enum ScaleOption {
    public static func isValid(_ scale: Double) -> Bool { scale > 0 && scale <= Limits().maxScale }

    public static func rangeMessage(_ flag: String) -> String {
        "\(flag) must be greater than 0 and at most \(Limits().maxScale.wholeNumberText)"
    }

    public static func listMessage(_ given: String) -> String {
        "--scales takes numbers greater than 0 and at most \(Limits().maxScale.wholeNumberText), separated by commas (1,2,3), not '\(given)'"
    }
}
