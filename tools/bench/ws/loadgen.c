/*
 * WebSocket fan-out load generator for Hearth's benchmarks (tools/bench/ws/run.py builds it).
 *
 * Opens N graphql-transport-ws connections to ws://127.0.0.1:PORT/graphql from one epoll
 * thread, subscribes each to `serverEvents`, then for each round triggers one publish with an
 * HTTP POST (to PUBLISH_PORT, PUBLISH_PATH) and measures the time from sending that POST to
 * the moment the LAST connection has received its `next` message for the round.
 *
 * Two clocks say when a connection received the message:
 *   delivered  the kernel's receive timestamp of the bytes (SO_TIMESTAMPNS): when the server's
 *              send() put them on the loopback interface, on their way into the client socket.
 *              It is what 10,000 separate devices would see, and it does not depend on how fast
 *              this one thread gets round to reading the socket. The headline figure.
 *   read       when this program's recv() returned them: `delivered` plus the queueing in this
 *              single thread, which reads 10,000 sockets one after the other (one recv each;
 *              about 1 us per socket, so up to ~10 ms behind at the end of a round).
 * Both are measured from the same instant, taken just before the POST is sent.
 *
 * One thread on purpose: the load generator shares the benchmark machine's two cores with the
 * server, and every extra busy thread here is CPU taken from the server under test. With the
 * kernel timestamps, its own reading speed no longer enters the headline figure.
 *
 * Protocol with the driving script, on stdout/stdin (one line each):
 *   ready connections=N compressed=K setup_ms=T warm_ups=W   all N subscribed (K with permessage-deflate)
 *                                                   and the W-th warm-up publish reached all (see warm_up)
 *   (waits for a line on stdin, so the script can read the server's RSS)
 *   result rounds=R p50_ms=.. p99_ms=.. max_ms=.. min_ms=.. first_p50_ms=.. read_p50_ms=.. read_p99_ms=..
 *     (latencies until the last client was delivered the message; first_p50_ms: median time until
 *     the first client was; read_*: until the last client had read it, see below; cpu_ms: this
 *     program's own CPU time per round, user and system)
 *   (waits for a line on stdin, then closes every connection and exits 0)
 * Any failure (refused handshake, close frame, timeout) prints `error: ...` on stderr, exit 1.
 *
 * Signed-in subscriptions triggered by mutations (tools/bench/leaderboard, with --trigger-file):
 *   --tokens FILE            access tokens, one a line; connection i signs in with line i % lines
 *                            (`connection_init` payload `{"authorization":"Bearer ..."}`)
 *   --subscribe-payload JSON the `subscribe` message's payload (default: `serverEvents`); every `%DEVICE%`
 *                            in it becomes the connection's index, so each connection can send a document of
 *                            its own (the server shares one execution among identical subscriptions of a user)
 *   --trigger-file FILE      each publish is the next line's request: `TOKEN<TAB>JSON BODY`, sent as
 *                            `POST PUBLISH_PATH` with that bearer token; a response that is not 200 or
 *                            carries `"errors"` fails. The round ends when the response is in AND
 *                            every connection has received its `next`.
 *   --quiet-file FILE        the same kind of requests, for rounds with nobody to receive anything
 * Then, after `ready` (whose warm-up publishes take lines of the trigger file), commands on stdin:
 *   measure N   N rounds of the trigger file; prints
 *               `result rounds=N values=a,b,...` (per round, ms: the last connection's delivery
 *               after the response's kernel receive timestamp) `from_request=...` (the same from
 *               sending the request) `response=...` (the request's round trip) `cpu_ms=..`
 *               `each_p50=.. each_p99=..` (ms: every connection's delivery of every round after the
 *               response's timestamp, N x connections values) `frames_min=.. frames_max=..` (the
 *               fewest and most `next` messages one connection received over the N rounds)
 *   quiet N     N requests of the quiet file, one after another; prints `quiet rounds=N response=...`
 *   exit        closes every connection and exits 0 (so does the end of stdin)
 *
 * With --compress, the handshake offers `permessage-deflate; client_no_context_takeover;
 * server_no_context_takeover`; when the server accepts it, compressed messages (RSV1) are
 * inflated with zlib before they are recognised. Client frames are always sent uncompressed
 * and masked, as RFC 6455 requires. Server pings are answered with pongs.
 *
 * Not checked: Sec-WebSocket-Accept (the benchmark trusts its loopback peer).
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

enum state { CONNECTING, UPGRADING, INITIALISING, SUBSCRIBED };

struct conn {
    int fd;
    enum state state;
    int compressed;      /* permessage-deflate negotiated */
    int nexts;           /* `next` messages received */
    int base;            /* `nexts` when the measured rounds began */
    int64_t delivered_at; /* CLOCK_REALTIME ns, kernel timestamp of the message that reached the round's target */
    unsigned char *pending; /* bytes of an incomplete frame or handshake response */
    size_t pending_len;
};

/* Kernel receive timestamp (CLOCK_REALTIME ns) of the bytes of the last recvmsg. */
static int64_t received_at;

