#!/usr/bin/env python3
"""Attacks a Hearth server as one signed-out client can, with the GraphQL documents that cost
the most server time or memory per byte sent, and reports what they cost.

    .venv/bin/python tools/attack/run.py                       # the release build, both modes
    .venv/bin/python tools/attack/run.py --baseline OLD_BINARY # and an older binary, side by side
    .venv/bin/python tools/attack/run.py --url http://127.0.0.1:8080 --pid 1234  # a running server

Two modes (`--mode shapes|flood|all`, default all):

shapes  Each pathological shape (repeated fields and fragments, many fragments spread together,
        wide inline fragments, long and deep list literals, many operations with aliases, long
        argument lists, fields of one name written differently), every one within the default
        size and token limits, is sent `--repeat` times, each time a new text (a comment makes
        it miss the document cache), one request at a time. It reports per shape the worst and
        median time to the response (on loopback, the server's time), the answer, and the
        worst /healthz latency meanwhile (polled every 50 ms, a new connection each time, as a
        health check does). Then `--clients` clients (default one) send the repeated-__typename
        shape back to back for `--seconds`, and then the shape that was slowest in the run, while
        /healthz is polled: its p50, p99 and maximum say how much they delay everybody else.

flood   Registers `--flood` Automatic Persisted Queries of 55 KB (`nodes(ids: [...5,000
        strings...])`), then, on a fresh server, sends as many distinct documents of that shape,
        and reports the server's resident set size (VmRSS of /proc/PID/status) before and after
        each flood: what the caches let a client make the server hold.

Each server is started with `hearth serve` on a free port with a temporary database (the
flood gets a fresh one per phase), or given with --url and --pid (then the flood phases share
it). Nothing here waits on timing for correctness; the numbers are measurements.
"""
import argparse
import hashlib
import http.client
import json
import os
import statistics
import sys
import threading
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench", "lib"))
import benchlib  # noqa: E402


# ---------------------------------------------------------------------------------------------
# The shapes. Each takes a variant number and returns (document, operationName or None); the
# variant goes into a leading comment, so each request misses the document cache. Every shape
# stays within the default limits of 64 KiB and 15,000 tokens (and 30 aliases per operation).

def repeated_typename(variant):
    return f"# {variant}\n{{ " + "__typename " * 4_900 + "}", None


def repeated_subselection(variant):
    return f"# {variant}\n{{ " + "serverInfo { version } " * 2_400 + "}", None


def one_fragment_spread_often(variant):
    return f"# {variant}\n{{ " + "...F " * 7_000 + "} fragment F on Query { serverInfo { version } }", None


def many_fragments_together(variant, count=1_400):
    spreads = " ".join(f"...F{index}" for index in range(count))
    fragments = " ".join(f"fragment F{index} on Query {{ __typename }}" for index in range(count))
    return f"# {variant}\n{{ {spreads} }} {fragments}", None


def wide_inline_fragments(variant):
    types = ["User", "Household", "Member", "Session", "Invitation", "ParentalConsent"]
    body = " ".join(f"... on {types[index % len(types)]} {{ id }}" for index in range(2_300))
    return f"# {variant}\n{{ node(id: \"x\") {{ {body} }} }}", None


def long_list_literal(variant):
    ids = ",".join(f'"k{variant % 100:02d}{index:05d}"' for index in range(5_000))
    return f"# {variant}\n{{ nodes(ids: [{ids}]) {{ id }} }}", None


def deep_list_literals(variant):
    # graphql-core refuses to parse more than 200 levels; we allow 256.
    deep = "[" * 190 + '"a"' + "]" * 190
    return f"# {variant}\n{{ " + f"nodes(ids: {deep}) {{ id }} " * 38 + "}", None


def many_operations_with_aliases(variant):
    aliases = " ".join(f"a{index}: __typename" for index in range(30))
    operations = " ".join(f"query Q{index} {{ {aliases} }}" for index in range(130))
    return f"# {variant}\n{operations}", "Q0"


def long_argument_lists(variant):
    first = " ".join(f"a{index}: 1" for index in range(2_400))
    second = " ".join(f"a{index}: {1 if index < 2_399 else 2}" for index in range(2_400))
    return f"# {variant}\n{{ serverInfo({first}) {{ version }} serverInfo({second}) {{ version }} }}", None


def one_name_written_differently(variant):
    fields = " ".join("serverInfo { " + "version " * count + "}" for count in range(1, 96))
    return f"# {variant}\n{{ {fields} }}", None


def one_name_through_distinct_fragments(variant, count=200):
    fields = " ".join(f"serverInfo {{ ...V{index} }}" for index in range(count))
    fragments = " ".join(f"fragment V{index} on ServerInfo {{ version }}" for index in range(count))
    return f"# {variant}\n{{ {fields} }} {fragments}", None


