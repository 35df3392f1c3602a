#ifndef EASEL_FILE_SYSTEM_SYNC_H
#define EASEL_FILE_SYSTEM_SYNC_H

/// Flushes everything written to the file system that holds `fd` (glibc's
/// syncfs, a GNU extension Swift's Glibc module does not import): one flush
/// for all of a build's outputs. 0, or -1 with errno set.
int easel_sync_file_system(int fd);

/// Swaps two names in one folder atomically (glibc's renameat2 with
/// RENAME_EXCHANGE): a folder output replaced whole. 0, or -1 with errno set.
int easel_exchange_names(int folder, const char *a, const char *b);

#endif
