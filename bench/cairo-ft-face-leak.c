/* Why Easel names a variable font's instances by slot (CairoFontFaces):
 * Cairo 1.16 keeps memory each time a Cairo face is made over a FreeType
 * face of the caller's own, even when both are destroyed. This program,
 * Easel-free, draws N one-line PDFs, each with a new `wght`, two ways:
 *
 *   ft-face   a new FT_Face per instance, its axes set, wrapped by
 *             cairo_ft_font_face_create_for_ft_face (Easel before issue 56)
 *   options   one Cairo face from the file, the instance asked for by
 *             cairo_font_options_set_variations on the scaled font
 *
 * and prints the heap in use (glibc mallinfo2, every arena) after a warm-up
 * and at the end, per instance. The PDFs go to a stream that drops them.
 *
 *   cc -O2 bench/cairo-ft-face-leak.c $(pkg-config --cflags --libs cairo-ft freetype2 fontconfig) -o /tmp/leak
 *   /tmp/leak Tests/Fixtures/fonts/InterVariable-Latin.ttf 3000 [same]
 */
#include <cairo-ft.h>
#include <cairo-pdf.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#include FT_MULTIPLE_MASTERS_H
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static cairo_status_t drop(void *closure, const unsigned char *data, unsigned int length) {
    (void)closure; (void)data; (void)length;
    return CAIRO_STATUS_SUCCESS;
}

static void done_face(void *face) { FT_Done_Face(face); }

static const cairo_user_data_key_t face_key;

static void draw(cairo_font_face_t *face, const char *variations) {
    cairo_surface_t *pdf = cairo_pdf_surface_create_for_stream(drop, NULL, 200, 40);
    cairo_t *cr = cairo_create(pdf);
    cairo_set_font_face(cr, face);
    cairo_set_font_size(cr, 18);
    if (variations) {
        cairo_font_options_t *options = cairo_font_options_create();
        cairo_font_options_set_variations(options, variations);
        cairo_set_font_options(cr, options);
        cairo_font_options_destroy(options);
    }
    cairo_move_to(cr, 10, 28);
    cairo_show_text(cr, "Your week");
    cairo_destroy(cr);
    cairo_surface_finish(pdf);
    cairo_surface_destroy(pdf);
}

static size_t heap(void) { return mallinfo2().uordblks; }

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s VARIABLE-FONT N\n", argv[0]); return 2; }
    const char *path = argv[1];
    int n = atoi(argv[2]), warm = n / 10;
    /* A third argument `same`: one weight throughout, to part what each
       new instance costs from what each document costs. */
    int same = argc > 3 && strcmp(argv[3], "same") == 0;
    FT_Library library;
    if (FT_Init_FreeType(&library)) return 1;
    for (int way = 0; way < 2; way++) {
        size_t start = 0;
        cairo_font_face_t *shared = NULL;
        if (way == 1) {
            FcPattern *pattern = FcPatternCreate();
            FcPatternAddString(pattern, FC_FILE, (const FcChar8 *)path);
            FcPatternAddInteger(pattern, FC_INDEX, 0);
            shared = cairo_ft_font_face_create_for_pattern(pattern);
            FcPatternDestroy(pattern);
        }
        for (int i = 0; i < n; i++) {
            if (i == warm) start = heap();
            int weight = same ? 500 : 100 + (i * 7) % 800;
            char variations[32];
            snprintf(variations, sizeof variations, "wght=%d", weight);
            if (way == 0) {
                FT_Face ft;
                if (FT_New_Face(library, path, 0, &ft)) { fprintf(stderr, "cannot open %s\n", path); return 1; }
                FT_MM_Var *axes;
                if (FT_Get_MM_Var(ft, &axes) == 0) {
                    FT_Fixed coords[16] = {0};
                    for (FT_UInt a = 0; a < axes->num_axis && a < 16; a++) coords[a] = axes->axis[a].def;
                    coords[0] = (FT_Fixed)weight << 16;
                    FT_Set_Var_Design_Coordinates(ft, axes->num_axis < 16 ? axes->num_axis : 16, coords);
                    FT_Done_MM_Var(library, axes);
                }
                cairo_font_face_t *face = cairo_ft_font_face_create_for_ft_face(ft, 0);
                cairo_font_face_set_user_data(face, &face_key, ft, done_face);
                draw(face, NULL);
                cairo_font_face_destroy(face);
            } else {
                draw(shared, variations);
            }
        }
        if (shared) cairo_font_face_destroy(shared);
        size_t end = heap();
        printf("%-8s %d instances: heap in use %.2f → %.2f MB after a warm-up of %d, %+.0f bytes an instance\n",
               way == 0 ? "ft-face" : "options", n, start / 1048576.0, end / 1048576.0, warm,
               ((double)end - (double)start) / (n - warm));
    }
    FT_Done_FreeType(library);
    return 0;
}
