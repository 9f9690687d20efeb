"""WebSocket benchmark: N graphql-transport-ws clients, each with one `serverEvents` subscription, on one
Hearth process: RSS per subscribed connection (compression off, then with permessage-deflate negotiated)
and the time for one published event to reach the LAST of the N clients, p50/p99 over repeated publishes.
In the same run and with the same load generator: the floor (floor-server.c, a trivial C epoll broadcast
server: what the apparatus alone costs), a Python `websockets` broadcast server (the baseline) and Node's
`ws` library (the main peer, when Debian's node-ws is installed).

The load generator is C (loadgen.c, built here with `cc -O2 ... -lz`): one epoll thread can drive 10,000
sockets, which a Python client cannot do fast enough to measure the servers. The headline latencies use the
kernel's receive timestamps (SO_TIMESTAMPNS: when the bytes reached the client socket); the "read by the load
generator" figures add the time the one thread took to get round to each socket (see loadgen.c). For each
server the script also reports the CPU time per publish of every server thread (from /proc) and of the load
generator, which says where the time goes even when other work on the machine makes wall-clock latencies
noisy (tools/bench/ws/README.md has the breakdown).

Hearth publishes through `POST /_test/publish` (served with `--test-endpoints`): one `server.heartbeat` event
recorded in a write transaction, published on the bus after commit, exactly like the periodic heartbeats
(switched to 1h here).

Run with `make bench` (or `.venv/bin/python tools/bench/ws/run.py` after `make release`).
Options through the environment: BENCH_WS_CONNECTIONS (default 10000), BENCH_WS_ROUNDS (30),
BENCH_WS_POLL_US (0: the load generator sleeps in epoll_wait; N > 0: it polls every N microseconds instead,
see loadgen.c --poll-interval-us)."""
import os
import resource
import selectors
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
CONNECTIONS = int(os.environ.get("BENCH_WS_CONNECTIONS", "10000"))
ROUNDS = int(os.environ.get("BENCH_WS_ROUNDS", "30"))
POLL_US = int(os.environ.get("BENCH_WS_POLL_US", "0"))
NODE_MODULES = "/usr/share/nodejs"
# Goals from issue 4 ("Scale, measured").
RSS_GOAL_KIB = 16
P99_GOAL_MS = 100


def build(directory, name, *libraries):
    """Compiles tools/bench/ws/NAME.c into `directory`; returns the binary's path."""
    binary = os.path.join(directory, name)
    subprocess.run(["cc", "-O2", "-Wall", "-o", binary, os.path.join(HERE, name + ".c"), *libraries],
                   check=True, timeout=120)
    return binary


def thread_cpu_ms(pid):
    """CPU time (user + system) used so far by each thread of `pid`, in ms, summed by thread name."""
    tick_ms = 1000 / os.sysconf("SC_CLK_TCK")
    by_name = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/stat") as f:
                stat = f.read()
        except FileNotFoundError:
            continue  # the thread ended between the listing and the read
        name = stat[stat.index("(") + 1:stat.rindex(")")]
        fields = stat[stat.rindex(")") + 2:].split()
        # utime and stime are fields 14 and 15 of proc(5); `fields` starts at field 3.
        by_name[name] = by_name.get(name, 0) + (int(fields[11]) + int(fields[12])) * tick_ms
    return by_name


class LoadGen:
    """The C load generator, stepped through its `ready` and `result` lines (see loadgen.c)."""

    def __init__(self, binary, port, publish_port, compress):
        command = [binary, "--port", str(port), "--publish-port", str(publish_port),
                   "--connections", str(CONNECTIONS), "--rounds", str(ROUNDS)]
        if compress:
            command.append("--compress")
        if POLL_US > 0:
            command += ["--poll-interval-us", str(POLL_US)]
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, text=True)
        self.selector = selectors.DefaultSelector()
        self.selector.register(self.process.stdout, selectors.EVENT_READ)

    def expect(self, prefix, timeout):
        """Waits for the next stdout line (which must start with `prefix`) and returns its key=value fields."""
        if not self.selector.select(timeout):
            self.process.kill()
            raise RuntimeError(f"load generator: no `{prefix}` line within {timeout} s")
        line = self.process.stdout.readline()
        if not line.startswith(prefix):
            self.process.kill()
            raise RuntimeError(f"load generator failed: {line!r} {self.process.stderr.read().strip()}")
        return {key: float(value) for key, value in (field.split("=") for field in line.split()[1:])}

    def proceed(self):
        self.process.stdin.write("\n")
        self.process.stdin.flush()

    def finish(self):
        if self.process.poll() is None:
            try:
                self.proceed()
                self.process.wait(timeout=30)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()
                self.process.wait()


