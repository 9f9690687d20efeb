"""GraphQL over HTTP benchmark: POST {"query":"{ __typename }"} to /graphql against
(1) GET /healthz of the same Hearth server in the same run (the transport's own cost is the
baseline; the goal is at least 60% of its rate) and (2) graphql-js 16 on Node's http module
serving the same schema.graphql with a document cache (Debian's nodejs + node-graphql,
installed by `make bench`; goal: at least 3x, docs/benchmarks.md).

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

ALTERNATION = benchlib.Alternation()
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
    connections = ALTERNATION.connections
    try:
        benchlib.wrk(hearth.url("/graphql"), connections=connections, seconds=1, script=SCRIPT)  # warm-up
        benchlib.wrk(hearth.url("/healthz"), connections=connections, seconds=1)
        medians = ALTERNATION.compare(
            hearth.process.pid, "POST /graphql { __typename } vs GET /healthz (req/s)",
            ("/graphql", hearth.url("/graphql"), SCRIPT), ("/healthz", hearth.url("/healthz"), None), goal=0.6)
    finally:
        hearth.stop()
    graphql, graphql_p99, _ = medians["/graphql"]

    node, url = graphql_js()
    try:
        benchlib.wrk(url, connections=connections, seconds=1, script=SCRIPT)  # warm-up (JIT)
        theirs, their_p99 = benchlib.wrk(url, connections=connections, seconds=ALTERNATION.seconds, script=SCRIPT)
    finally:
        node.terminate()
        node.wait(timeout=10)
    benchlib.report("POST { __typename }: Hearth vs graphql-js 16 on Node http (req/s)", graphql, theirs, "req/s", goal=3.0)
    print(f"p99 latency: hearth {graphql_p99:.2f} ms, graphql-js {their_p99:.2f} ms", flush=True)


if __name__ == "__main__":
    main()
