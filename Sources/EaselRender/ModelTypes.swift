import EaselModel

/// Foundation has an `AffineTransform` too; in this module the name means
/// Easel's.
typealias AffineTransform = EaselModel.AffineTransform
