import CCairo
import CDeflate
import CPangoCairo
import CPixman
import Glibc

/// The versions of the libraries that decide an output's bytes, as this
/// process loaded them (not the headers it was built with): a renderer on
/// another Cairo, Pango, HarfBuzz, FreeType or fontconfig may paint other
/// pixels from the same scene. `easel worker --versions` prints them with
/// Easel's own, for build systems to make part of a cache key.
public enum LibraryVersions {
    /// Cairo decodes `<image>` PNGs with libpng, which Easel does not link
    /// itself: asked through the symbol Cairo brought in.
    static var libpng: String {
        typealias Version = @convention(c) (OpaquePointer?) -> UnsafePointer<CChar>?
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "png_get_libpng_ver"),
              let text = unsafeBitCast(symbol, to: Version.self)(nil) else { return "unknown" }
        return String(cString: text)
    }

    public static var all: [(library: String, version: String)] {
        let fontconfig = Int(FcGetVersion())
        var freetype = "unknown"
        var library: FT_Library?
        if FT_Init_FreeType(&library) == 0, let library {
            var major: FT_Int = 0, minor: FT_Int = 0, patch: FT_Int = 0
            FT_Library_Version(library, &major, &minor, &patch)
            freetype = "\(major).\(minor).\(patch)"
            FT_Done_FreeType(library)
        }
        return [
            ("cairo", String(cString: cairo_version_string())),
            ("pixman", String(cString: pixman_version_string())),
            ("pango", String(cString: pango_version_string())),
            ("harfbuzz", String(cString: hb_version_string())),
            ("freetype", freetype),
            ("fontconfig", "\(fontconfig / 10000).\(fontconfig / 100 % 100).\(fontconfig % 100)"),
            ("libpng", libpng),
            ("libdeflate", LIBDEFLATE_VERSION_STRING),
        ]
    }
}
