/*
 * The floor of the WebSocket fan-out benchmark: the least a server can do to answer loadgen.c.
 *
 * Not a WebSocket server anyone should use. It accepts graphql-transport-ws upgrades, answers
 * `connection_init` with `connection_ack`, counts `subscribe` messages, and on every
 * `POST` to PUBLISH_PORT writes one pre-built `next` frame to every subscribed connection with
 * one send() each, then answers 204. No JSON, no GraphQL, no buffering, no allocation per event:
 * whatever latency the load generator measures against it belongs to the apparatus (the
 * loopback TCP stack, the kernel's scheduling of the two processes on the shared cores, the
 * load generator itself), and is the floor under every real server's figure.
 *
 *   floor-server PORT PUBLISH_PORT [THREADS]
 *
 * THREADS (default 2, one per core of the benchmark machine) epoll loops each own a
 * SO_REUSEPORT listener on PORT and the connections it accepts; a publish wakes every loop with
 * one eventfd write and each writes the frame to its own connections, as Hearth's event loops do.
 * Prints `listening` on stdout once ready; stops on SIGTERM.
 *
 * Deliberate shortcuts, harmless for the benchmark's client: Sec-WebSocket-Accept is the one for
 * RFC 6455's sample key (which loadgen.c sends and does not check), client frames are expected
 * unfragmented, and permessage-deflate is never agreed.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define MAX_THREADS 16
#define WAKE_TOKEN UINT64_MAX
#define LISTEN_TOKEN (UINT64_MAX - 1)
#define PUBLISH_TOKEN (UINT64_MAX - 2)

struct client {
    int fd;
    int upgraded, subscribed;
    unsigned char pending[512];
    size_t pending_len;
};

struct loop {
    pthread_t thread;
    int epfd, listen_fd, wake_fd;
    struct client **clients; /* by fd */
    int *subscribed_fds;
    int subscribed_count;
};

static struct loop loops[MAX_THREADS];
static int thread_count = 2;
static int port, publish_port, publish_fd = -1;
static atomic_long sequence;
static int max_fds;

static void die(const char *call) {
    fprintf(stderr, "floor-server: %s: %s\n", call, strerror(errno));
    exit(1);
}

static int listen_on(int on_port, int reuse_port) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
    if (fd < 0) die("socket");
    int one = 1;
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (reuse_port) setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)on_port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (bind(fd, (struct sockaddr *)&address, sizeof address) != 0) die("bind");
    if (listen(fd, 4096) != 0) die("listen");
    return fd;
}

static void watch(struct loop *loop, int fd, uint64_t token) {
    struct epoll_event event = {.events = EPOLLIN, .data.u64 = token};
    if (epoll_ctl(loop->epfd, EPOLL_CTL_ADD, fd, &event) != 0) die("epoll_ctl");
}

static void send_frame(int fd, const char *text) {
    unsigned char frame[256];
    size_t length = strlen(text);
    frame[0] = 0x81;
    frame[1] = (unsigned char)length; /* every message here is shorter than 126 bytes */
    memcpy(frame + 2, text, length);
    (void)send(fd, frame, length + 2, MSG_NOSIGNAL | MSG_DONTWAIT);
}

static void drop(struct loop *loop, struct client *client) {
    if (client->subscribed) {
        for (int i = 0; i < loop->subscribed_count; i++) {
            if (loop->subscribed_fds[i] == client->fd) {
                loop->subscribed_fds[i] = loop->subscribed_fds[--loop->subscribed_count];
                break;
            }
        }
    }
    loop->clients[client->fd] = NULL;
    close(client->fd);
    free(client);
}

static void on_text(struct loop *loop, struct client *client, const char *text, size_t length) {
    if (memmem(text, length, "\"connection_init\"", 17)) {
        send_frame(client->fd, "{\"type\":\"connection_ack\"}");
    } else if (memmem(text, length, "\"subscribe\"", 11) && !client->subscribed) {
        client->subscribed = 1;
        loop->subscribed_fds[loop->subscribed_count++] = client->fd;
    } else if (memmem(text, length, "\"ping\"", 6)) {
        send_frame(client->fd, "{\"type\":\"pong\"}");
    }
}

/* Consumes complete masked client frames from `data`; returns the bytes used. */
static size_t on_frames(struct loop *loop, struct client *client, unsigned char *data, size_t length) {
    size_t used = 0;
    while (length - used >= 6) {
        unsigned char *frame = data + used;
        size_t payload_length = frame[1] & 0x7f, header = 6;
        if (payload_length == 126) {
            if (length - used < 8) break;
            payload_length = (size_t)frame[2] << 8 | frame[3];
            header = 8;
        } else if (payload_length == 127) {
            return (size_t)-1;
        }
        if (length - used < header + payload_length) break;
        unsigned char *mask = frame + header - 4, *payload = frame + header;
        for (size_t i = 0; i < payload_length; i++) payload[i] ^= mask[i & 3];
        int opcode = frame[0] & 0x0f;
        if (opcode == 8) return (size_t)-1;
        if (opcode == 1) on_text(loop, client, (const char *)payload, payload_length);
        used += header + payload_length;
    }
    return used;
}

