/* PNG encoders side by side, on the benchmark's own frames.
 *
 *   cc -O2 bench/png-encoders.c $(pkg-config --cflags --libs cairo libpng libdeflate spng zlib) -o png-encoders
 *   png-encoders FRAME.png...
 *   png-encoders --one "CANDIDATE" FRAME.png   (or --one none)
 *
 * With --one, the frame is encoded once by that candidate and its size
 * printed: bench.py runs it under callgrind, and the instructions beyond
 * `--one none` (reading the frame, nothing encoded) are the encoder's.
 *
 * Each frame is read into a Cairo ARGB32 surface (what Easel paints into)
 * and encoded again by each candidate, several times; the table gives the
 * median time and the size. Cairo's writer is Easel's encoder before
 * issue 14. Every candidate starts from the premultiplied ARGB32 pixels, so
 * unpremultiplying is part of its time (Cairo's writer does it too). The
 * output of each candidate is decoded again by Cairo and compared with the
 * source pixels, so a fast but wrong encoder cannot win.
 */
#include <cairo.h>
#include <libdeflate.h>
#include <png.h>
#include <spng.h>
#include <zlib.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef struct { unsigned char *data; size_t size, capacity; } buffer;

static void append(buffer *b, const void *bytes, size_t n) {
    if (b->size + n > b->capacity) {
        b->capacity = (b->size + n) * 2;
        b->data = realloc(b->data, b->capacity);
    }
    memcpy(b->data + b->size, bytes, n);
    b->size += n;
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* Straight RGB or RGBA rows from premultiplied ARGB32; opaque frames drop alpha. */
static unsigned char *straight_rows(cairo_surface_t *s, int *channels) {
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s);
    int stride = cairo_image_surface_get_stride(s);
    unsigned char *src = cairo_image_surface_get_data(s);
    int opaque = 1;
    for (int y = 0; y < h && opaque; y++) {
        const uint32_t *row = (const uint32_t *)(src + y * stride);
        for (int x = 0; x < w; x++) if ((row[x] >> 24) != 255) { opaque = 0; break; }
    }
    *channels = opaque ? 3 : 4;
    unsigned char *out = malloc((size_t)w * h * *channels), *o = out;
    for (int y = 0; y < h; y++) {
        const uint32_t *row = (const uint32_t *)(src + y * stride);
        for (int x = 0; x < w; x++) {
            uint32_t p = row[x], a = p >> 24, r = (p >> 16) & 255, g = (p >> 8) & 255, b = p & 255;
            if (a != 0 && a != 255) { r = (r * 255 + a / 2) / a; g = (g * 255 + a / 2) / a; b = (b * 255 + a / 2) / a; }
            *o++ = r; *o++ = g; *o++ = b;
            if (!opaque) *o++ = a;
        }
    }
    return out;
}

static cairo_status_t to_buffer(void *closure, const unsigned char *data, unsigned int length) {
    append(closure, data, length);
    return CAIRO_STATUS_SUCCESS;
}

static void encode_cairo(cairo_surface_t *s, buffer *out, int level) {
    (void)level;
    cairo_surface_write_to_png_stream(s, to_buffer, out);
}

static void png_to_buffer(png_structp png, png_bytep data, size_t n) { append(png_get_io_ptr(png), data, n); }
static void png_flush_nothing(png_structp png) { (void)png; }

static int libpng_filters;
static void encode_libpng(cairo_surface_t *s, buffer *out, int level) {
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s), channels;
    unsigned char *rows = straight_rows(s, &channels);
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    png_infop info = png_create_info_struct(png);
    png_set_write_fn(png, out, png_to_buffer, png_flush_nothing);
    png_set_compression_level(png, level);
    png_set_filter(png, 0, libpng_filters);
    png_set_IHDR(png, info, w, h, 8, channels == 4 ? PNG_COLOR_TYPE_RGBA : PNG_COLOR_TYPE_RGB,
                 PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    for (int y = 0; y < h; y++) png_write_row(png, rows + (size_t)y * w * channels);
    png_write_end(png, info);
    png_destroy_write_struct(&png, &info);
    free(rows);
}

