"""GraphQL over HTTP benchmark: POST {"query":"{ __typename }"} to /graphql against
GET /healthz of the same Hearth server in the same run (the transport's own cost is the
baseline; the goal is at least 60% of its rate). graphql-js is not measured here: Node's
graphql package is not installed on these machines.

Run with `make bench` (or `.venv/bin/python tools/bench/graphql-http/run.py` after
`make release`). Options through the environment: BENCH_SECONDS (default 10),
BENCH_CONNECTIONS (64)."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "10"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "64"))
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "post-typename.lua")


def main():
    hearth = benchlib.Hearth("--access-log", "off")
    try:
        benchlib.wrk(hearth.url("/graphql"), connections=CONNECTIONS, seconds=1, script=SCRIPT)  # warm-up
        benchlib.wrk(hearth.url("/healthz"), connections=CONNECTIONS, seconds=1)
        graphql, graphql_p99 = benchlib.wrk(hearth.url("/graphql"), connections=CONNECTIONS, seconds=SECONDS, script=SCRIPT)
        healthz, healthz_p99 = benchlib.wrk(hearth.url("/healthz"), connections=CONNECTIONS, seconds=SECONDS)
    finally:
        hearth.stop()
    print(f"# wrk -t2 -c{CONNECTIONS} -d{SECONDS}s --latency, keep-alive, loopback")
    benchlib.report("POST /graphql { __typename } vs GET /healthz (req/s)", graphql, healthz, "req/s", goal=0.6)
    print(f"p99 latency: /graphql {graphql_p99:.2f} ms, /healthz {healthz_p99:.2f} ms", flush=True)


if __name__ == "__main__":
    main()
