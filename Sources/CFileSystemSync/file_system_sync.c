#define _GNU_SOURCE
#include "file_system_sync.h"
#include <unistd.h>

int easel_sync_file_system(int fd) {
    return syncfs(fd);
}

#include <stdio.h>
#include <fcntl.h>

int easel_exchange_names(int folder, const char *a, const char *b) {
    return renameat2(folder, a, folder, b, RENAME_EXCHANGE);
}
