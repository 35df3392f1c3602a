#include <pango/pangocairo.h>
#include <pango/pangoft2.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangofc-font.h>
#include <fontconfig/fontconfig.h>
#include <cairo.h>
#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <hb.h>
#include <hb-ot.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_SFNT_NAMES_H
#include FT_TRUETYPE_IDS_H
#include FT_TRUETYPE_TABLES_H
#include FT_MULTIPLE_MASTERS_H
#include FT_OUTLINE_H
#include FT_SYNTHESIS_H
#include <sys/syscall.h>
#include <unistd.h>

/* Glibc declares memfd_create only under _GNU_SOURCE, which Swift's Glibc
   module is not built with: the system call itself, for a font's bytes in
   an anonymous file that fontconfig, HarfBuzz and FreeType open by path. */
static inline int easel_memfd_create(const char *name) {
    return (int)syscall(SYS_memfd_create, name, 1u /* MFD_CLOEXEC */);
}

