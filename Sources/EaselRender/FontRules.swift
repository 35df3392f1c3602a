import EaselModel

/// Easel's own fontconfig configuration for a compile's font set: every
/// rule that changes pixels is here, so no machine's `/etc/fonts` can
/// change an output byte (docs/format.md, "Text and fonts"). A font set is built
/// from this document, never from the machine's configuration; with
/// system fonts on, only the folders the machine's configuration names
/// are taken from it (`MachineFontFolders`).
enum FontRules {
    /// Rules for every font set (fontconfig's own XML, read with
    /// `FcConfigParseAndLoadFromMemory`).
    static let fixed = """
        <!-- 72 dpi: a 16-point font is 16 scene points tall. Names in
             English: fontconfig would otherwise order a font's family names
             by the environment's language (FC_LANG, LANG), and `easel
             layout` would report a localized family. -->
        <match target="pattern">
          <edit name="dpi" mode="assign"><double>72</double></edit>
          <edit name="namelang" mode="assign"><string>en</string></edit>
        </match>
        <!-- Grey anti-aliasing, no hinting, no embedded bitmaps: glyphs are
             outlines placed at unrounded positions, the same at every scale. -->
        <match target="font">
          <edit name="antialias" mode="assign"><bool>true</bool></edit>
          <edit name="hinting" mode="assign"><bool>false</bool></edit>
          <edit name="hintstyle" mode="assign"><const>hintnone</const></edit>
          <edit name="autohint" mode="assign"><bool>false</bool></edit>
          <edit name="rgba" mode="assign"><const>none</const></edit>
          <edit name="lcdfilter" mode="assign"><const>lcdnone</const></edit>
          <edit name="embeddedbitmap" mode="assign"><bool>false</bool></edit>
        </match>
        <!-- A font of bitmaps only (colour emoji) draws its bitmaps: Cairo
             turns embedded bitmaps off for a pattern without hinting, so its
             pattern asks for slight hinting (the text's own font options keep
             outlines unhinted). -->
        <match target="font">
          <test name="outline"><bool>false</bool></test>
          <edit name="embeddedbitmap" mode="assign"><bool>true</bool></edit>
          <edit name="hinting" mode="assign"><bool>true</bool></edit>
          <edit name="hintstyle" mode="assign"><const>hintslight</const></edit>
        </match>
        <!-- Bitmaps scale to the size asked for (a colour emoji's 109-pixel
             strike drawn at 16 points): the font's matrix carries the factor. -->
        <match target="font">
          <test name="outline"><bool>false</bool></test>
          <edit name="pixelsizefixupfactor" mode="assign">
            <divide><name target="pattern">pixelsize</name><name target="font">pixelsize</name></divide>
          </edit>
        </match>
        <match target="font">
          <test name="outline"><bool>false</bool></test>
          <test name="pixelsizefixupfactor" compare="not_eq"><double>1.0</double></test>
          <edit name="matrix" mode="assign">
            <times><name>matrix</name>
              <matrix><name>pixelsizefixupfactor</name><double>0</double><double>0</double><name>pixelsizefixupfactor</name></matrix>
            </times>
          </edit>
          <edit name="size" mode="assign"><divide><name>size</name><name>pixelsizefixupfactor</name></divide></edit>
        </match>
        <!-- Synthetic oblique for a family without an italic or oblique face
             (not for bitmaps: colour emoji stay upright and unemboldened). -->
        <match target="font">
          <test name="outline"><bool>true</bool></test>
          <test name="slant"><const>roman</const></test>
          <test target="pattern" name="slant" compare="not_eq"><const>roman</const></test>
          <edit name="matrix" mode="assign">
            <times><name>matrix</name><matrix><double>1</double><double>0.2</double><double>0</double><double>1</double></matrix></times>
          </edit>
          <edit name="slant" mode="assign"><const>oblique</const></edit>
        </match>
        <!-- Synthetic bold for a family without a bold face. -->
        <match target="font">
          <test name="outline"><bool>true</bool></test>
          <test name="weight" compare="less_eq"><const>medium</const></test>
          <test target="pattern" name="weight" compare="more_eq"><const>bold</const></test>
          <edit name="embolden" mode="assign"><bool>true</bool></edit>
          <edit name="weight" mode="assign"><const>bold</const></edit>
        </match>
        <!-- Bitmap fonts without colour (PCF and the like) are not for scenes. -->
        <selectfont><rejectfont><pattern><patelt name="scalable"><bool>false</bool></patelt></pattern></rejectfont></selectfont>
        """

    /// The whole configuration of a font set: the fixed rules; the
    /// machine's font folders and their caches (system fonts on); and,
    /// so that a declared family always wins, every other font with a
    /// declared family's name refused.
    static func document(systemFolders: MachineFontFolders?, declaredFamilies: [String], declaredPaths: [String],
                         declaredColorFamilies: [String] = []) -> String {
        var xml = "<?xml version=\"1.0\"?>\n<fontconfig>\n" + fixed + "\n"
        // Pango sets emoji sequences in the family "emoji", whatever the
        // text's own list: declared colour fonts first, then Easel's emoji
        // order (GenericFontFamily.emoji).
        xml += "<alias binding=\"strong\"><family>emoji</family><prefer>"
        for family in declaredColorFamilies + GenericFontFamily.emoji.families(lang: nil) where XMLText.canHold(family) {
            xml += "<family>\(XMLText.escape(family))</family>"
        }
        xml += "</prefer></alias>\n"
        if let systemFolders {
            // A folder whose name XML cannot hold (control characters) is left out.
            for dir in systemFolders.fontFolders where XMLText.canHold(dir) { xml += "<dir>\(XMLText.escape(dir))</dir>\n" }
            for dir in systemFolders.cacheFolders where XMLText.canHold(dir) { xml += "<cachedir>\(XMLText.escape(dir))</cachedir>\n" }
            if !declaredFamilies.isEmpty {
                xml += "<selectfont>\n<acceptfont>\n"
                for path in declaredPaths where XMLText.canHold(path) {
                    xml += "<pattern><patelt name=\"file\"><string>\(XMLText.escape(path))</string></patelt></pattern>\n"
                }
                xml += "</acceptfont>\n<rejectfont>\n"
                for family in declaredFamilies where XMLText.canHold(family) {
                    xml += "<pattern><patelt name=\"family\"><string>\(XMLText.escape(family))</string></patelt></pattern>\n"
                }
                xml += "</rejectfont>\n</selectfont>\n"
            }
        }
        return xml + "</fontconfig>\n"
    }
}
