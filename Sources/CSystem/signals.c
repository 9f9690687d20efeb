#include "CSystem.h"

static void shutdown_signal_set(sigset_t *set) {
    sigemptyset(set);
    sigaddset(set, SIGINT);
    sigaddset(set, SIGTERM);
}

int csystem_block_shutdown_signals(void) {
    sigset_t set;
    shutdown_signal_set(&set);
    sigaddset(&set, SIGPIPE);
    return pthread_sigmask(SIG_BLOCK, &set, NULL);
}

int csystem_wait_signal(void) {
    sigset_t set;
    shutdown_signal_set(&set);
    int signal_number = 0;
    int rc = sigwait(&set, &signal_number);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return signal_number;
}