SHAPES = [
    ("4,900 x __typename", repeated_typename),
    ("2,400 x serverInfo { version }", repeated_subselection),
    ("one fragment spread 7,000 times", one_fragment_spread_often),
    ("1,400 fragments spread together", many_fragments_together),
    ("2,300 inline fragments on an interface", wide_inline_fragments),
    ("5,000-item list literal", long_list_literal),
    ("38 x 190-deep list literal", deep_list_literals),
    ("130 operations x 30 aliases", many_operations_with_aliases),
    ("2 x 2,400 arguments", long_argument_lists),
    ("95 x serverInfo written differently", one_name_written_differently),
    ("200 x serverInfo via distinct fragments", one_name_through_distinct_fragments),
    # The costliest shapes per byte cut to 1 KiB, the default --graphql-inline-document-bytes:
    # what a document parsed and validated on the event loop can cost.
    ("22 fragments spread together (1 KiB)", lambda variant: many_fragments_together(variant, 22)),
    ("16 x serverInfo via distinct fragments (1 KiB)", lambda variant: one_name_through_distinct_fragments(variant, 16)),
]


# ---------------------------------------------------------------------------------------------
# HTTP

class Client:
    """One keep-alive connection posting GraphQL requests."""

    def __init__(self, port, timeout=300):
        self.port = port
        self.timeout = timeout
        self.connection = None

    def post(self, payload):
        body = json.dumps(payload).encode()
        for attempt in range(2):
            if self.connection is None:
                self.connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=self.timeout)
            try:
                started = time.monotonic()
                self.connection.request("POST", "/graphql", body, {
                    "Content-Type": "application/json", "Accept": "application/json"})
                response = self.connection.getresponse()
                data = response.read()
                return time.monotonic() - started, response.status, data
            except (ConnectionError, http.client.HTTPException):
                self.connection.close()
                self.connection = None
                if attempt == 1:
                    raise

    def close(self):
        if self.connection is not None:
            self.connection.close()


def outcome(status, data):
    """`200 data`, or the status and the first error's code."""
    try:
        body = json.loads(data)
    except ValueError:
        return f"{status} (not JSON)"
    errors = body.get("errors") or []
    if body.get("data") is not None:
        return f"{status} data" + (" + errors" if errors else "")
    code = (errors[0].get("extensions") or {}).get("code", "?") if errors else "?"
    return f"{status} {code}"


class HealthPoller(threading.Thread):
    """Polls /healthz every 50 ms, recording (start, seconds). Each probe opens a new connection,
    as a load balancer's or orchestrator's health check does: the server hands new connections
    to its event loops in turn, so probes reach the loop busy with the attack as often as the
    others (a kept-alive connection would stay on one loop and miss it half the time)."""

    def __init__(self, port):
        super().__init__(daemon=True)
        self.port = port
        self.samples = []
        self.running = True

    def run(self):
        while self.running:
            started = time.monotonic()
            connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=300)
            try:
                connection.request("GET", "/healthz")
                connection.getresponse().read()
                self.samples.append((started, time.monotonic() - started))
            except (ConnectionError, http.client.HTTPException, OSError):
                pass
            finally:
                connection.close()
            time.sleep(0.05)

    def between(self, start, end):
        return [seconds for begun, seconds in self.samples if start <= begun <= end]

    def stop(self):
        self.running = False
        self.join()


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))] if ordered else float("nan")


# ---------------------------------------------------------------------------------------------
# Modes

