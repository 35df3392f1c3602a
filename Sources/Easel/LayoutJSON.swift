import EaselLayout
import Foundation

/// The JSON shape of `easel layout`, with keys sorted so output is stable.
enum LayoutJSON {
    struct Frame: Encodable { var x, y, width, height: Double }
    struct Entry: Encodable {
        var element: String
        var id: String?
        var line: Int
        var column: Int
        var frame: Frame
        var count: Int?
        var children: [Entry]
    }

    static func entry(_ n: LayoutNode) -> Entry {
        let f = n.absoluteFrame
        return Entry(element: n.element, id: n.id, line: n.location.line, column: n.location.column,
                     frame: Frame(x: f.x, y: f.y, width: f.width, height: f.height),
                     count: n.copies?.count, children: n.children.map(entry))
    }

    static func encode(_ scene: LaidOutScene) -> String {
        struct Root: Encodable {
            var element = "scene"
            var frame: Frame
            var children: [Entry]
        }
        let root = Root(frame: Frame(x: 0, y: 0, width: scene.size.width, height: scene.size.height),
                        children: scene.nodes.map(entry))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = (try? encoder.encode(root)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