static struct {
    int port, publish_port, connections, rounds, compress, concurrency;
    const char *publish_path;
    int round_timeout_ms, setup_timeout_ms;
    int poll_interval_us;
    const char *tokens_file, *subscribe_payload, *trigger_file, *quiet_file;
} opt = {0, 0, 10000, 30, 0, 256, "/_test/publish", 10000, 120000, 0, NULL,
         "{\"query\":\"subscription { serverEvents { sequence } }\"}", NULL, NULL};

/* The lines of a file (--tokens, --trigger-file, --quiet-file), and the next one to use. */
struct lines {
    char **line;
    int count, next;
};
static struct lines tokens, triggers, quiets;

/* The response to the current trigger request (--trigger-file): read in the event loop, so its
 * arrival is timed like the subscribers' messages (kernel receive timestamp). */
static struct {
    int fd, done;
    size_t length;
    char bytes[16384];
    int64_t received_at; /* CLOCK_REALTIME ns, kernel timestamp of the bytes that completed it */
    int64_t read_at;     /* CLOCK_MONOTONIC ns when this program read them */
} response = {.fd = -1};
#define TRIGGER_INDEX UINT32_MAX

static struct conn *conns;
static int epfd;
static int opened, subscribed, in_flight, compressed;
static int target_nexts;     /* every connection must reach base + this count of `next` messages */
static int reached;          /* connections that reached target_nexts */
static int64_t first_read;    /* CLOCK_MONOTONIC ns of the first connection reaching target */
static int64_t last_read;     /* CLOCK_MONOTONIC ns of the last connection reaching target */
static int64_t first_delivery; /* CLOCK_REALTIME ns: earliest kernel receive timestamp of a target message */
static int64_t last_delivery; /* CLOCK_REALTIME ns: latest kernel receive timestamp of a target message */
static z_stream inflater;
static unsigned char inflated[1 << 16];

static int64_t cpu_ns(void);
static int compare(const void *a, const void *b);
static double percentile(const double *sorted, int count, double p);

static void fail(const char *what) {
    fprintf(stderr, "error: %s\n", what);
    exit(1);
}

static void fail_errno(const char *call) {
    fprintf(stderr, "error: %s: %s\n", call, strerror(errno));
    exit(1);
}

static int64_t clock_ns(clockid_t clock) {
    struct timespec t;
    clock_gettime(clock, &t);
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static int64_t now_ns(void) { return clock_ns(CLOCK_MONOTONIC); }

static void raise_fd_limit(void) {
    struct rlimit limit;
    if (getrlimit(RLIMIT_NOFILE, &limit) != 0) fail_errno("getrlimit");
    limit.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &limit) != 0) fail_errno("setrlimit");
    if ((long long)limit.rlim_cur < (long long)opt.connections + 64) {
        fprintf(stderr, "error: RLIMIT_NOFILE hard limit %llu is below %d connections\n",
                (unsigned long long)limit.rlim_max, opt.connections);
        exit(1);
    }
}

static void send_all(int fd, const void *data, size_t length) {
    const char *bytes = data;
    while (length > 0) {
        ssize_t n = send(fd, bytes, length, MSG_NOSIGNAL);
        if (n < 0 && errno == EINTR) continue;
        /* Frames here are tiny and the socket buffers empty: a short write means a broken peer. */
        if (n <= 0) fail_errno("send (short write of a small frame)");
        bytes += n;
        length -= (size_t)n;
    }
}

/* Sends one masked client frame with FIN set. */
static void send_frame(int fd, int opcode, const void *payload, size_t length) {
    unsigned char frame[16 + 8192];
    if (length > 8192) fail("client frame too large");
    size_t header = 2;
    frame[0] = (unsigned char)(0x80 | opcode);
    if (length < 126) {
        frame[1] = (unsigned char)(0x80 | length);
    } else {
        frame[1] = 0x80 | 126;
        frame[2] = (unsigned char)(length >> 8);
        frame[3] = (unsigned char)length;
        header = 4;
    }
    uint32_t key = (uint32_t)rand();
    memcpy(frame + header, &key, 4);
    const unsigned char *mask = frame + header;
    const unsigned char *in = payload;
    for (size_t i = 0; i < length; i++) frame[header + 4 + i] = in[i] ^ mask[i & 3];
    send_all(fd, frame, header + 4 + length);
}

static void send_text(int fd, const char *text) { send_frame(fd, 1, text, strlen(text)); }

/* A TCP socket to 127.0.0.1:`port` with Nagle off and kernel receive timestamps on; with `flags`
 * SOCK_NONBLOCK the connection may still be under way when it returns. */
static int loopback_socket(int port, int flags) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | flags, 0);
    if (fd < 0) fail_errno("socket");
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    if (setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof one) != 0) fail_errno("setsockopt SO_TIMESTAMPNS");
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0 && errno != EINPROGRESS) fail_errno("connect");
    return fd;
}

static void open_connection(void) {
    int index = opened++;
    int fd = loopback_socket(opt.port, SOCK_NONBLOCK);
    conns[index] = (struct conn){.fd = fd, .state = CONNECTING};
    struct epoll_event event = {.events = EPOLLIN | EPOLLOUT, .data.u32 = (uint32_t)index};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) != 0) fail_errno("epoll_ctl");
    in_flight++;
}