def back_to_back(port, poller, shape, seconds, clients):
    """`clients` clients send `shape` back to back for `seconds`; returns /healthz meanwhile
    (p50, p99, max) and the requests sent."""
    started = time.monotonic()
    sent = [0]
    lock = threading.Lock()

    def client_loop():
        client = Client(port)
        while time.monotonic() - started < seconds:
            with lock:
                variant = 10_000 + sent[0]
                sent[0] += 1
            document, operation = shape(variant)
            payload = {"query": document}
            if operation:
                payload["operationName"] = operation
            client.post(payload)
        client.close()

    threads = [threading.Thread(target=client_loop) for _ in range(clients)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    health = poller.between(started, time.monotonic())
    return percentile(health, 0.5), percentile(health, 0.99), max(health, default=0), sent[0]


def attack_shapes(port, repeat, seconds, clients):
    """Per shape (name, bytes, worst s, median s, answer, worst /healthz s), then per back-to-back
    phase (shape name, /healthz p50, p99, max, requests sent): the review's 4,900 x __typename and
    the shape with the slowest median in this run."""
    client = Client(port)
    poller = HealthPoller(port)
    poller.start()
    rows = []
    for name, shape in SHAPES:
        times, answers = [], set()
        started = time.monotonic()
        for variant in range(repeat):
            document, operation = shape(variant)
            payload = {"query": document}
            if operation:
                payload["operationName"] = operation
            elapsed, status, data = client.post(payload)
            times.append(elapsed)
            answers.add(outcome(status, data))
        health = poller.between(started, time.monotonic())
        size = len(shape(0)[0].encode())
        rows.append((name, size, max(times), statistics.median(times), ", ".join(sorted(answers)), max(health, default=0)))
    client.close()
    slowest = max(range(1, len(SHAPES)), key=lambda index: rows[index][3])
    phases = [(name, back_to_back(port, poller, shape, seconds, clients)) for name, shape in (SHAPES[0], SHAPES[slowest])]
    poller.stop()
    return rows, phases


def flood_document(index):
    ids = ",".join(f'"{index:04d}{item:04d}"' for item in range(5_000))
    return f"query Flood{index} {{ nodes(ids: [{ids}]) {{ id }} }}"


def flood(port, pid, count, persisted):
    """Sends `count` distinct 55 KB documents (as APQ registrations when `persisted`) over four
    connections; returns (RSS before, RSS after) in KiB."""
    before = benchlib.rss_kib(pid)
    lock = threading.Lock()
    next_index = [0]

    def worker():
        client = Client(port)
        while True:
            with lock:
                index = next_index[0]
                next_index[0] += 1
            if index >= count:
                break
            document = flood_document(index)
            payload = {"query": document}
            if persisted:
                digest = hashlib.sha256(document.encode()).hexdigest()
                payload["extensions"] = {"persistedQuery": {"version": 1, "sha256Hash": digest}}
            client.post(payload)
        client.close()

    workers = [threading.Thread(target=worker) for _ in range(4)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    return before, benchlib.rss_kib(pid)


# ---------------------------------------------------------------------------------------------
# Running against one or two binaries

class Target:
    """A server to attack: started from a binary, or running at a URL."""

    def __init__(self, label, binary=None, url=None, pid=None):
        self.label, self.binary, self.url, self.pid = label, binary, url, pid

    def run(self, phase):
        if self.binary is None:
            port = int(self.url.rsplit(":", 1)[1].split("/")[0])
            return phase(port, self.pid)
        benchlib.HEARTH = self.binary
        server = benchlib.Hearth("--log-level", "error", "--access-log", "off")
        try:
            return phase(server.port, server.process.pid)
        finally:
            server.stop()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hearth", default=os.environ.get("HEARTH_BIN", os.path.join(benchlib.ROOT, ".build", "release", "hearth")))
    parser.add_argument("--baseline", help="another hearth binary (e.g. main's) attacked the same way, first")
    parser.add_argument("--url", help="attack this running server instead of starting --hearth")
    parser.add_argument("--pid", type=int, help="the running server's process id, for its RSS (with --url)")
    parser.add_argument("--mode", choices=["shapes", "flood", "all"], default="all")
    parser.add_argument("--repeat", type=int, default=5, help="requests per shape (default 5)")
    parser.add_argument("--seconds", type=float, default=10, help="length of each back-to-back phase (default 10)")
    parser.add_argument("--clients", type=int, default=1, help="clients sending back to back (default 1)")
    parser.add_argument("--flood", type=int, default=3_000, help="documents per flood (default 3,000)")
    arguments = parser.parse_args()

    if arguments.url:
        targets = [Target("server", url=arguments.url, pid=arguments.pid)]
    else:
        targets = [Target("baseline", binary=arguments.baseline)] if arguments.baseline else []
        targets.append(Target("hearth", binary=arguments.hearth))
    for target in targets:
        print(f"== {target.label}: {target.binary or target.url}", flush=True)
        if arguments.mode in ("shapes", "all"):
            rows, phases = target.run(
                lambda port, _pid: attack_shapes(port, arguments.repeat, arguments.seconds, arguments.clients))
            print(f"{'shape':48} {'bytes':>7} {'worst ms':>9} {'median ms':>9} {'/healthz max ms':>15}  answer")
            for name, size, slowest, median, answer, health in rows:
                print(f"{name:48} {size:>7} {slowest * 1000:>9.1f} {median * 1000:>9.1f} {health * 1000:>15.1f}  {answer}")
            for name, (p50, p99, worst, sent) in phases:
                print(f"{arguments.clients} client(s) back to back for {arguments.seconds:g} s, {name} ({sent} requests): "
                      f"/healthz p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, max {worst * 1000:.1f} ms", flush=True)
        if arguments.mode in ("flood", "all"):
            if target.binary is None and target.pid is None:
                print("flood: skipped, --pid is needed to read the server's RSS")
                continue
            for persisted, what in ((True, "APQ registrations"), (False, "distinct documents")):
                before, after = target.run(lambda port, pid: flood(port, pid, arguments.flood, persisted))
                print(f"flood of {arguments.flood} {what} of 55 KB: RSS {before / 1024:.0f} MiB -> {after / 1024:.0f} MiB "
                      f"(+{(after - before) / 1024:.0f} MiB)", flush=True)


if __name__ == "__main__":
    main()