static void encode_spng(cairo_surface_t *s, buffer *out, int level) {
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s), channels;
    unsigned char *rows = straight_rows(s, &channels);
    spng_ctx *ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    spng_set_option(ctx, SPNG_IMG_COMPRESSION_LEVEL, level);
    struct spng_ihdr ihdr = { .width = w, .height = h, .bit_depth = 8,
                              .color_type = channels == 4 ? SPNG_COLOR_TYPE_TRUECOLOR_ALPHA : SPNG_COLOR_TYPE_TRUECOLOR };
    spng_set_ihdr(ctx, &ihdr);
    spng_encode_image(ctx, rows, (size_t)w * h * channels, SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    size_t n; int error;
    void *png = spng_get_png_buffer(ctx, &n, &error);
    append(out, png, n);
    free(png);
    spng_ctx_free(ctx);
    free(rows);
}

/* libdeflate for the zlib stream; the chunks and the row filters written here. */
/* The Paeth predictor without branches (pa = |b - c|, pb = |a - c|,
 * pc = |a + b - 2c|), which compilers turn into conditional moves. */
static inline int paeth(int a, int b, int c) {
    int pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c);
    int ab = pb < pa ? b : a, pab = pb < pa ? pb : pa;
    return pc < pab ? c : ab;
}

static void chunk(buffer *out, const char *type, const unsigned char *data, size_t n) {
    unsigned char header[8] = { n >> 24, n >> 16, n >> 8, n, type[0], type[1], type[2], type[3] };
    append(out, header, 8);
    if (n) append(out, data, n);
    /* crc32 with no bytes returns zlib's initial value, not the running CRC. */
    uLong crc = crc32(0, (const Bytef *)type, 4);
    if (n) crc = crc32(crc, data, n);
    unsigned char tail[4] = { crc >> 24, crc >> 16, crc >> 8, crc };
    append(out, tail, 4);
}

/* One PNG filter applied to one row; returns the row's sum of absolute
 * values (as signed bytes), libpng's measure of how well it will compress. */
static unsigned long filter_row(int f, const unsigned char *cur, const unsigned char *up, size_t line, int bpp, unsigned char *out) {
    unsigned long sum = 0;
    size_t x = 0;
#define EMIT(expr) do { unsigned char v = (unsigned char)(expr); out[x] = v; sum += v < 128 ? v : 256 - v; } while (0)
    switch (f) {
    case 0: for (; x < line; x++) EMIT(cur[x]); break;
    case 1: for (; x < (size_t)bpp; x++) EMIT(cur[x]); for (; x < line; x++) EMIT(cur[x] - cur[x - bpp]); break;
    case 2: for (; x < line; x++) EMIT(cur[x] - up[x]); break;
    case 3: for (; x < (size_t)bpp; x++) EMIT(cur[x] - (up[x] >> 1));
            for (; x < line; x++) EMIT(cur[x] - ((cur[x - bpp] + up[x]) >> 1)); break;
    case 4: for (; x < (size_t)bpp; x++) EMIT(cur[x] - up[x]);
            for (; x < line; x++) EMIT(cur[x] - paeth(cur[x - bpp], up[x], up[x - bpp])); break;
    }
#undef EMIT
    return sum;
}

/* 0: filter Up on every row; 1: Paeth on every row; 2: per row, the filter
 * with the least sum of absolute values (libpng's heuristic). */