static void on_connected(struct conn *c, uint32_t index) {
    int error = 0;
    socklen_t size = sizeof error;
    getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &error, &size);
    if (error != 0) {
        errno = error;
        fail_errno("connect (asynchronous)");
    }
    char request[512];
    int length = snprintf(request, sizeof request,
                          "GET /graphql HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                          "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
                          "Sec-WebSocket-Protocol: graphql-transport-ws\r\n%s\r\n",
                          opt.port,
                          opt.compress ? "Sec-WebSocket-Extensions: permessage-deflate; client_no_context_takeover; "
                                         "server_no_context_takeover\r\n"
                                       : "");
    send_all(c->fd, request, (size_t)length);
    struct epoll_event event = {.events = EPOLLIN, .data.u32 = index};
    if (epoll_ctl(epfd, EPOLL_CTL_MOD, c->fd, &event) != 0) fail_errno("epoll_ctl");
    c->state = UPGRADING;
}

static int header_has(const char *headers, const char *needle) { return strcasestr(headers, needle) != NULL; }

/* Consumes the 101 response; returns bytes used, 0 when incomplete. */
static size_t on_upgrade_response(struct conn *c, const unsigned char *data, size_t length) {
    const unsigned char *end = memmem(data, length, "\r\n\r\n", 4);
    if (!end) {
        if (length > 4096) fail("handshake response too large");
        return 0;
    }
    size_t used = (size_t)(end - data) + 4;
    char headers[4097];
    memcpy(headers, data, used < 4096 ? used : 4096);
    headers[used < 4096 ? used : 4096] = 0;
    if (strncmp(headers, "HTTP/1.1 101", 12) != 0) {
        fprintf(stderr, "error: upgrade refused:\n%s\n", headers);
        exit(1);
    }
    if (!header_has(headers, "graphql-transport-ws")) fail("server did not select graphql-transport-ws");
    c->compressed = header_has(headers, "permessage-deflate");
    compressed += c->compressed;
    if (c->compressed && !header_has(headers, "server_no_context_takeover"))
        fail("server accepted permessage-deflate without server_no_context_takeover");
    if (tokens.count) {
        char init[8192];
        int index = (int)(c - conns);
        if (snprintf(init, sizeof init, "{\"type\":\"connection_init\",\"payload\":{\"authorization\":\"Bearer %s\"}}",
                     tokens.line[index % tokens.count]) >= (int)sizeof init)
            fail("token too long");
        send_text(c->fd, init);
    } else {
        send_text(c->fd, "{\"type\":\"connection_init\"}");
    }
    c->state = INITIALISING;
    return used;
}

/* The text of a message, inflated when it is compressed; NULL for an empty result. */
static const char *message_text(const unsigned char *payload, size_t length, int rsv1, size_t *text_length) {
    if (!rsv1) {
        *text_length = length;
        return (const char *)payload;
    }
    static const unsigned char tail[4] = {0x00, 0x00, 0xff, 0xff};
    if (inflateReset(&inflater) != Z_OK) fail("inflateReset");
    inflater.next_out = inflated;
    inflater.avail_out = sizeof inflated;
    inflater.next_in = (unsigned char *)payload;
    inflater.avail_in = (uInt)length;
    int status = inflate(&inflater, Z_SYNC_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) fail("inflate of a message failed");
    inflater.next_in = (unsigned char *)tail;
    inflater.avail_in = 4;
    status = inflate(&inflater, Z_SYNC_FLUSH);
    if (status != Z_OK && status != Z_STREAM_END && status != Z_BUF_ERROR) fail("inflate of a message tail failed");
    *text_length = sizeof inflated - inflater.avail_out;
    return (const char *)inflated;
}

/* The subscribe payload of connection `index`: --subscribe-payload with `%DEVICE%` replaced by the index. */
static void device_payload(char *out, size_t size, int index) {
    static const char placeholder[] = "%DEVICE%";
    size_t used = 0;
    for (const char *p = opt.subscribe_payload; *p;) {
        int written;
        if (!strncmp(p, placeholder, sizeof placeholder - 1)) {
            written = snprintf(out + used, size - used, "%d", index);
            p += sizeof placeholder - 1;
        } else {
            written = snprintf(out + used, size - used, "%c", *p++);
        }
        if (written < 0 || (size_t)written >= size - used) fail("subscribe payload too long");
        used += (size_t)written;
    }
}

