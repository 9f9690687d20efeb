"""GraphQL over HTTP benchmark: POST {"query":"{ __typename }"} to /graphql against
(1) GET /healthz of the same Hearth server in the same run (the transport's own cost is the
baseline; the goal is at least 60% of its rate) and (2) graphql-js 16 on Node's http module
serving the same schema.graphql with a document cache (Debian's nodejs + node-graphql,
installed by `make bench`; goal: at least 3x, ../shared/BENCHMARKS.md).

The two Hearth loads alternate, BENCH_ROUNDS times each (default 3), so a change in the
machine's other load falls on both; the figures are the medians of the rounds, and the
server's CPU time per request (user + system, from /proc) is printed beside them as the
steadier comparison.

Run with `make bench` (or `.venv/bin/python tools/bench/graphql-http/run.py` after
`make release`). Options through the environment: BENCH_SECONDS (default 5, per wrk run),
BENCH_ROUNDS (3), BENCH_CONNECTIONS (64)."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "64"))
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "post-typename.lua")


def graphql_js():
    """Starts the graphql-js peer; returns (process, url)."""
    port = benchlib.free_port()
    environment = dict(os.environ, NODE_PATH="/usr/share/nodejs")
    server = os.path.join(os.path.dirname(os.path.abspath(__file__)), "graphql-js-server.js")
    process = subprocess.Popen(["node", server, os.path.join(benchlib.ROOT, "schema.graphql"), str(port)],
                               env=environment, stdout=subprocess.DEVNULL)
    benchlib.wait_for_port(port)
    return process, f"http://127.0.0.1:{port}/graphql"


def main():
    hearth = benchlib.Hearth("--access-log", "off")
    try:
        benchlib.wrk(hearth.url("/graphql"), connections=CONNECTIONS, seconds=1, script=SCRIPT)  # warm-up
        benchlib.wrk(hearth.url("/healthz"), connections=CONNECTIONS, seconds=1)
        medians, rates = benchlib.alternate(hearth.process.pid, {
            "graphql": (hearth.url("/graphql"), SCRIPT),
            "healthz": (hearth.url("/healthz"), None),
        }, rounds=ROUNDS, connections=CONNECTIONS, seconds=SECONDS)
    finally:
        hearth.stop()
    (graphql, graphql_p99, graphql_cpu), (healthz, healthz_p99, healthz_cpu) = medians["graphql"], medians["healthz"]
    print(f"# wrk -t2 -c{CONNECTIONS} -d{SECONDS}s --latency, keep-alive, loopback, {ROUNDS} alternating rounds (medians)")
    benchlib.report("POST /graphql { __typename } vs GET /healthz (req/s)", graphql, healthz, "req/s", goal=0.6)
    print("per round: " + ", ".join(f"{g / h:.2f}" for g, h in zip(rates["graphql"], rates["healthz"])))
    print(f"p99 latency: /graphql {graphql_p99:.2f} ms, /healthz {healthz_p99:.2f} ms")
    print(f"server CPU per request: /graphql {graphql_cpu:.1f} us, /healthz {healthz_cpu:.1f} us", flush=True)

    node, url = graphql_js()
    try:
        benchlib.wrk(url, connections=CONNECTIONS, seconds=1, script=SCRIPT)  # warm-up (JIT)
        theirs, their_p99 = benchlib.wrk(url, connections=CONNECTIONS, seconds=SECONDS, script=SCRIPT)
    finally:
        node.terminate()
        node.wait(timeout=10)
    benchlib.report("POST { __typename }: Hearth vs graphql-js 16 on Node http (req/s)", graphql, theirs, "req/s", goal=3.0)
    print(f"p99 latency: hearth {graphql_p99:.2f} ms, graphql-js {their_p99:.2f} ms", flush=True)


if __name__ == "__main__":
    main()
