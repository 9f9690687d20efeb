"""Shared pieces of Hearth's benchmarks: starting the real server, running wrk, reading RSS.

Every benchmark measures Hearth and a peer in the same run and prints one line per side
plus a ratio line (docs/benchmarks.md has the method and the goals)."""
import glob
import json
import os
import re
import resource
import shutil
import signal
import socket
import statistics
import subprocess
import tempfile
import time
import urllib.request

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", "..", ".."))
HEARTH = os.environ.get("HEARTH_BIN", os.path.join(ROOT, ".build", "release", "hearth"))


def raise_fd_limit(wanted=65536):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = min(max(soft, wanted), hard)
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Hearth:
    """The release `hearth serve` on a free loopback port with a temporary database."""

    def __init__(self, *extra, binary=HEARTH, wrapper=(), database=None, environment=None):
        """`wrapper` runs the server under another program (valgrind), given `binary` last;
        `database` is a database to keep (a fresh one in the temporary directory otherwise);
        `environment` adds variables to the server's environment."""
        self.directory = tempfile.mkdtemp(prefix="hearth-bench-")
        self.database = database or os.path.join(self.directory, "bench.sqlite")
        self.log = open(os.path.join(self.directory, "server.log"), "w")
        self.started = time.monotonic()
        self.process = subprocess.Popen(
            [*wrapper, binary, "serve", "--port", "0", "--database", self.database, *extra],
            stdout=subprocess.PIPE, stderr=self.log, text=True, env={**os.environ, **(environment or {})})
        line = self.process.stdout.readline()
        self.ready_seconds = time.monotonic() - self.started
        match = re.match(r"listening on http://(.+):(\d+)", line)
        if not match:
            self.stop()
            raise RuntimeError(f"hearth did not start: {line!r}, see {self.log.name}")
        self.port = int(match.group(2))

    def url(self, path):
        return f"http://127.0.0.1:{self.port}{path}"

    def rss_kib(self):
        return rss_kib(self.process.pid)

    def stop(self):
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.log.close()
        shutil.rmtree(self.directory, ignore_errors=True)


class Callgrind:
    """`hearth serve` under valgrind's callgrind, for the instructions the server executes per
    request (every thread; the kernel's work not included): `tools/bench/*/instructions.py`.
    It runs a copy of the binary without debug information (valgrind 3.19 cannot read the DWARF 5
    of Swift's); with `keep_dumps`, every dump spells out each function's name (compressed, a
    name appears only in the first dump that has it, and `callgrind_annotate` on a later one
    cannot name the function)."""

    def __init__(self, directory, *flags, database=None, keep_dumps=False):
        self.directory, self.keep_dumps = directory, keep_dumps
        binary = os.path.join(directory, "hearth")
        subprocess.run(["objcopy", "--strip-debug", HEARTH, binary], check=True)
        self.output = os.path.join(directory, "callgrind.out")
        names = ("--compress-strings=no",) if keep_dumps else ()
        self.hearth = Hearth(*flags, binary=binary, database=database, wrapper=(
            "valgrind", "--tool=callgrind", f"--callgrind-out-file={self.output}", "--dump-instr=no", *names))
        self.dumps = []

    def dump(self):
        """The instructions since the previous dump: callgrind writes its counters to a new
        file (the last of `dumps`) and zeroes them."""
        subprocess.run(["callgrind_control", "--dump", str(self.hearth.process.pid)], check=True, capture_output=True)
        self.dumps.extend(sorted(set(glob.glob(self.output + "*")) - set(self.dumps), key=os.path.getmtime))
        with open(self.dumps[-1], errors="replace") as dump:
            return int(re.search(r"^(?:totals|summary): (\d+)", dump.read(), re.MULTILINE).group(1))

    def stop(self):
        """Stops the server and removes `directory`, unless the dumps are kept."""
        self.hearth.stop()
        if not self.keep_dumps:
            shutil.rmtree(self.directory, ignore_errors=True)