static void on_message(struct conn *c, const unsigned char *payload, size_t length, int rsv1) {
    size_t text_length;
    const char *text = message_text(payload, length, rsv1, &text_length);
    if (memmem(text, text_length, "\"next\"", 6)) {
        if (c->state != SUBSCRIBED) fail("`next` before the subscription was sent");
        if (++c->nexts - c->base == target_nexts) {
            last_read = now_ns();
            if (received_at == 0) fail("no kernel receive timestamp (SO_TIMESTAMPNS)");
            c->delivered_at = received_at;
            if (reached++ == 0) {
                first_read = last_read;
                first_delivery = last_delivery = received_at;
            }
            if (received_at < first_delivery) first_delivery = received_at;
            if (received_at > last_delivery) last_delivery = received_at;
        }
    } else if (memmem(text, text_length, "\"connection_ack\"", 16)) {
        if (c->state != INITIALISING) fail("unexpected connection_ack");
        char subscribe[8192], payload[8000];
        device_payload(payload, sizeof payload, (int)(c - conns));
        if (snprintf(subscribe, sizeof subscribe, "{\"id\":\"1\",\"type\":\"subscribe\",\"payload\":%s}",
                     payload) >= (int)sizeof subscribe)
            fail("subscribe payload too long");
        send_text(c->fd, subscribe);
        c->state = SUBSCRIBED;
        subscribed++;
        in_flight--;
    } else if (memmem(text, text_length, "\"ping\"", 6)) {
        send_text(c->fd, "{\"type\":\"pong\"}");
    } else if (memmem(text, text_length, "\"error\"", 7) || memmem(text, text_length, "\"complete\"", 10)) {
        fprintf(stderr, "error: server ended the subscription: %.*s\n", (int)text_length, text);
        exit(1);
    }
}

/* Consumes complete frames; returns bytes used. */
static size_t on_frames(struct conn *c, const unsigned char *data, size_t length) {
    size_t used = 0;
    while (length - used >= 2) {
        const unsigned char *frame = data + used;
        size_t available = length - used;
        int fin = frame[0] & 0x80, rsv1 = frame[0] & 0x40, opcode = frame[0] & 0x0f;
        if (frame[1] & 0x80) fail("server frame is masked");
        uint64_t payload_length = frame[1] & 0x7f;
        size_t header = 2;
        if (payload_length == 126) {
            if (available < 4) break;
            payload_length = ((uint64_t)frame[2] << 8) | frame[3];
            header = 4;
        } else if (payload_length == 127) {
            if (available < 10) break;
            payload_length = 0;
            for (int i = 0; i < 8; i++) payload_length = (payload_length << 8) | frame[2 + i];
            header = 10;
        }
        if (payload_length > (1 << 20)) fail("server frame larger than 1 MiB");
        if (available < header + payload_length) break;
        const unsigned char *payload = frame + header;
        if (!fin || opcode == 0) fail("fragmented server message (not expected for these small messages)");
        switch (opcode) {
        case 1:
        case 2: on_message(c, payload, (size_t)payload_length, rsv1); break;
        case 8: fprintf(stderr, "error: server closed a connection (code %d)\n",
                        payload_length >= 2 ? (payload[0] << 8 | payload[1]) : 1005);
                exit(1);
        case 9: send_frame(c->fd, 10, payload, (size_t)payload_length); break;
        case 10: break;
        default: fail("unknown opcode from server");
        }
        used += header + (size_t)payload_length;
    }
    return used;
}

/* One recvmsg on `fd`, noting the kernel receive timestamp of its bytes in `received_at`; returns
 * what recvmsg returned (-1 with errno EAGAIN when there is nothing). */
static ssize_t receive(int fd, void *buffer, size_t size) {
    union {
        char space[CMSG_SPACE(sizeof(struct timespec))];
        struct cmsghdr align;
    } control;
    for (;;) {
        struct iovec vector = {.iov_base = buffer, .iov_len = size};
        struct msghdr message = {.msg_iov = &vector, .msg_iovlen = 1, .msg_control = control.space,
                                 .msg_controllen = sizeof control.space};
        ssize_t n = recvmsg(fd, &message, 0);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return n;
        received_at = 0;
        for (struct cmsghdr *header = CMSG_FIRSTHDR(&message); header; header = CMSG_NXTHDR(&message, header)) {
            if (header->cmsg_level == SOL_SOCKET && header->cmsg_type == SCM_TIMESTAMPNS) {
                struct timespec stamp;
                memcpy(&stamp, CMSG_DATA(header), sizeof stamp);
                received_at = (int64_t)stamp.tv_sec * 1000000000 + stamp.tv_nsec;
            }
        }
        return n;
    }
}

/* Reads what the socket holds: one recvmsg, which empties it unless the buffer fills up (the
 * socket is level-triggered, so anything left is reported again; no extra recv to meet EAGAIN). */
static void on_readable(struct conn *c) {
    unsigned char buffer[65536];
    for (;;) {
        size_t keep = c->pending_len;
        if (keep > sizeof buffer / 2) fail("incomplete frame too large");
        if (keep) memcpy(buffer, c->pending, keep);
        ssize_t n = receive(c->fd, buffer + keep, sizeof buffer - keep);
        if (n < 0 && errno == EAGAIN) return;
        if (n < 0) fail_errno("recvmsg");
        if (n == 0) fail("server closed a connection (EOF)");
        size_t length = keep + (size_t)n, used = 0;
        if (c->state == UPGRADING) used = on_upgrade_response(c, buffer, length);
        if (c->state != UPGRADING) used += on_frames(c, buffer + used, length - used);
        free(c->pending);
        c->pending = NULL;
        c->pending_len = length - used;
        if (c->pending_len) {
            c->pending = malloc(c->pending_len);
            if (!c->pending) fail("out of memory");
            memcpy(c->pending, buffer + used, c->pending_len);
        }
        if ((size_t)n < sizeof buffer - keep) return;
    }
}

