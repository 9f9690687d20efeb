#ifndef HEARTH_CSYSTEM_H
#define HEARTH_CSYSTEM_H
// The system calls and constants Swift's Glibc overlay does not export cleanly.
// Only tiny wrappers live here; all logic stays in Swift.
#include <errno.h>
#include <stdint.h>
#include <time.h>
#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
#include <spawn.h>
#include <pthread.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/uio.h>

/// The calling thread's errno (a macro in C).
static inline int csystem_errno(void) { return errno; }

/// Block SIGINT, SIGTERM and SIGPIPE in the calling thread (threads created later inherit the mask),
/// so that signals are only ever received through `csystem_wait_signal`.
int csystem_block_shutdown_signals(void);

/// Wait for SIGINT or SIGTERM; returns the signal number, or -1 with errno set.
int csystem_wait_signal(void);

/// fcntl with an integer argument (fcntl is variadic in C).
static inline int csystem_fcntl_int(int fd, int cmd, int arg) { return fcntl(fd, cmd, arg); }

/// The bytes malloc has handed out and not yet taken back, in every arena (glibc's mallinfo2,
/// which Swift's Glibc overlay does not export): what the process's data holds, without the
/// freed memory malloc keeps for reuse that RSS also counts.
static inline size_t csystem_heap_bytes_in_use(void) {
    struct mallinfo2 info = mallinfo2();
    return info.uordblks + info.hblkhd;
}

// MARK: child processes (the test launcher).

/// A pipe whose two ends are close-on-exec, created atomically (pipe2 with O_CLOEXEC), so a child
/// spawned concurrently by another thread cannot inherit them.
int csystem_pipe_cloexec(int fds[2]);

/// posix_spawn_file_actions_addclosefrom_np: the child closes every descriptor from `lowest` up
/// before exec, whatever the parent forgot to mark close-on-exec. Returns 0 or an error number.
int csystem_spawn_file_actions_addclosefrom(posix_spawn_file_actions_t *actions, int lowest);

// MARK: epoll, eventfd and sockets for the HTTP event loops.

/// epoll flags as plain integers (glibc declares them as enum constants plus macros).
static const uint32_t CSYSTEM_EPOLLIN = EPOLLIN;
static const uint32_t CSYSTEM_EPOLLOUT = EPOLLOUT;
static const uint32_t CSYSTEM_EPOLLRDHUP = EPOLLRDHUP;
static const uint32_t CSYSTEM_EPOLLERR = EPOLLERR;
static const uint32_t CSYSTEM_EPOLLHUP = EPOLLHUP;
static const uint32_t CSYSTEM_EPOLLET = EPOLLET;

/// One readiness report, flattened: `struct epoll_event` is packed on x86-64, which Swift cannot import faithfully.
typedef struct {
    uint64_t token;
    uint32_t events;
} csystem_epoll_ready;

/// epoll_create1 with EPOLL_CLOEXEC.
static inline int csystem_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

/// epoll_ctl with the event built from `events` and `token` (returned in `csystem_epoll_ready.token`).
static inline int csystem_epoll_ctl(int epfd, int op, int fd, uint32_t events, uint64_t token) {
    struct epoll_event event;
    event.events = events;
    event.data.u64 = token;
    return epoll_ctl(epfd, op, fd, &event);
}

/// epoll_wait into a flat array of at most 256 reports.
int csystem_epoll_wait(int epfd, csystem_epoll_ready *ready, int max_events, int timeout_ms);

/// A non-blocking, close-on-exec eventfd starting at 0.
static inline int csystem_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/// A non-blocking, close-on-exec TCP socket of `family` (AF_INET or AF_INET6).
static inline int csystem_stream_socket(int family) {
    return socket(family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
}

/// accept4 returning a non-blocking, close-on-exec socket.
int csystem_accept(int fd, struct sockaddr_storage *address, socklen_t *length);

/// pthread_setname_np (a GNU extension); names are cut to 15 bytes by the kernel.
int csystem_set_thread_name(pthread_t thread, const char *name);

/// send without raising SIGPIPE on a connection the peer has closed.
static inline ssize_t csystem_send(int fd, const void *bytes, size_t count) {
    return send(fd, bytes, count, MSG_NOSIGNAL);
}

/// Nanoseconds of CLOCK_MONOTONIC.
static inline uint64_t csystem_monotonic_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}
#endif
