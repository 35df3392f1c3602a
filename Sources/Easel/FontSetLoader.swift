import EaselLayout
import EaselModel
import EaselParse
import EaselRender
import FoundationEssentials
/// A compile's font set, made the first time layout shapes text.
final class FontSetLoader: @unchecked Sendable {
    private let make: @Sendable () -> Result<FontSet, Diagnostic>
    private let made_: Locked<Result<FontSet, Diagnostic>?>

    init(_ make: @escaping @Sendable () -> Result<FontSet, Diagnostic>) {
        self.make = make
        made_ = Locked(nil)
    }

    /// A loader of fonts already made (or of none, for a scene without text).
    init(made: FontSet?) {
        make = { .failure(Diagnostic(.error, .noFontsMade, at: nil)) }
        made_ = Locked(made.map { .success($0) })
    }

    /// nil until layout asked for fonts.
    var result: Result<FontSet, Diagnostic>? { made_.withLock { $0 } }
    var made: FontSet? { try? result?.get() }

    func fonts() -> FontSet? {
        made_.withLock { made in
            if made == nil { made = make() }
            return try? made?.get()
        }
    }
}
