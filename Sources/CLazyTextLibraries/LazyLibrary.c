#include "LazyLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
/* Indexed like easel_lazy_libraries; written under the lock. */
static void *handles[16];
static atomic_int loaded;

static void fail(const char *what, const char *name) {
    /* stderr is unbuffered; the message is the run's last. */
    fprintf(stderr, "easel: error: cannot load %s (%s): easel needs it for text and string tables; "
                    "install it (scripts/install-deps) [library-missing]\n", name, what);
    _exit(1);
}

void *easel_lazy_symbol(int library, void *_Atomic *slot, const char *name) {
    void *function = atomic_load_explicit(slot, memory_order_acquire);
    if (function) return function;
    pthread_mutex_lock(&lock);
    if (!handles[library]) {
        /* RTLD_NOW: a library that cannot bind fails here, not mid-render. */
        handles[library] = dlopen(easel_lazy_libraries[library], RTLD_NOW | RTLD_GLOBAL);
        if (!handles[library]) fail(dlerror(), easel_lazy_libraries[library]);
        atomic_fetch_add(&loaded, 1);
    }
    /* From this library and what it depends on: never the stub itself,
       which is hidden in the executable. */
    function = dlsym(handles[library], name);
    if (!function) fail("a function is missing", name);
    pthread_mutex_unlock(&lock);
    atomic_store_explicit(slot, function, memory_order_release);
    return function;
}

int easel_lazy_libraries_loaded(void) { return atomic_load(&loaded); }
