#define _GNU_SOURCE
#include "file_system_sync.h"
#include <unistd.h>

int easel_sync_file_system(int fd) {
    return syncfs(fd);
}
