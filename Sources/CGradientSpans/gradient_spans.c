#include "gradient_spans.h"

#include <float.h>
#include <math.h>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

/* pixman is built without contracting a * b + c into one rounding. */
#pragma STDC FP_CONTRACT OFF

/* Easel's own evaluation of what pixman 0.40+ stores when it composites a
 * gradient onto a dithered a8r8g8b8 image: the same arithmetic, in the
 * same types and order, in one pass over the row (pixman runs a scanline
 * iterator, a float combiner, a dithering pass and a contraction to 8 bits,
 * each a loop over its own buffer). C rather than Swift: the conversions
 * from float to integer here are pixman's unchecked ones, and Swift checks
 * each of them (3x the instructions). EaselRender's GradientSpansTests
 * hold the bytes to pixman's. */

typedef struct {
    const easel_gradient_stop *stops;
    int count, repeat, valid;
    int64_t left, right;
    float slope[4], base[4]; /* alpha, red, green, blue */
} walker;

/* The stop before index 0 and the one after the last, as pixman keeps them
 * beside the stops for each repeat mode. */
static void stop_at(const walker *w, int n, int64_t *x, const easel_gradient_stop **color,
                    easel_gradient_stop *scratch)
{
    const easel_gradient_stop *s = w->stops;
    int count = w->count;
    if (n >= 0 && n < count) {
        *x = s[n].x;
        *color = &s[n];
        return;
    }
    int before = n < 0;
    switch (w->repeat) {
    case EASEL_REPEAT_NORMAL:
        *x = before ? (int64_t)s[count - 1].x - 0x10000 : (int64_t)s[0].x + 0x10000;
        *color = before ? &s[count - 1] : &s[0];
        return;
    case EASEL_REPEAT_REFLECT:
        *x = before ? -(int64_t)s[0].x : 0x20000 - (int64_t)s[count - 1].x;
        *color = before ? &s[0] : &s[count - 1];
        return;
    case EASEL_REPEAT_PAD:
        *x = before ? INT32_MIN : INT32_MAX;
        *color = before ? &s[0] : &s[count - 1];
        return;
    default:
        *x = before ? INT32_MIN : INT32_MAX;
        scratch->red = scratch->green = scratch->blue = scratch->alpha = 0;
        *color = scratch;
        return;
    }
}

static void reset(walker *w, int64_t pos)
{
    int64_t x;
    int64_t folded = (int32_t)pos & 0xffff;
    int odd = ((int32_t)pos & 0x10000) != 0;
    if (w->repeat == EASEL_REPEAT_NORMAL)
        x = folded;
    else if (w->repeat == EASEL_REPEAT_REFLECT)
        x = odd ? 0x10000 - folded : folded;
    else
        x = pos;

    int n = 0;
    while (n < w->count && x >= w->stops[n].x)
        n++;
    easel_gradient_stop scratch_left, scratch_right;
    const easel_gradient_stop *lc, *rc;
    int64_t left_x, right_x;
    stop_at(w, n - 1, &left_x, &lc, &scratch_left);
    stop_at(w, n, &right_x, &rc, &scratch_right);

    if (w->repeat == EASEL_REPEAT_NORMAL) {
        left_x += pos - x;
        right_x += pos - x;
    } else if (w->repeat == EASEL_REPEAT_REFLECT) {
        if (odd) {
            int64_t tmp = 0x10000 - right_x;
            right_x = 0x10000 - left_x;
            left_x = tmp;
            const easel_gradient_stop *tc = rc;
            rc = lc;
            lc = tc;
            x = 0x10000 - x;
        }
        left_x += pos - x;
        right_x += pos - x;
    } else if (w->repeat == EASEL_REPEAT_NONE) {
        if (n == 0)
            rc = lc;
        else if (n == w->count)
            lc = rc;
    }

    float l[4] = { lc->alpha * (1.0f / 257.0f), lc->red * (1.0f / 257.0f),
                   lc->green * (1.0f / 257.0f), lc->blue * (1.0f / 257.0f) };
    float r[4] = { rc->alpha * (1.0f / 257.0f), rc->red * (1.0f / 257.0f),
                   rc->green * (1.0f / 257.0f), rc->blue * (1.0f / 257.0f) };
    float lx = left_x * (1.0f / 65536.0f), rx = right_x * (1.0f / 65536.0f);
    float span = rx - lx;
    if ((-FLT_MIN < span && span < FLT_MIN) || left_x == INT32_MIN || right_x == INT32_MAX) {
        for (int i = 0; i < 4; i++) {
            w->slope[i] = 0.0f;
            w->base[i] = (l[i] + r[i]) / 510.0f;
        }
    } else {
        float reciprocal = 1.0f / span;
        for (int i = 0; i < 4; i++) {
            w->base[i] = (l[i] * rx - r[i] * lx) * reciprocal * (1.0f / 255.0f);
            w->slope[i] = (r[i] - l[i]) * reciprocal * (1.0f / 255.0f);
        }
    }
    w->left = left_x;
    w->right = right_x;
    w->valid = 1;
}