class Nginx:
    """nginx (Debian's nginx-light) answering a constant `200 ok` on loopback or, given
    `upstreams` (ports on 127.0.0.1), a load balancer in front of them: round robin, keep-alive
    connections to the servers, WebSocket upgrades passed on."""

    def __init__(self, workers=2, upstreams=()):
        self.directory = tempfile.mkdtemp(prefix="nginx-bench-")
        self.port = free_port()
        config = os.path.join(self.directory, "nginx.conf")
        location = 'location = /ok { default_type text/plain; return 200 "ok"; }'
        balance = ""
        if upstreams:
            servers = " ".join(f"server 127.0.0.1:{port};" for port in upstreams)
            balance = (f"upstream servers {{ {servers} keepalive 64; }}\n"
                       "    map $http_upgrade $connection_upgrade { default upgrade; '' ''; }")
            location = ("location / { proxy_pass http://servers; proxy_http_version 1.1; proxy_buffering off; "
                        "proxy_set_header Upgrade $http_upgrade; proxy_set_header Connection $connection_upgrade; }")
        with open(config, "w") as f:
            f.write(f"""
worker_processes {workers};
daemon off;
pid {self.directory}/nginx.pid;
error_log {self.directory}/error.log warn;
events {{ worker_connections 20000; }}
http {{
    access_log off;
    keepalive_requests 1000000;
    client_body_temp_path {self.directory};
    proxy_temp_path {self.directory};
    fastcgi_temp_path {self.directory};
    uwsgi_temp_path {self.directory};
    scgi_temp_path {self.directory};
    {balance}
    server {{
        listen 127.0.0.1:{self.port};
        {location}
    }}
}}
""")
        self.process = subprocess.Popen(["nginx", "-c", config, "-p", self.directory],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for_port(self.port)

    def url(self, path="/ok"):
        return f"http://127.0.0.1:{self.port}{path}"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)
        shutil.rmtree(self.directory, ignore_errors=True)


def wait_for_port(port, timeout=10):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.02)
    raise RuntimeError(f"nothing listens on {port}")