static int deflate_filtering;
static void encode_libdeflate(cairo_surface_t *s, buffer *out, int level) {
    int w = cairo_image_surface_get_width(s), h = cairo_image_surface_get_height(s), channels;
    unsigned char *rows = straight_rows(s, &channels);
    size_t line = (size_t)w * channels;
    unsigned char *filtered = malloc((line + 1) * h), *candidate = malloc(line), *zero = calloc(line, 1);
    for (int y = 0; y < h; y++) {
        const unsigned char *cur = rows + y * line, *up = y ? cur - line : zero;
        unsigned char *dst = filtered + y * (line + 1);
        if (deflate_filtering < 2) {
            dst[0] = deflate_filtering == 0 ? 2 : 4;
            filter_row(dst[0], cur, up, line, channels, dst + 1);
            continue;
        }
        unsigned long best = filter_row(0, cur, up, line, channels, dst + 1);
        dst[0] = 0;
        for (int f = 1; f < 5; f++) {
            unsigned long sum = filter_row(f, cur, up, line, channels, candidate);
            if (sum < best) { best = sum; dst[0] = f; memcpy(dst + 1, candidate, line); }
        }
    }
    struct libdeflate_compressor *z = libdeflate_alloc_compressor(level);
    size_t bound = libdeflate_zlib_compress_bound(z, (line + 1) * h);
    unsigned char *idat = malloc(bound);
    size_t idatSize = libdeflate_zlib_compress(z, filtered, (line + 1) * h, idat, bound);
    libdeflate_free_compressor(z);
    static const unsigned char signature[8] = { 137, 80, 78, 71, 13, 10, 26, 10 };
    append(out, signature, 8);
    unsigned char ihdr[13] = { w >> 24, w >> 16, w >> 8, w, h >> 24, h >> 16, h >> 8, h, 8, channels == 4 ? 6 : 2, 0, 0, 0 };
    chunk(out, "IHDR", ihdr, 13);
    chunk(out, "IDAT", idat, idatSize);
    chunk(out, "IEND", NULL, 0);
    free(idat); free(filtered); free(candidate); free(zero); free(rows);
}

typedef struct { const char *name; void (*encode)(cairo_surface_t *, buffer *, int); int level, variant; } candidate;

static cairo_status_t from_buffer(void *closure, unsigned char *data, unsigned int length) {
    buffer *b = closure;
    if (b->size + length > b->capacity) return CAIRO_STATUS_READ_ERROR;
    memcpy(data, b->data + b->size, length);
    b->size += length;
    return CAIRO_STATUS_SUCCESS;
}

/* Decoded by Cairo, the encoded bytes give back the source pixels (within
 * one level per channel where unpremultiplying and premultiplying again round). */
static int round_trips(cairo_surface_t *source, buffer *png) {
    buffer reader = { png->data, 0, png->size };
    cairo_surface_t *decoded = cairo_image_surface_create_from_png_stream(from_buffer, &reader);
    if (cairo_surface_status(decoded)) return 0;
    int w = cairo_image_surface_get_width(source), h = cairo_image_surface_get_height(source), ok = 1;
    if (cairo_image_surface_get_width(decoded) != w || cairo_image_surface_get_height(decoded) != h) ok = 0;
    for (int y = 0; y < h && ok; y++) {
        const uint32_t *a = (const uint32_t *)(cairo_image_surface_get_data(source) + y * cairo_image_surface_get_stride(source));
        const uint32_t *b = (const uint32_t *)(cairo_image_surface_get_data(decoded) + y * cairo_image_surface_get_stride(decoded));
        for (int x = 0; x < w && ok; x++)
            for (int shift = 0; shift < 32; shift += 8)
                if (abs((int)((a[x] >> shift) & 255) - (int)((b[x] >> shift) & 255)) > 1) { ok = 0; break; }
    }
    cairo_surface_destroy(decoded);
    return ok;
}

/* A PNG frame as premultiplied ARGB32, as Easel paints it; NULL if it
 * is not a PNG. */
static cairo_surface_t *read_frame(const char *path) {
    cairo_surface_t *png = cairo_image_surface_create_from_png(path);
    if (cairo_surface_status(png)) { fprintf(stderr, "%s: not a PNG\n", path); return NULL; }
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, cairo_image_surface_get_width(png), cairo_image_surface_get_height(png));
    cairo_t *cr = cairo_create(s);
    cairo_set_source_surface(cr, png, 0, 0);
    cairo_set_operator(cr, CAIRO_OPERATOR_SOURCE);
    cairo_paint(cr);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    cairo_surface_destroy(png);
    return s;
}

static int by_double(const void *a, const void *b) { double x = *(const double *)a, y = *(const double *)b; return (x > y) - (x < y); }

