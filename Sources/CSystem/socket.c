// accept4 and pthread_setname_np are GNU extensions: declare _GNU_SOURCE here, not in the shared header (where it would make the
// header's view of glibc differ from Swift's Glibc module).
#define _GNU_SOURCE
#include <sys/socket.h>
#include "CSystem.h"

int csystem_accept(int fd, struct sockaddr_storage *address, socklen_t *length) {
    return accept4(fd, (struct sockaddr *)address, length, SOCK_NONBLOCK | SOCK_CLOEXEC);
}

#include <pthread.h>

int csystem_set_thread_name(pthread_t thread, const char *name) {
    return pthread_setname_np(thread, name);
}