/* Whether the trigger's response is complete: its headers and Content-Length bytes of body, or
 * everything up to the server's close. */
static int response_complete(int closed) {
    char *end = memmem(response.bytes, response.length, "\r\n\r\n", 4);
    if (!end) return closed;
    const char *length = strcasestr(response.bytes, "\r\ncontent-length:");
    if (!length || length > end) return closed;
    return response.length >= (size_t)(end + 4 - response.bytes) + strtoul(length + 17, NULL, 10);
}

/* Reads the trigger's response; once it is complete, checks it and notes when it arrived. */
static void on_response_readable(void) {
    for (;;) {
        if (response.length >= sizeof response.bytes - 1) fail("trigger response too large");
        ssize_t n = receive(response.fd, response.bytes + response.length, sizeof response.bytes - 1 - response.length);
        if (n < 0 && errno == EAGAIN) return;
        if (n < 0) fail_errno("recvmsg (trigger response)");
        if (n > 0) response.length += (size_t)n;
        response.bytes[response.length] = 0;
        if (!response_complete(n == 0)) {
            if (n == 0) fail("server closed before the trigger's response was complete");
            continue;
        }
        response.received_at = received_at;
        response.read_at = now_ns();
        response.done = 1;
        epoll_ctl(epfd, EPOLL_CTL_DEL, response.fd, NULL);
        close(response.fd);
        response.fd = -1;
        if (strncmp(response.bytes, "HTTP/1.1 200", 12) != 0 || strstr(response.bytes, "\"errors\"")) {
            fprintf(stderr, "error: trigger request failed:\n%s\n", response.bytes);
            exit(1);
        }
        return;
    }
}

/* Handles events until `done()` holds or `deadline` (ns) passes; returns whether done. */
static int run_until(int (*done)(void), int64_t deadline) {
    struct epoll_event events[1024];
    while (!done()) {
        int64_t left = (deadline - now_ns()) / 1000000;
        if (left <= 0) return 0;
        int count;
        if (opt.poll_interval_us > 0) {
            /* Polling: while this thread sleeps outside epoll_wait, a server's send() only queues the
             * socket as ready instead of waking (and often preempting for) this thread. */
            count = epoll_wait(epfd, events, 1024, 0);
            if (count == 0) {
                struct timespec pause = {.tv_nsec = (long)opt.poll_interval_us * 1000};
                nanosleep(&pause, NULL);
                continue;
            }
        } else {
            count = epoll_wait(epfd, events, 1024, (int)(left < 100 ? left + 1 : 100));
        }
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) fail_errno("epoll_wait");
        for (int i = 0; i < count; i++) {
            uint32_t index = events[i].data.u32;
            if (index == TRIGGER_INDEX) {
                on_response_readable();
                continue;
            }
            struct conn *c = &conns[index];
            if (events[i].events & (EPOLLERR | EPOLLHUP) && c->state != CONNECTING) fail("connection error or hang-up");
            if (c->state == CONNECTING) on_connected(c, index);
            else on_readable(c);
        }
        while (in_flight < opt.concurrency && opened < opt.connections) open_connection();
    }
    return 1;
}

static int all_subscribed(void) { return subscribed == opt.connections; }
static int all_reached(void) { return reached == opt.connections; }

/* The instant a round starts, on both clocks. */
struct instant {
    int64_t monotonic, realtime;
};

/* Sends the publish request; returns the send time. The response is read after the round. */
static struct instant trigger(int *fd_out) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) fail_errno("socket");
    struct sockaddr_in address = {.sin_family = AF_INET, .sin_port = htons((uint16_t)opt.publish_port)};
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    if (connect(fd, (struct sockaddr *)&address, sizeof address) != 0) fail_errno("connect (publish)");
    char request[256];
    int length = snprintf(request, sizeof request,
                          "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 0\r\nConnection: close\r\n\r\n",
                          opt.publish_path);
    struct instant sent = {.monotonic = now_ns(), .realtime = clock_ns(CLOCK_REALTIME)};
    send_all(fd, request, (size_t)length);
    *fd_out = fd;
    return sent;
}

static void expect_published(int fd) {
    struct timeval timeout = {.tv_sec = 10};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
    char response[1024];
    size_t length = 0;
    ssize_t n;
    while (length < sizeof response - 1 && (n = recv(fd, response + length, sizeof response - 1 - length, 0)) > 0)
        length += (size_t)n;
    response[length] = 0;
    close(fd);
    if (strncmp(response, "HTTP/1.1 20", 11) != 0) {
        fprintf(stderr, "error: publish failed: %s\n", response);
        exit(1);
    }
}

/* The latencies of one round, in milliseconds from the POST. */
struct round {
    double delivered, read, first_delivered;
};