/* f + (d - f) / 256, clamped, truncated to 8 bits (1.0 stays 255). */
static inline __attribute__((unused)) uint32_t store(float f, float d)
{
    f = f + (d - f) * (1.0f / 256.0f);
    if (f > 1.0f) f = 1.0f;
    if (f < 0.0f) f = 0.0f;
    uint32_t u = (uint32_t)(f * 256.0f);
    return u - (u >> 8);
}

#ifdef __SSE2__
/* The four channels at once: the same single-precision operations lane by
 * lane (SSE2 arithmetic is IEEE single precision, as pixman's scalar code
 * is on x86-64), so the bytes are the scalar path's. */
static inline __attribute__((always_inline)) uint32_t pixel(walker *w, int64_t x, float d)
{
    if (!w->valid || x < w->left || x >= w->right)
        reset(w, x);
    float y = x * (1.0f / 65536.0f);
    __m128 v = _mm_add_ps(_mm_mul_ps(_mm_loadu_ps(w->slope), _mm_set1_ps(y)), _mm_loadu_ps(w->base));
    /* (1, a, a, a): alpha stays itself, colours are premultiplied. */
    __m128 alpha = _mm_shuffle_ps(v, v, 0);
    __m128 f = _mm_mul_ps(v, _mm_move_ss(alpha, _mm_set_ss(1.0f)));
    f = _mm_add_ps(f, _mm_mul_ps(_mm_sub_ps(_mm_set1_ps(d), f), _mm_set1_ps(1.0f / 256.0f)));
    f = _mm_max_ps(_mm_min_ps(f, _mm_set1_ps(1.0f)), _mm_setzero_ps());
    __m128i u = _mm_cvttps_epi32(_mm_mul_ps(f, _mm_set1_ps(256.0f)));
    u = _mm_sub_epi32(u, _mm_srli_epi32(u, 8));
    /* (a, r, g, b) to the bytes b, g, r, a: Cairo's ARGB32 in memory. */
    u = _mm_shuffle_epi32(u, _MM_SHUFFLE(0, 1, 2, 3));
    u = _mm_packs_epi32(u, u);
    u = _mm_packus_epi16(u, u);
    return (uint32_t)_mm_cvtsi128_si32(u);
}
#else
static inline uint32_t pixel(walker *w, int64_t x, float d)
{
    if (!w->valid || x < w->left || x >= w->right)
        reset(w, x);
    float y = x * (1.0f / 65536.0f);
    float a = w->slope[0] * y + w->base[0];
    float r = a * (w->slope[1] * y + w->base[1]);
    float g = a * (w->slope[2] * y + w->base[2]);
    float b = a * (w->slope[3] * y + w->base[3]);
    return store(a, d) << 24 | store(r, d) << 16 | store(g, d) << 8 | store(b, d);
}
#endif

