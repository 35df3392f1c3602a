import CCairo
import EaselLayout
import EaselModel

/// Easel's geometry and style values as Cairo's.
extension Painter {
    func append(_ path: BezierPath) {
        CairoPath.set(path, on: cr)
    }

    func concat(_ t: AffineTransform) {
        guard !t.isIdentity else { return }
        var m = cairoMatrix(t)
        cairo_transform(cr, &m)
    }

    func cairoMatrix(_ t: AffineTransform) -> cairo_matrix_t {
        cairo_matrix_t(xx: t.a, yx: t.b, xy: t.c, yy: t.d, x0: t.tx, y0: t.ty)
    }

    func fillRule(_ r: FillRule) -> cairo_fill_rule_t {
        r == .evenodd ? CAIRO_FILL_RULE_EVEN_ODD : CAIRO_FILL_RULE_WINDING
    }

    func lineCap(_ c: LineCap) -> cairo_line_cap_t {
        switch c {
        case .butt: return CAIRO_LINE_CAP_BUTT
        case .round: return CAIRO_LINE_CAP_ROUND
        case .square: return CAIRO_LINE_CAP_SQUARE
        }
    }

    func lineJoin(_ j: LineJoin) -> cairo_line_join_t {
        switch j {
        case .miter: return CAIRO_LINE_JOIN_MITER
        case .round: return CAIRO_LINE_JOIN_ROUND
        case .bevel: return CAIRO_LINE_JOIN_BEVEL
        }
    }

    func extend(_ s: SpreadMethod) -> cairo_extend_t {
        switch s {
        case .pad: return CAIRO_EXTEND_PAD
        case .repeat: return CAIRO_EXTEND_REPEAT
        case .reflect: return CAIRO_EXTEND_REFLECT
        }
    }
}

enum CairoPath {
    /// Makes `path` the context's current path (in user space).
    static func set(_ path: BezierPath, on cr: OpaquePointer) {
        cairo_new_path(cr)
        for e in path.elements {
            switch e {
            case .move(let p): cairo_move_to(cr, p.x, p.y)
            case .line(let p): cairo_line_to(cr, p.x, p.y)
            case .cubic(let c1, let c2, let p): cairo_curve_to(cr, c1.x, c1.y, c2.x, c2.y, p.x, p.y)
            case .close: cairo_close_path(cr)
            }
        }
    }
}