/* One publish, waiting up to `timeout_ms` until every connection has received `target` messages
 * (counted from its base); returns whether all did. */
static int publish_until(int target, int timeout_ms, struct instant *sent) {
    target_nexts = target;
    reached = 0;
    int fd;
    *sent = trigger(&fd);
    int all = run_until(all_reached, sent->monotonic + (int64_t)timeout_ms * 1000000);
    expect_published(fd);
    return all;
}

/* One measured publish; exits on timeout. */
static struct round round_trip(int round) {
    struct instant sent;
    if (!publish_until(round, opt.round_timeout_ms, &sent)) {
        fprintf(stderr, "error: round %d timed out after %d ms: %d of %d connections received the event\n", round,
                opt.round_timeout_ms, reached, opt.connections);
        exit(1);
    }
    return (struct round){.delivered = (double)(last_delivery - sent.realtime) / 1e6,
                          .read = (double)(last_read - sent.monotonic) / 1e6,
                          .first_delivered = (double)(first_delivery - sent.realtime) / 1e6};
}

/* The subscribe message has no reply, so a server may still be starting the last subscriptions when
 * the first publish goes out, and a connection that joined late misses it. Publishes until one event
 * reaches every connection (a failed attempt's stragglers land during its 2 s wait), then counts the
 * measured rounds from there, per connection. */
static int warm_up(void) {
    struct instant sent;
    for (int attempt = 1;; attempt++) {
        for (int i = 0; i < opt.connections; i++) conns[i].base = conns[i].nexts;
        if (publish_until(1, 2000, &sent)) {
            for (int i = 0; i < opt.connections; i++) conns[i].base = conns[i].nexts;
            return attempt;
        }
        if (attempt == 20) {
            fprintf(stderr, "error: none of %d warm-up publishes reached all %d connections (the last reached %d)\n",
                    attempt, opt.connections, reached);
            exit(1);
        }
    }
}

/* Reads FILE's lines (their newlines dropped) into `lines`; fails when it has none. */
static void read_lines(const char *path, struct lines *lines) {
    FILE *file = fopen(path, "r");
    if (!file) fail_errno(path);
    char *line = NULL;
    size_t size = 0;
    ssize_t length;
    while ((length = getline(&line, &size, file)) > 0) {
        if (line[length - 1] == '\n') line[length - 1] = 0;
        if (!line[0]) continue;
        lines->line = realloc(lines->line, sizeof *lines->line * (size_t)(lines->count + 1));
        if (!lines->line || !(lines->line[lines->count++] = strdup(line))) fail("out of memory");
    }
    free(line);
    fclose(file);
    if (!lines->count) fail("a file of lines is empty");
}

/* Sends the next request of `from` (`TOKEN<TAB>JSON BODY`) as POST PUBLISH_PATH; its response is
 * read in the event loop (on_response_readable). Returns the send time. */
static struct instant send_request(struct lines *from) {
    if (from->next == from->count) fail("no request lines left (give the bench more of them)");
    const char *line = from->line[from->next++];
    const char *tab = strchr(line, '\t');
    if (!tab) fail("a request line without a tab");
    int fd = loopback_socket(opt.publish_port, 0);
    const char *body = tab + 1;
    char request[16384];
    int length = snprintf(request, sizeof request,
                          "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          "Authorization: Bearer %.*s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n%s",
                          opt.publish_path, (int)(tab - line), line, strlen(body), body);
    if (length >= (int)sizeof request) fail("a request line is too long");
    response.fd = fd;
    response.done = 0;
    response.length = 0;
    struct instant sent = {.monotonic = now_ns(), .realtime = clock_ns(CLOCK_REALTIME)};
    send_all(fd, request, (size_t)length);
    if (fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) != 0) fail_errno("fcntl");
    struct epoll_event event = {.events = EPOLLIN, .data.u32 = TRIGGER_INDEX};
    if (epoll_ctl(epfd, EPOLL_CTL_ADD, fd, &event) != 0) fail_errno("epoll_ctl (trigger)");
    return sent;
}

static int response_done(void) { return response.done; }
static int round_done(void) { return reached == opt.connections && response.done; }

/* One round of the trigger file: waits up to `timeout_ms` for the response and for one more `next`
 * on every connection; returns whether both came. */
static int trigger_round(int timeout_ms, struct instant *sent) {
    for (int i = 0; i < opt.connections; i++) conns[i].base = conns[i].nexts;
    target_nexts = 1;
    reached = 0;
    *sent = send_request(&triggers);
    int all = run_until(round_done, sent->monotonic + (int64_t)timeout_ms * 1000000);
    if (!response.done && !run_until(response_done, now_ns() + (int64_t)opt.round_timeout_ms * 1000000))
        fail("no response to a trigger request");
    if (response.received_at == 0) fail("no kernel receive timestamp on a response (SO_TIMESTAMPNS)");
    return all;
}

/* warm_up for --trigger-file: rounds until one reaches every connection. */
static int warm_up_triggered(void) {
    struct instant sent;
    for (int attempt = 1; attempt <= 20; attempt++)
        if (trigger_round(2000, &sent)) return attempt;
    fprintf(stderr, "error: none of 20 warm-up rounds reached all %d connections (the last reached %d)\n",
            opt.connections, reached);
    exit(1);
}

