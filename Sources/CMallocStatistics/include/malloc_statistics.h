#ifndef EASEL_MALLOC_STATISTICS_H
#define EASEL_MALLOC_STATISTICS_H
#include <stddef.h>

/// Bytes malloc has handed out and not had back, over every arena, from
/// glibc's mallinfo2 (allocated chunks plus mmapped ones): what a leak
/// grows. Swift cannot call mallinfo2 itself (its struct comes back by
/// value, in C's convention).
size_t easel_malloc_in_use(void);

#endif