def measure(loadgen_binary, pid, port, publish_port, compress=False):
    """Idle RSS, RSS with every client subscribed, and the fan-out latencies of one server process."""
    idle = benchlib.rss_kib(pid)
    loadgen = LoadGen(loadgen_binary, port, publish_port, compress)
    try:
        ready = loadgen.expect("ready", timeout=180)
        if ready["compressed"] != (CONNECTIONS if compress else 0):
            raise RuntimeError(f"permessage-deflate negotiated on {ready['compressed']:.0f} of {CONNECTIONS} connections")
        loaded = benchlib.rss_kib(pid)
        cpu_before = thread_cpu_ms(pid)
        loadgen.proceed()
        result = loadgen.expect("result", timeout=30 + ROUNDS * 15)
        cpu_after = thread_cpu_ms(pid)
    finally:
        loadgen.finish()
    # The server's CPU time per publish, by thread name (the loadgen reports its own as cpu_ms).
    threads = {name: (used - cpu_before.get(name, 0)) / ROUNDS for name, used in cpu_after.items()}
    return {"idle_kib": idle, "loaded_kib": loaded, "per_connection_kib": (loaded - idle) / CONNECTIONS,
            "setup_ms": ready["setup_ms"], "warm_ups": ready["warm_ups"], "server_cpu_ms": sum(threads.values()),
            "server_threads": {name: used for name, used in threads.items() if used >= 0.05}, **result}


class PeerServer:
    """A baseline broadcast server (Python websockets or Node ws) on two free loopback ports."""

    def __init__(self, command, environment=None):
        self.port, self.publish_port = benchlib.free_port(), benchlib.free_port()
        self.log = tempfile.TemporaryFile(mode="w+")
        self.process = subprocess.Popen(command + [str(self.port), str(self.publish_port)],
                                        stdout=subprocess.PIPE, stderr=self.log, text=True,
                                        env={**os.environ, **(environment or {})})
        selector = selectors.DefaultSelector()
        selector.register(self.process.stdout, selectors.EVENT_READ)
        if not selector.select(20) or self.process.stdout.readline().strip() != "listening":
            self.stop()
            raise RuntimeError(f"{command[0]} peer did not start")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self.log.close()


def measure_hearth(loadgen_binary, compress):
    hearth = benchlib.Hearth("--test-endpoints", "--access-log", "off", "--heartbeat-interval", "1h",
                             "--ws-ping-interval", "0", "--max-connections", str(CONNECTIONS + 100))
    try:
        time.sleep(0.5)  # let start-up allocations (migrations, the schema) settle before the idle reading
        return measure(loadgen_binary, hearth.process.pid, hearth.port, hearth.port, compress)
    finally:
        hearth.stop()


def measure_peer(loadgen_binary, command, environment=None):
    peer = PeerServer(command, environment)
    try:
        return measure(loadgen_binary, peer.process.pid, peer.port, peer.publish_port)
    finally:
        peer.stop()


def describe(name, figures):
    threads = ", ".join(f"{thread} {used:.1f}" for thread, used in
                        sorted(figures["server_threads"].items(), key=lambda item: -item[1]))
    print(f"{name}: idle {figures['idle_kib'] / 1024:.1f} MiB, {CONNECTIONS} subscribed "
          f"{figures['loaded_kib'] / 1024:.1f} MiB, {figures['per_connection_kib']:.2f} KiB/connection; "
          f"fan-out to all p50 {figures['p50_ms']:.1f} ms, p99 {figures['p99_ms']:.1f} ms, "
          f"max {figures['max_ms']:.1f} ms over {ROUNDS} publishes (first client p50 {figures['first_p50_ms']:.1f} ms; "
          f"read by the load generator p50 {figures['read_p50_ms']:.1f} ms, p99 {figures['read_p99_ms']:.1f} ms); "
          f"CPU per publish: server {figures['server_cpu_ms']:.1f} ms ({threads}), "
          f"load generator {figures['cpu_ms']:.1f} ms; setup {figures['setup_ms'] / 1000:.1f} s "
          f"({figures['warm_ups']:.0f} warm-up publish{'es' if figures['warm_ups'] > 1 else ''} until one reached all)",
          flush=True)