static void print_values(const char *name, const double *values, int count) {
    printf(" %s=", name);
    for (int i = 0; i < count; i++) printf("%s%.3f", i ? "," : "", values[i]);
}

/* The `measure N` command: N rounds of the trigger file. */
static void measure(int rounds) {
    double *after = calloc((size_t)rounds, sizeof *after), *from_request = calloc((size_t)rounds, sizeof *after),
           *round_trip = calloc((size_t)rounds, sizeof *after);
    double *each = calloc((size_t)rounds * (size_t)opt.connections, sizeof *each);
    int *frames_before = calloc((size_t)opt.connections, sizeof *frames_before);
    if (!after || !from_request || !round_trip || !each || !frames_before) fail("out of memory");
    for (int i = 0; i < opt.connections; i++) frames_before[i] = conns[i].nexts;
    int64_t cpu_before = cpu_ns();
    for (int r = 0; r < rounds; r++) {
        struct instant sent;
        if (!trigger_round(opt.round_timeout_ms, &sent)) {
            fprintf(stderr, "error: a round timed out after %d ms: %d of %d connections received the update\n",
                    opt.round_timeout_ms, reached, opt.connections);
            exit(1);
        }
        after[r] = (double)(last_delivery - response.received_at) / 1e6;
        from_request[r] = (double)(last_delivery - sent.realtime) / 1e6;
        round_trip[r] = (double)(response.received_at - sent.realtime) / 1e6;
        for (int i = 0; i < opt.connections; i++)
            each[(size_t)r * (size_t)opt.connections + (size_t)i] = (double)(conns[i].delivered_at - response.received_at) / 1e6;
    }
    double cpu_ms = (double)(cpu_ns() - cpu_before) / 1e6 / rounds;
    int frames_min = conns[0].nexts - frames_before[0], frames_max = frames_min;
    for (int i = 1; i < opt.connections; i++) {
        int frames = conns[i].nexts - frames_before[i];
        if (frames < frames_min) frames_min = frames;
        if (frames > frames_max) frames_max = frames;
    }
    int deliveries = rounds * opt.connections;
    qsort(each, (size_t)deliveries, sizeof *each, compare);
    printf("result rounds=%d", rounds);
    print_values("values", after, rounds);
    print_values("from_request", from_request, rounds);
    print_values("response", round_trip, rounds);
    printf(" cpu_ms=%.2f each_p50=%.3f each_p99=%.3f frames_min=%d frames_max=%d\n", cpu_ms,
           percentile(each, deliveries, 0.50), percentile(each, deliveries, 0.99), frames_min, frames_max);
    fflush(stdout);
    free(each);
    free(frames_before);
    free(after);
    free(from_request);
    free(round_trip);
}