def process_tree_cpu_seconds(pid):
    """CPU time (user plus system, in seconds) of process `pid` and of its children: the
    children it has reaped (from its own `/proc` entry) and those alive now. How much a server
    of several processes (PostgreSQL, nginx) has used; compare two readings."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    total = sum(int(value) for value in fields[11:15]) / os.sysconf("SC_CLK_TCK")
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    child = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # exited meanwhile: its time is in the parent's reaped children's
            if int(child[1]) == pid:
                total += (int(child[11]) + int(child[12])) / os.sysconf("SC_CLK_TCK")
    return total


def rss_kib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def wrk(url, connections=64, threads=2, seconds=10, script=None, script_args=()):
    """Runs wrk and returns (requests per second, p99 latency in ms)."""
    rate, p99, _ = _wrk(url, connections, threads, seconds, script, script_args)
    return rate, p99


def _wrk(url, connections, threads, seconds, script, script_args=()):
    """Runs wrk; returns (requests per second, p99 latency in ms, requests completed). Raises if
    any response was an error (see wrk_counting_errors)."""
    rate, p99, requests, (failed, graphql_errors) = wrk_counting_errors(url, connections, threads, seconds, script, script_args)
    if failed:
        raise RuntimeError(f"wrk saw {failed} error responses from {url}")
    if graphql_errors:
        raise RuntimeError(f"{graphql_errors} responses from {url} carried GraphQL errors")
    return rate, p99, requests


def wrk_counting_errors(url, connections, threads, seconds, script, script_args=()):
    """Runs wrk; returns (requests per second, p99 latency in ms, requests completed, (non-2xx
    responses, responses carrying GraphQL errors)). Scripts that read response bodies (see
    tools/bench/households) report GraphQL errors, which arrive with status 200."""
    command = ["wrk", f"-t{threads}", f"-c{connections}", f"-d{seconds}s", "--latency"]
    if script:
        command += ["-s", script]
    command.append(url)
    if script_args:
        command += ["--", *script_args]
    output = subprocess.run(command, capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    requests = int(re.search(r"(\d+) requests in", output).group(1))
    p99 = re.search(r"99%\s+([\d.]+)(us|ms|s)\b", output)
    scale = {"us": 0.001, "ms": 1.0, "s": 1000.0}[p99.group(2)]
    failed = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    graphql_errors = re.search(r"graphql errors: (\d+)", output)
    counts = (int(failed.group(1)) if failed else 0, int(graphql_errors.group(1)) if graphql_errors else 0)
    return rate, float(p99.group(1)) * scale, requests, counts


def cpu_seconds(pid):
    """User plus system CPU time the process has used, in seconds."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()  # fields[0] is the 3rd field, `state`
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Alternation:
    """Settings of the benchmarks that alternate loads, from the environment: BENCH_SECONDS
    (default 5, per wrk run), BENCH_ROUNDS (3), BENCH_CONNECTIONS (64)."""

    def __init__(self):
        self.seconds = int(os.environ.get("BENCH_SECONDS", "5"))
        self.rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
        self.connections = int(os.environ.get("BENCH_CONNECTIONS", "64"))

    def measure(self, pid, runs):
        """Measures several wrk loads against one server in alternation, `rounds` times each,
        so that a change in the machine's other load during the run falls on all of them alike.

        `runs` maps a label to (url, wrk script or None) or (url, script, [script arguments]).
        Returns two dicts by label: the medians over the rounds of (requests per second, p99
        latency in ms, the server's CPU microseconds per request), and each round's rate."""
        samples = {label: [] for label in runs}
        for _ in range(self.rounds):
            for label, (url, script, *script_args) in runs.items():
                before = cpu_seconds(pid)
                rate, p99, requests = _wrk(url, self.connections, 2, self.seconds, script, *script_args)
                samples[label].append((rate, p99, (cpu_seconds(pid) - before) * 1e6 / max(requests, 1)))
        medians = {label: tuple(statistics.median(column) for column in zip(*values)) for label, values in samples.items()}
        return medians, {label: [rate for rate, _, _ in values] for label, values in samples.items()}

    def compare(self, pid, name, ours, baseline, goal=None, note=""):
        """Measures the load `ours` against `baseline` (each (label, url, script, *[arguments]))
        with ``measure`` and prints the comparison: rates and ratio, each round's ratio, p99
        latencies and CPU per request. Returns the medians by label."""
        (our_label, *our_run), (their_label, *their_run) = ours, baseline
        medians, rates = self.measure(pid, {our_label: tuple(our_run), their_label: tuple(their_run)})
        (our_rate, our_p99, our_cpu), (their_rate, their_p99, their_cpu) = medians[our_label], medians[their_label]
        print(f"# wrk -t2 -c{self.connections} -d{self.seconds}s --latency, keep-alive, loopback, "
              f"{self.rounds} alternating rounds (medians){note}")
        report(name, our_rate, their_rate, "req/s", goal=goal)
        print("per round: " + ", ".join(f"{o / t:.2f}" for o, t in zip(rates[our_label], rates[their_label])))
        print(f"p99 latency: {our_label} {our_p99:.2f} ms, {their_label} {their_p99:.2f} ms")
        print(f"server CPU per request: {our_label} {our_cpu:.1f} us, {their_label} {their_cpu:.1f} us", flush=True)
        return medians


def graphql(url, query, variables=None, token=None):
    """POSTs a GraphQL request (signed in with `token` when given) and returns its `data`;
    raises on any error in the response."""
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=30) as response:
        answer = json.load(response)
    if answer.get("errors"):
        raise RuntimeError(f"{query.split('(')[0].strip()} failed: {answer['errors']}")
    return answer["data"]


def figures(output):
    """An in-process benchmark's `name key=value ...` lines as {name: {key: value}}."""
    result = {}
    for line in output.splitlines():
        name, _, rest = line.partition(" ")
        result[name] = {key: float(value) for key, value in (pair.split("=") for pair in rest.split())}
    return result


def report(name, ours, baseline, unit, goal=None, higher_is_better=True):
    ratio = ours / baseline if baseline else float("inf")
    print(f"{name}: hearth {ours:,.1f} {unit}")
    print(f"{name}: baseline {baseline:,.1f} {unit}")
    line = f"{name}: ratio hearth/baseline {ratio:.2f}"
    if goal is not None:
        met = ratio >= goal if higher_is_better else ratio <= goal
        line += f" (goal {'>=' if higher_is_better else '<='} {goal:.2f}: {'met' if met else 'NOT met'})"
    print(line, flush=True)
    return ratio