int main(int argc, char **argv) {
    candidate candidates[] = {
        { "cairo (libpng, zlib 6, all filters)", encode_cairo, 6, 0 },
        { "libpng, zlib 1, filter Up", encode_libpng, 1, PNG_FILTER_UP },
        { "libpng, zlib 3, filter Paeth", encode_libpng, 3, PNG_FILTER_PAETH },
        { "libpng, zlib 6, all filters", encode_libpng, 6, PNG_ALL_FILTERS },
        { "libspng, zlib 6 (its default filters)", encode_spng, 6, 0 },
        { "libspng, zlib 1", encode_spng, 1, 0 },
        { "libdeflate 1, filter Up", encode_libdeflate, 1, 0 },
        { "libdeflate 1, filter Paeth", encode_libdeflate, 1, 1 },
        { "libdeflate 2, filter Paeth", encode_libdeflate, 2, 1 },
        { "libdeflate 2, filter Up", encode_libdeflate, 2, 0 },
        { "libdeflate 3, filter Up", encode_libdeflate, 3, 0 },
        { "libdeflate 3, filter Paeth", encode_libdeflate, 3, 1 },
        { "libdeflate 3, adaptive filter", encode_libdeflate, 3, 2 },
        { "libdeflate 4, adaptive filter", encode_libdeflate, 4, 2 },
        { "libdeflate 5, adaptive filter", encode_libdeflate, 5, 2 },
        { "libdeflate 6, adaptive filter", encode_libdeflate, 6, 2 },
        { "libdeflate 6, filter Paeth", encode_libdeflate, 6, 1 },
        { "libdeflate 7, adaptive filter", encode_libdeflate, 7, 2 },
        { "libdeflate 7, filter Paeth", encode_libdeflate, 7, 1 },
        { "libdeflate 8, filter Paeth", encode_libdeflate, 8, 1 },
        { "libdeflate 9, adaptive filter", encode_libdeflate, 9, 2 },
        { "libdeflate 12, adaptive filter", encode_libdeflate, 12, 2 },
    };
    int count = sizeof candidates / sizeof *candidates, runs = 7;
    if (argc == 4 && strcmp(argv[1], "--one") == 0) {
        cairo_surface_t *s = read_frame(argv[3]);
        if (!s) return 1;
        if (strcmp(argv[2], "none") == 0) { printf("0\n"); return 0; }
        for (int c = 0; c < count; c++) {
            if (strcmp(argv[2], candidates[c].name) != 0) continue;
            buffer out = { 0 };
            libpng_filters = candidates[c].variant;
            deflate_filtering = candidates[c].variant;
            candidates[c].encode(s, &out, candidates[c].level);
            printf("%zu\n", out.size);
            return 0;
        }
        fprintf(stderr, "no candidate %s\n", argv[2]);
        return 1;
    }
    printf("| encoder | time (all frames) | size (all frames) | time / Cairo's | size / Cairo's |\n|---|---|---|---|---|\n");
    double cairoTime = 0, cairoSize = 0;
    for (int c = 0; c < count; c++) {
        double total = 0, size = 0;
        int correct = 1;
        for (int f = 1; f < argc; f++) {
            cairo_surface_t *s = read_frame(argv[f]);
            if (!s) return 1;
            double times[16];
            buffer out = { 0 };
            for (int r = 0; r < runs; r++) {
                out.size = 0;
                libpng_filters = candidates[c].variant;
                deflate_filtering = candidates[c].variant;
                double start = now();
                candidates[c].encode(s, &out, candidates[c].level);
                times[r] = now() - start;
            }
            qsort(times, runs, sizeof *times, by_double);
            total += times[runs / 2];
            size += out.size;
            correct &= round_trips(s, &out);
            free(out.data);
            cairo_surface_destroy(s);
        }
        if (c == 0) { cairoTime = total; cairoSize = size; }
        printf("| %s%s | %.1f ms | %.0f KB | %.2f | %.2f |\n", candidates[c].name, correct ? "" : " (WRONG PIXELS)",
               total * 1000, size / 1024, total / cairoTime, size / cairoSize);
    }
    return 0;
}
