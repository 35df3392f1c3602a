#define _GNU_SOURCE /* RTLD_DEFAULT */
#include "LazyLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Indexed like easel_lazy_libraries; written under the lock. */
static void *handles[16];

/* An installation fault, not a scene's: nothing can be rendered without
   the library, so the run ends here (stderr is unbuffered). */
static void fail(const char *library, const char *problem) {
    fprintf(stderr, "easel: error: %s: %s; install Easel's dependencies (scripts/install-deps)\n", library, problem);
    _exit(1);
}

void *easel_lazy_symbol(int library, void *_Atomic *slot, const char *name) {
    void *function = atomic_load_explicit(slot, memory_order_acquire);
    if (function) return function;
    pthread_mutex_lock(&lock);
    const char *soname = easel_lazy_libraries[library];
    if (!handles[library]) {
        /* RTLD_NOW: a library that cannot bind fails here, not mid-render.
           RTLD_GLOBAL: its symbols join the process's, as if linked. */
        handles[library] = dlopen(soname, RTLD_NOW | RTLD_GLOBAL);
        if (!handles[library]) fail(soname, dlerror());
    }
    /* Looked up as the loader would have bound it at start (a library
       preloaded with LD_PRELOAD still comes first); never the stub itself,
       which is hidden in the executable. */
    function = dlsym(RTLD_DEFAULT, name);
    if (!function) function = dlsym(handles[library], name);
    if (!function) {
        char problem[256];
        snprintf(problem, sizeof problem, "has no %s (older than the version Easel was built with)", name);
        fail(soname, problem);
    }
    pthread_mutex_unlock(&lock);
    atomic_store_explicit(slot, function, memory_order_release);
    return function;
}
