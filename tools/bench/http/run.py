"""HTTP benchmark: Hearth's GET /healthz against nginx's constant 200 in the same run,
plus Hearth's idle RSS, RSS with 10,000 idle keep-alive connections, and time to ready.

Run with `make bench` (or `.venv/bin/python tools/bench/http/run.py` after `make release`).
Options through the environment: BENCH_SECONDS (default 10), BENCH_CONNECTIONS (64),
BENCH_IDLE_CONNECTIONS (10000)."""
import os
import selectors
import socket
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "64"))
IDLE = int(os.environ.get("BENCH_IDLE_CONNECTIONS", "10000"))


def throughput():
    nginx = benchlib.Nginx(workers=os.cpu_count())
    hearth = benchlib.Hearth("--access-log", "off")
    try:
        benchlib.wrk(hearth.url("/healthz"), connections=CONNECTIONS, seconds=1)  # warm-up
        benchlib.wrk(nginx.url(), connections=CONNECTIONS, seconds=1)
        ours, our_p99 = benchlib.wrk(hearth.url("/healthz"), connections=CONNECTIONS, seconds=SECONDS)
        theirs, their_p99 = benchlib.wrk(nginx.url(), connections=CONNECTIONS, seconds=SECONDS)
    finally:
        hearth.stop()
        nginx.stop()
    print(f"# wrk -t2 -c{CONNECTIONS} -d{SECONDS}s --latency, keep-alive, loopback")
    benchlib.report("GET /healthz vs nginx constant 200 (req/s)", ours, theirs, "req/s", goal=0.8)
    print(f"p99 latency: hearth {our_p99:.2f} ms, nginx {their_p99:.2f} ms", flush=True)


def hold_idle_connections(port, count):
    """Opens `count` keep-alive connections, makes one request on each, and keeps them open."""
    sockets = []
    selector = selectors.DefaultSelector()
    request = b"GET /healthz HTTP/1.1\r\nHost: bench\r\n\r\n"
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(request)
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
        sockets.append(s)
    pending = len(sockets)
    while pending:
        for key, _ in selector.select(timeout=30):
            data = key.fileobj.recv(4096)
            if not data:
                raise RuntimeError("server closed an idle connection during the measurement")
            if b"\r\n\r\nok" in data:
                selector.unregister(key.fileobj)
                pending -= 1
    return sockets


def memory_and_startup():
    benchlib.raise_fd_limit(IDLE + 1024)
    readiness = []
    for _ in range(5):
        server = benchlib.Hearth()
        readiness.append(server.ready_seconds * 1000)
        server.stop()
    hearth = benchlib.Hearth("--access-log", "off", "--max-connections", str(IDLE + 100), "--idle-timeout", "10m")
    try:
        idle_rss = hearth.rss_kib()
        held = hold_idle_connections(hearth.port, IDLE)
        loaded_rss = hearth.rss_kib()
        for s in held:
            s.close()
    finally:
        hearth.stop()
    extra = loaded_rss - idle_rss
    print(f"idle RSS: {idle_rss / 1024:.1f} MiB (goal < 15 MiB: {'met' if idle_rss < 15 * 1024 else 'NOT met'})")
    print(f"RSS with {IDLE} idle keep-alive connections: {loaded_rss / 1024:.1f} MiB, "
          f"+{extra / 1024:.1f} MiB, {extra * 1024 / IDLE:,.0f} bytes each "
          f"(goal < 100 MiB extra: {'met' if extra < 100 * 1024 else 'NOT met'})")
    median = statistics.median(readiness)
    print(f"start to ready on an empty database: median {median:.0f} ms over 5 starts "
          f"(goal < 200 ms: {'met' if median < 200 else 'NOT met'})", flush=True)


if __name__ == "__main__":
    throughput()
    memory_and_startup()