/* The `quiet N` command: N requests of the quiet file, one after another. */
static void quiet(int rounds) {
    double *round_trip = calloc((size_t)rounds, sizeof *round_trip);
    if (!round_trip) fail("out of memory");
    for (int r = 0; r < rounds; r++) {
        struct instant sent = send_request(&quiets);
        if (!run_until(response_done, sent.monotonic + (int64_t)opt.round_timeout_ms * 1000000))
            fail("no response to a quiet request");
        round_trip[r] = (double)(response.received_at - sent.realtime) / 1e6;
    }
    printf("quiet rounds=%d", rounds);
    print_values("response", round_trip, rounds);
    printf("\n");
    fflush(stdout);
    free(round_trip);
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted values. */
static double percentile(const double *sorted, int count, double p) {
    int rank = (int)(p * count + 0.999999);
    if (rank < 1) rank = 1;
    return sorted[rank - 1];
}

/* CPU time (user + system) this process has used, in ns. */
static int64_t cpu_ns(void) {
    struct rusage usage;
    if (getrusage(RUSAGE_SELF, &usage) != 0) fail_errno("getrusage");
    return ((int64_t)usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1000000000 +
           ((int64_t)usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1000;
}

static void wait_for_line(void) {
    char line[64];
    if (!fgets(line, sizeof line, stdin)) fail("stdin closed");
}

static void usage(void) {
    fprintf(stderr, "usage: loadgen --port P [--publish-port P] [--publish-path /_test/publish] [--connections N]\n"
                    "               [--rounds R] [--compress] [--concurrency C] [--round-timeout-ms T]\n"
                    "               [--setup-timeout-ms T] [--poll-interval-us U] [--tokens FILE]\n"
                    "               [--subscribe-payload JSON] [--trigger-file FILE] [--quiet-file FILE]\n");
    exit(2);
}

/* The measured rounds of the default mode (`POST /_test/publish`), and their `result` line. */
static void publish_rounds(void) {
    double *delivered = calloc((size_t)opt.rounds, sizeof *delivered);
    double *read = calloc((size_t)opt.rounds, sizeof *read);
    double *firsts = calloc((size_t)opt.rounds, sizeof *firsts);
    if (!delivered || !read || !firsts) fail("out of memory");
    int64_t cpu_before = cpu_ns();
    for (int r = 0; r < opt.rounds; r++) {
        struct round result = round_trip(r + 1);
        delivered[r] = result.delivered;
        read[r] = result.read;
        firsts[r] = result.first_delivered;
    }
    double cpu_ms = (double)(cpu_ns() - cpu_before) / 1e6 / opt.rounds;
    qsort(delivered, (size_t)opt.rounds, sizeof *delivered, compare);
    qsort(read, (size_t)opt.rounds, sizeof *read, compare);
    qsort(firsts, (size_t)opt.rounds, sizeof *firsts, compare);
    printf("result rounds=%d p50_ms=%.2f p99_ms=%.2f max_ms=%.2f min_ms=%.2f first_p50_ms=%.2f "
           "read_p50_ms=%.2f read_p99_ms=%.2f cpu_ms=%.2f\n",
           opt.rounds, percentile(delivered, opt.rounds, 0.50), percentile(delivered, opt.rounds, 0.99),
           delivered[opt.rounds - 1], delivered[0], percentile(firsts, opt.rounds, 0.50),
           percentile(read, opt.rounds, 0.50), percentile(read, opt.rounds, 0.99), cpu_ms);
    fflush(stdout);
}

int main(int argc, char **argv) {
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *value = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--compress")) { opt.compress = 1; continue; }
        if (!value) usage();
        if (!strcmp(a, "--port")) opt.port = atoi(value);
        else if (!strcmp(a, "--publish-port")) opt.publish_port = atoi(value);
        else if (!strcmp(a, "--publish-path")) opt.publish_path = value;
        else if (!strcmp(a, "--connections")) opt.connections = atoi(value);
        else if (!strcmp(a, "--rounds")) opt.rounds = atoi(value);
        else if (!strcmp(a, "--concurrency")) opt.concurrency = atoi(value);
        else if (!strcmp(a, "--round-timeout-ms")) opt.round_timeout_ms = atoi(value);
        else if (!strcmp(a, "--setup-timeout-ms")) opt.setup_timeout_ms = atoi(value);
        else if (!strcmp(a, "--poll-interval-us")) opt.poll_interval_us = atoi(value);
        else if (!strcmp(a, "--tokens")) opt.tokens_file = value;
        else if (!strcmp(a, "--subscribe-payload")) opt.subscribe_payload = value;
        else if (!strcmp(a, "--trigger-file")) opt.trigger_file = value;
        else if (!strcmp(a, "--quiet-file")) opt.quiet_file = value;
        else usage();
        i++;
    }
    if (opt.port <= 0 || opt.connections <= 0 || opt.rounds <= 0 || opt.concurrency <= 0) usage();
    if (opt.publish_port <= 0) opt.publish_port = opt.port;
    if (opt.tokens_file) read_lines(opt.tokens_file, &tokens);
    if (opt.trigger_file) read_lines(opt.trigger_file, &triggers);
    if (opt.quiet_file) read_lines(opt.quiet_file, &quiets);
    raise_fd_limit();
    srand((unsigned)now_ns());
    if (inflateInit2(&inflater, -15) != Z_OK) fail("inflateInit2");
    conns = calloc((size_t)opt.connections, sizeof *conns);
    if (!conns) fail("out of memory");
    epfd = epoll_create1(EPOLL_CLOEXEC);
    if (epfd < 0) fail_errno("epoll_create1");

    int64_t started = now_ns();
    while (in_flight < opt.concurrency && opened < opt.connections) open_connection();
    if (!run_until(all_subscribed, started + (int64_t)opt.setup_timeout_ms * 1000000)) {
        fprintf(stderr, "error: only %d of %d connections subscribed within %d ms\n", subscribed, opt.connections,
                opt.setup_timeout_ms);
        exit(1);
    }
    int warm_ups = opt.trigger_file ? warm_up_triggered() : warm_up();
    printf("ready connections=%d compressed=%d setup_ms=%.0f warm_ups=%d\n", opt.connections, compressed,
           (double)(now_ns() - started) / 1e6, warm_ups);
    fflush(stdout);
    if (opt.trigger_file) {
        char line[128];
        int count;
        while (fgets(line, sizeof line, stdin) && strncmp(line, "exit", 4) != 0) {
            if (sscanf(line, "measure %d", &count) == 1 && count > 0) measure(count);
            else if (sscanf(line, "quiet %d", &count) == 1 && count > 0 && opt.quiet_file) quiet(count);
            else fail("unknown command (measure N, quiet N with --quiet-file, exit)");
        }
    } else {
        wait_for_line();
        publish_rounds();
        wait_for_line();
    }
    struct linger abort_close = {.l_onoff = 1, .l_linger = 0};
    for (int i = 0; i < opt.connections; i++) {
        /* Reset rather than FIN: no TIME_WAIT left behind for the next side of the benchmark. */
        setsockopt(conns[i].fd, SOL_SOCKET, SO_LINGER, &abort_close, sizeof abort_close);
        close(conns[i].fd);
    }
    return 0;
}
