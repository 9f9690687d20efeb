#include "CSystem.h"

int csystem_epoll_wait(int epfd, csystem_epoll_ready *ready, int max_events, int timeout_ms) {
    struct epoll_event events[256];
    if (max_events > 256) {
        max_events = 256;
    }
    int count = epoll_wait(epfd, events, max_events, timeout_ms);
    for (int index = 0; index < count; index++) {
        ready[index].token = events[index].data.u64;
        ready[index].events = events[index].events;
    }
    return count;
}
