/// A CSS easing function (CSS Easing Functions Level 1): how progress
/// through a keyframe segment follows time.
public enum TimingFunction: Hashable, Sendable {
    /// `cubic-bezier(x1, y1, x2, y2)`: the curve from (0,0) to (1,1) with
    /// those control points; x is time, y progress.
    case cubicBezier(Double, Double, Double, Double)
    /// `steps(n)`: n equal jumps, each at the end of its interval (CSS's
    /// default `jump-end`).
    case steps(Int)

    public static let linear = TimingFunction.cubicBezier(0, 0, 1, 1)
    public static let easeIn = TimingFunction.cubicBezier(0.42, 0, 1, 1)
    public static let easeOut = TimingFunction.cubicBezier(0, 0, 0.58, 1)
    public static let easeInOut = TimingFunction.cubicBezier(0.42, 0, 0.58, 1)

    /// Progress at time fraction `x` in [0, 1].
    public func progress(_ x: Double) -> Double {
        let x = Swift.min(1, Swift.max(0, x))
        switch self {
        case .steps(let n):
            return x >= 1 ? 1 : (x * Double(n)).rounded(.down) / Double(n)
        case .cubicBezier(let x1, let y1, let x2, let y2):
            if x1 == y1 && x2 == y2 { return x }   // linear
            let s = Self.solve(x, x1, x2)
            return Self.bezier(s, y1, y2)
        }
    }

    /// One coordinate of the curve at parameter `s`: 3(1−s)²s·p1 + 3(1−s)s²·p2 + s³.
    static func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        let r = 1 - s
        return 3 * r * r * s * p1 + 3 * r * s * s * p2 + s * s * s
    }

    /// The parameter whose x is `x`: Newton steps from a good start, then
    /// bisection (x(s) is monotone since x1, x2 ∈ [0, 1]) to 1e-9.
    static func solve(_ x: Double, _ x1: Double, _ x2: Double) -> Double {
        var s = x
        for _ in 0..<8 {
            let err = bezier(s, x1, x2) - x
            if abs(err) < 1e-9 { return s }
            let r = 1 - s
            let slope = 3 * r * r * x1 + 6 * r * s * (x2 - x1) + 3 * s * s * (1 - x2)
            guard abs(slope) > 1e-6 else { break }
            s -= err / slope
            if s < 0 || s > 1 { break }
        }
        var lo = 0.0, hi = 1.0
        s = x
        while hi - lo > 1e-12 {
            s = (lo + hi) / 2
            if bezier(s, x1, x2) < x { lo = s } else { hi = s }
        }
        return s
    }
}

/// How often an animation plays: `repeat="N"` passes (`false` is 1), or
/// forever, looping back from the last keyframe to the first (`true`).
public enum AnimationRepeat: Hashable, Sendable {
    case times(Int)
    case forever
}

/// Where an animation is at a time: between keyframe `from` and `to`, at
/// eased `progress` (0 is exactly keyframe `from`).
public struct AnimationPosition: Hashable, Sendable {
    public var from: Int
    public var to: Int
    public var progress: Double
    public init(from: Int, to: Int, progress: Double) { self.from = from; self.to = to; self.progress = progress }
}

/// The timing of an `<animatedGradient>` (docs/format.md, "Animation"):
/// keyframe k lasts `duration` seconds on the way to k+1; one pass lasts
/// (K−1)·duration, or K·duration when it repeats forever (the way back from
/// the last keyframe to the first included). Before 0 it holds its first
/// frame, after its last pass its final one.
public struct AnimationClock: Hashable, Sendable {
    public var keyframes: Int
    public var duration: Double
    public var timing: TimingFunction
    public var repeatMode: AnimationRepeat

    public init(keyframes: Int, duration: Double, timing: TimingFunction = .linear, repeatMode: AnimationRepeat = .times(1)) {
        self.keyframes = keyframes; self.duration = duration; self.timing = timing; self.repeatMode = repeatMode
    }

    /// The length of one pass, in seconds.
    public var passDuration: Double {
        switch repeatMode {
        case .forever: return Double(keyframes) * duration
        case .times: return Double(keyframes - 1) * duration
        }
    }

    /// The whole animation, in seconds (infinite when it repeats forever).
    public var totalDuration: Double {
        switch repeatMode {
        case .forever: return .infinity
        case .times(let n): return Double(n) * passDuration
        }
    }

    public func position(at time: Double) -> AnimationPosition {
        let last = keyframes - 1
        guard keyframes > 1, duration > 0, passDuration > 0 else { return AnimationPosition(from: 0, to: 0, progress: 0) }
        guard time.isFinite, time > 0 else { return AnimationPosition(from: 0, to: Swift.min(1, last), progress: 0) }
        if time >= totalDuration {
            // Held at the end: the last keyframe (the first again would be a
            // full loop, which only `forever` makes, and it never ends).
            return AnimationPosition(from: last, to: last, progress: 0)
        }
        let local = time.truncatingRemainder(dividingBy: passDuration)
        if local == 0 {
            // Exactly between two passes: the end of the pass just played
            // (an animated PNG's last frame), not the start of the next.
            return repeatMode == .forever ? AnimationPosition(from: 0, to: 1, progress: 0)
                : AnimationPosition(from: last, to: last, progress: 0)
        }
        let segment = Swift.min(Int(local / duration), repeatMode == .forever ? last : last - 1)
        let fraction = (local - Double(segment) * duration) / duration
        let to = segment == last ? 0 : segment + 1
        return AnimationPosition(from: segment, to: to, progress: timing.progress(fraction))
    }
}
