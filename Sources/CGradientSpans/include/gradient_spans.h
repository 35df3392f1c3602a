#ifndef EASEL_GRADIENT_SPANS_H
#define EASEL_GRADIENT_SPANS_H

#include <stdint.h>

/* A gradient stop as pixman holds it: a 16.16 offset and a 16-bit colour. */
typedef struct {
    int32_t x;
    uint16_t red, green, blue, alpha;
} easel_gradient_stop;

/* pixman's repeat modes, by the same numbers. */
enum { EASEL_REPEAT_NONE = 0, EASEL_REPEAT_NORMAL = 1, EASEL_REPEAT_PAD = 2, EASEL_REPEAT_REFLECT = 3 };

/* Writes `width` pixels of one row of a gradient, dithered, as pixman's
 * float path stores them onto a8r8g8b8: pixel i takes the 16.16 gradient
 * parameter `t + (int64_t)(inc * i)` (or `t` for every pixel when `fill`),
 * its colour from the stops as pixman's gradient walker computes it, and
 * the ordered-dither threshold `thresholds[i & 7]`. The caller checks that
 * `inc * width` and `t` are far inside the range of int64_t. */
void easel_gradient_row(uint32_t *row, int width, int64_t t, double inc, int fill,
                        const float thresholds[8],
                        const easel_gradient_stop *stops, int count, int repeat);

/* One row of a radial gradient from a circle of radius 0 at `focus` to
 * one of radius `radius` (16.16) at `center`, as pixman's affine path
 * computes it: `v` is the row's first pixel centre in gradient space
 * (16.16, from pixman_transform_point_3d) and `unit` the step from one
 * pixel to the next. False (the row unwritten) when a value leaves the
 * range where pixman's integer arithmetic is exact. */
int easel_radial_row(uint32_t *row, int width, int64_t vx, int64_t vy, int64_t ux, int64_t uy,
                     int64_t focus_x, int64_t focus_y, int64_t center_x, int64_t center_y, int64_t radius,
                     const float thresholds[8],
                     const easel_gradient_stop *stops, int count, int repeat);

#endif
