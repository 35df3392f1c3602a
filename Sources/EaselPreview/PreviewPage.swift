/// The page's three files (Page/), embedded in the program at build time.
enum PreviewPage {
    static let html = String(decoding: PackageResources.index_html, as: UTF8.self)
    static let script = String(decoding: PackageResources.preview_js, as: UTF8.self)
    static let style = String(decoding: PackageResources.preview_css, as: UTF8.self)
}