def main():
    _, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    limit = benchlib.raise_fd_limit(hard)
    print(f"# RLIMIT_NOFILE raised to {limit}; {CONNECTIONS} connections, {ROUNDS} publishes, loopback, "
          f"graphql-transport-ws `subscription {{ serverEvents {{ sequence }} }}`; load generator "
          f"{'polling every ' + str(POLL_US) + ' us' if POLL_US else 'waking in epoll_wait'}; "
          f"load average {os.getloadavg()[0]:.1f}")
    if limit < CONNECTIONS + 200:
        raise SystemExit(f"the file-descriptor limit {limit} is too low for {CONNECTIONS} connections")
    directory = tempfile.mkdtemp(prefix="ws-bench-")
    try:
        loadgen = build(directory, "loadgen", "-lz")
        floor = measure_peer(loadgen, [build(directory, "floor-server", "-lpthread")])
        describe("floor (trivial C epoll broadcast server, 2 threads)", floor)
        ours = measure_hearth(loadgen, compress=False)
        describe("hearth, compression off", ours)
        deflate = measure_hearth(loadgen, compress=True)
        describe("hearth, permessage-deflate", deflate)
        python = measure_peer(loadgen, [sys.executable, os.path.join(HERE, "websockets_server.py")])
        describe("python websockets (baseline)", python)
        node = None
        if shutil.which("node") and os.path.isdir(os.path.join(NODE_MODULES, "ws")):
            node = measure_peer(loadgen, ["node", os.path.join(HERE, "ws-server.js")], {"NODE_PATH": NODE_MODULES})
            describe("node ws", node)
        else:
            print("node ws: skipped (install Debian's nodejs and node-ws: make bench-deps)")
    finally:
        shutil.rmtree(directory, ignore_errors=True)

    print(f"RSS per subscribed connection, compression off: {ours['per_connection_kib']:.2f} KiB "
          f"(goal <= {RSS_GOAL_KIB} KiB: {'met' if ours['per_connection_kib'] <= RSS_GOAL_KIB else 'NOT met'}); "
          f"with permessage-deflate: {deflate['per_connection_kib']:.2f} KiB")
    print(f"fan-out p99: {ours['p99_ms']:.1f} ms (goal < {P99_GOAL_MS} ms: "
          f"{'met' if ours['p99_ms'] < P99_GOAL_MS else 'NOT met'}); the floor's in the same run: "
          f"{floor['p99_ms']:.1f} ms ({'under' if floor['p99_ms'] < P99_GOAL_MS else 'NOT under'} the goal)")
    benchlib.report("fan-out p99 vs the floor (ms)", ours["p99_ms"], floor["p99_ms"], "ms", higher_is_better=False)
    benchlib.report("server CPU per publish vs the floor (ms)", ours["server_cpu_ms"], floor["server_cpu_ms"], "ms",
                    higher_is_better=False)
    peers = [("python websockets", python)] + ([("node ws", node)] if node else [])
    for peer, theirs in peers:
        benchlib.report(f"fan-out p50 vs {peer} (ms)", ours["p50_ms"], theirs["p50_ms"], "ms", higher_is_better=False)
        benchlib.report(f"fan-out p99 vs {peer} (ms)", ours["p99_ms"], theirs["p99_ms"], "ms", goal=1.0,
                        higher_is_better=False)
        benchlib.report(f"server CPU per publish vs {peer} (ms)", ours["server_cpu_ms"], theirs["server_cpu_ms"], "ms",
                        higher_is_better=False)
        benchlib.report(f"RSS per connection vs {peer} (KiB)", ours["per_connection_kib"],
                        theirs["per_connection_kib"], "KiB", goal=1.0, higher_is_better=False)


if __name__ == "__main__":
    main()
