#ifndef HEARTH_CSYSTEM_H
#define HEARTH_CSYSTEM_H
// The system calls and constants Swift's Glibc overlay does not export cleanly.
// Only tiny wrappers live here; all logic stays in Swift.
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
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
#endif
