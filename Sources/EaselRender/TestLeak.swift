import CCairo
import CPangoCairo
#if canImport(Glibc)
import Glibc
#endif

/// A deliberate leak, for `scripts/leak-check`'s self-check: with
/// `EASEL_TEST_LEAK=1`, a debug build's render drops a Cairo surface and
/// pattern, a fontconfig pattern and configuration and a Pango attribute
/// list without freeing them. The check then must see each one reported:
/// proof that its suppressions (.ci/lsan.supp) name library caches, not the
/// libraries, so an object Easel creates in Cairo, fontconfig or Pango and
/// forgets is a failure.
///
/// Release builds compile the call to nothing.
enum TestLeak {
    #if DEBUG
    private static let asked = getenv("EASEL_TEST_LEAK").map { String(cString: $0) == "1" } ?? false

    static func leakIfAsked() {
        guard asked else { return }
        let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 4, 4)
        _ = cairo_pattern_create_for_surface(surface)
        _ = FcPatternCreate()
        _ = FcConfigCreate()
        _ = pango_attr_list_new()
    }
    #else
    @inline(__always) static func leakIfAsked() {}
    #endif
}
