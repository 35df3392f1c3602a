#!/usr/bin/env python3
"""Font facts and font files for Easel's tests, from fontTools (PyPI):
an oracle independent of Easel, Pango and FreeType.

  fonttool.py rename SRC DST FAMILY       a copy of SRC whose family names are FAMILY
  fonttool.py flavor SRC DST woff|woff2   SRC wrapped as WOFF or WOFF2
  fonttool.py touch SRC DST               SRC with a changed version string (other bytes, same glyphs)
  fonttool.py stem SRC CHAR WGHT          the glyph's xMin xMax and the font's unitsPerEm at wght=WGHT
  fonttool.py glyph SRC INDEX CHAR        the glyph id CHAR maps to in face INDEX of SRC (a collection or a font)
  fonttool.py height SRC                  the font's line height in em: ascender + descender as HarfBuzz
                                          reads them (OS/2 typo metrics when USE_TYPO_METRICS, else hhea)
  fonttool.py advance SRC TEXT TAG=VALUE…  TEXT's advance width in em, shaped by HarfBuzz (uharfbuzz) at those
                                          axis values: the shrink-to-fit tests' independent measure
  fonttool.py lean SRC CHAR TAG=VALUE…    how far the glyph's top edge sits right of its bottom edge, per unit of height,
                                          at those axis values (a stem's slant)
"""
import sys
from fontTools.ttLib import TTFont, TTCollection


def rename(src, dst, family):
    font = TTFont(src)
    for record in font["name"].names:
        if record.nameID in (1, 16, 21):
            record.string = family
        elif record.nameID == 4:
            record.string = family
        elif record.nameID == 6:
            record.string = family.replace(" ", "")
    font.save(dst)


def flavor(src, dst, kind):
    font = TTFont(src)
    font.flavor = kind
    font.save(dst)


def touch(src, dst):
    font = TTFont(src)
    for record in font["name"].names:
        if record.nameID == 5:
            record.string = str(record) + " (changed)"
    font.save(dst)


def stem(src, char, wght):
    from fontTools.varLib import instancer
    font = instancer.instantiateVariableFont(TTFont(src), {"wght": float(wght)})
    name = font.getBestCmap()[ord(char)]
    glyph = font["glyf"][name]
    glyph.recalcBounds(font["glyf"])
    print(glyph.xMin, glyph.xMax, font["head"].unitsPerEm)


def glyph(src, index, char):
    font = TTCollection(src).fonts[int(index)] if src.endswith((".ttc", ".otc")) else TTFont(src)
    name = font.getBestCmap()[ord(char)]
    print(font.getGlyphID(name))


def lean(src, char, *axes):
    from fontTools.varLib import instancer
    location = {a.split("=")[0]: float(a.split("=")[1]) for a in axes}
    font = instancer.instantiateVariableFont(TTFont(src), location)
    name = font.getBestCmap()[ord(char)]
    coordinates, _, _ = font["glyf"][name].getCoordinates(font["glyf"])
    ys = [y for _, y in coordinates]
    top = [x for x, y in coordinates if y == max(ys)]
    bottom = [x for x, y in coordinates if y == min(ys)]
    print((sum(top) / len(top) - sum(bottom) / len(bottom)) / (max(ys) - min(ys)))


def height(src):
    font = TTFont(src)
    os2, hhea = font["OS/2"], font["hhea"]
    if os2.fsSelection & (1 << 7):
        ascent, descent = os2.sTypoAscender, os2.sTypoDescender
    else:
        ascent, descent = hhea.ascent, hhea.descent
    print((ascent - descent) / font["head"].unitsPerEm)


def advance(src, text, *axes):
    import uharfbuzz as hb
    blob = hb.Blob.from_file_path(src)
    face = hb.Face(blob)
    font = hb.Font(face)
    if axes:
        font.set_variations({a.split("=")[0]: float(a.split("=")[1]) for a in axes})
    buf = hb.Buffer()
    buf.add_str(text)
    buf.guess_segment_properties()
    hb.shape(font, buf, {})
    print(sum(p.x_advance for p in buf.glyph_positions) / face.upem)


commands = {"advance": advance, "height": height, "lean": lean, "rename": rename, "flavor": flavor, "touch": touch, "stem": stem, "glyph": glyph}
commands[sys.argv[1]](*sys.argv[2:])