static void on_readable(struct loop *loop, struct client *client) {
    unsigned char buffer[4096];
    memcpy(buffer, client->pending, client->pending_len);
    ssize_t n = recv(client->fd, buffer + client->pending_len, sizeof buffer - client->pending_len, 0);
    if (n <= 0) {
        if (n < 0 && errno == EAGAIN) return;
        drop(loop, client);
        return;
    }
    size_t length = client->pending_len + (size_t)n, used = 0;
    if (!client->upgraded) {
        unsigned char *end = memmem(buffer, length, "\r\n\r\n", 4);
        if (!end) {
            if (length > sizeof client->pending) drop(loop, client);
            else memcpy(client->pending, buffer, client->pending_len = length);
            return;
        }
        static const char response[] = "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                                       "Sec-WebSocket-Accept: s3pPLMBiTxaQ9kYGzzhZRbK+xOo=\r\n"
                                       "Sec-WebSocket-Protocol: graphql-transport-ws\r\n\r\n";
        (void)send(client->fd, response, sizeof response - 1, MSG_NOSIGNAL);
        client->upgraded = 1;
        used = (size_t)(end - buffer) + 4;
    }
    size_t consumed = on_frames(loop, client, buffer + used, length - used);
    if (consumed == (size_t)-1 || length - used - consumed > sizeof client->pending) {
        drop(loop, client);
        return;
    }
    used += consumed;
    client->pending_len = length - used;
    memcpy(client->pending, buffer + used, client->pending_len);
}

static void broadcast(struct loop *loop) {
    char text[128];
    snprintf(text, sizeof text, "{\"id\":\"1\",\"type\":\"next\",\"payload\":{\"data\":{\"serverEvents\":{\"sequence\":\"%ld\"}}}}",
             atomic_load(&sequence));
    for (int i = 0; i < loop->subscribed_count; i++) send_frame(loop->subscribed_fds[i], text);
}

/* Reads the publish request (headers only, no body expected), wakes the other loops, writes this
 * loop's share, then answers. */
static void on_publish(struct loop *loop) {
    int fd = accept4(publish_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0) return;
    char request[2048];
    size_t length = 0;
    ssize_t n;
    while (length < sizeof request && (n = recv(fd, request + length, sizeof request - length, 0)) > 0) {
        length += (size_t)n;
        if (memmem(request, length, "\r\n\r\n", 4)) break;
    }
    atomic_fetch_add(&sequence, 1);
    uint64_t one = 1;
    for (int i = 0; i < thread_count; i++)
        if (&loops[i] != loop && write(loops[i].wake_fd, &one, 8) != 8) die("write (eventfd)");
    broadcast(loop);
    static const char response[] = "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n";
    (void)send(fd, response, sizeof response - 1, MSG_NOSIGNAL);
    close(fd);
}

static void *run(void *argument) {
    struct loop *loop = argument;
    struct epoll_event events[512];
    for (;;) {
        int count = epoll_wait(loop->epfd, events, 512, -1);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) die("epoll_wait");
        for (int i = 0; i < count; i++) {
            uint64_t token = events[i].data.u64;
            if (token == WAKE_TOKEN) {
                uint64_t counter;
                if (read(loop->wake_fd, &counter, 8) == 8) broadcast(loop);
            } else if (token == PUBLISH_TOKEN) {
                on_publish(loop);
            } else if (token == LISTEN_TOKEN) {
                int fd;
                while ((fd = accept4(loop->listen_fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC)) >= 0) {
                    if (fd >= max_fds) {
                        close(fd);
                        continue;
                    }
                    int one = 1;
                    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
                    struct client *client = calloc(1, sizeof *client);
                    if (!client) die("calloc");
                    client->fd = fd;
                    loop->clients[fd] = client;
                    watch(loop, fd, (uint64_t)fd);
                }
            } else if (loop->clients[token]) {
                on_readable(loop, loop->clients[token]);
            }
        }
    }
    return NULL;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: floor-server PORT PUBLISH_PORT [THREADS]\n");
        return 2;
    }
    port = atoi(argv[1]);
    publish_port = atoi(argv[2]);
    if (argc > 3) thread_count = atoi(argv[3]);
    if (thread_count < 1 || thread_count > MAX_THREADS) thread_count = 2;
    max_fds = (int)sysconf(_SC_OPEN_MAX);
    publish_fd = listen_on(publish_port, 0);
    for (int i = 0; i < thread_count; i++) {
        struct loop *loop = &loops[i];
        loop->epfd = epoll_create1(EPOLL_CLOEXEC);
        loop->wake_fd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
        if (loop->epfd < 0 || loop->wake_fd < 0) die("epoll_create1 or eventfd");
        loop->listen_fd = listen_on(port, 1);
        loop->clients = calloc((size_t)max_fds, sizeof *loop->clients);
        loop->subscribed_fds = calloc((size_t)max_fds, sizeof *loop->subscribed_fds);
        if (!loop->clients || !loop->subscribed_fds) die("calloc");
        watch(loop, loop->listen_fd, LISTEN_TOKEN);
        watch(loop, loop->wake_fd, WAKE_TOKEN);
        if (i == 0) watch(loop, publish_fd, PUBLISH_TOKEN);
    }
    for (int i = 0; i < thread_count; i++)
        if (pthread_create(&loops[i].thread, NULL, run, &loops[i]) != 0) die("pthread_create");
    printf("listening\n");
    fflush(stdout);
    pthread_join(loops[0].thread, NULL);
    return 0;
}