void easel_gradient_row(uint32_t *row, int width, int64_t t, double inc, int fill,
                        const float thresholds[8],
                        const easel_gradient_stop *stops, int count, int repeat)
{
    if (count <= 0)
        return;
    walker w = { stops, count, repeat, 0, 0, 0, { 0 }, { 0 } };
    if (fill) {
        uint32_t period[8];
        for (int i = 0; i < 8; i++)
            period[i] = pixel(&w, t, thresholds[i]);
        for (int i = 0; i < width; i++)
            row[i] = period[i & 7];
        return;
    }
    for (int i = 0; i < width; i++)
        row[i] = pixel(&w, t + (int64_t)(inc * i), thresholds[i & 7]);
}

/* pixman's radial_compute_color for its float path: the larger root t of
 * A t^2 - 2 B t + C = 0 whose circle has a radius of 0 or more, else
 * transparent black (the inner circle here has radius 0, so mindr is -0). */
static inline uint32_t radial_pixel(walker *w, double a, double b, double c, double inva, double dr, double mindr, float d)
{
    double t;
    if (a == 0) {
        if (b == 0)
            return 0;
        t = 65536 / 2 * c / b;
        if (w->repeat == EASEL_REPEAT_NONE ? !(0 <= t && t <= 65536) : !(t * dr >= mindr))
            return 0;
    } else {
        double discr = b * b + a * -c + 0.0 * 0.0;
        if (discr < 0)
            return 0;
        double root = sqrt(discr);
        double t0 = (b + root) * inva, t1 = (b - root) * inva;
        if (w->repeat == EASEL_REPEAT_NONE) {
            if (0 <= t0 && t0 <= 65536) t = t0;
            else if (0 <= t1 && t1 <= 65536) t = t1;
            else return 0;
        } else {
            if (t0 * dr >= mindr) t = t0;
            else if (t1 * dr >= mindr) t = t1;
            else return 0;
        }
    }
    /* Beyond ±4e18 (far outside every stop) pixman's conversion to an
     * integer is undefined; here the parameter is clamped, so only there
     * can the bytes differ from pixman's. */
    if (t > 4e18) t = 4e18;
    if (t < -4e18) t = -4e18;
    return pixel(w, (int64_t)t, d);
}

int easel_radial_row(uint32_t *row, int width, int64_t vx, int64_t vy, int64_t ux, int64_t uy,
                     int64_t focus_x, int64_t focus_y, int64_t center_x, int64_t center_y, int64_t radius,
                     const float thresholds[8],
                     const easel_gradient_stop *stops, int count, int repeat)
{
    if (count <= 0 || radius > ((int64_t)1 << 29) || radius < 0)
        return 0;
    walker w = { stops, count, repeat, 0, 0, 0, { 0 }, { 0 } };
    /* Every term below stays under 2^62: px, py, dx, dy and the whole
     * row's steps within 2^29. */
    const int64_t limit = (int64_t)1 << 29;
    int64_t dx = center_x - focus_x, dy = center_y - focus_y, dr = radius;
    int64_t px = vx - focus_x, py = vy - focus_y;
    if (px > limit || px < -limit || py > limit || py < -limit || dx > limit || dx < -limit || dy > limit || dy < -limit
        || ux > limit || ux < -limit || uy > limit || uy < -limit || (int64_t)width * (ux < 0 ? -ux : ux) > limit
        || (int64_t)width * (uy < 0 ? -uy : uy) > limit)
        return 0;
    /* Exact in 64 bits, as pixman's `dot`; the inner radius is 0. */
    int64_t a_exact = dx * dx + dy * dy - dr * dr;
    double a = (double)a_exact;
    double inva = a_exact != 0 ? 1. * 65536 / a : 0;
    double mindr = -1. * 65536 * 0;
    int64_t b = px * dx + py * dy, db = ux * dx + uy * dy;
    int64_t c = px * px + py * py, dc = (2 * px + ux) * ux + (2 * py + uy) * uy, ddc = 2 * (ux * ux + uy * uy);
    for (int i = 0; i < width; i++) {
        row[i] = radial_pixel(&w, a, (double)b, (double)c, inva, (double)dr, mindr, thresholds[i & 7]);
        b += db;
        c += dc;
        dc += ddc;
    }
    return 1;
}
