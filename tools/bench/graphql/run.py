"""GraphQL engine benchmark, in-process: Hearth's engine (GraphQLBench) against graphql-core
doing the same work in the same run: parse, validate, execute and serialize (a) the standard
introspection query against a realistic 58-type schema and (b) a query returning 1,000
objects with 10 scalar fields each (default resolvers over dictionaries on both sides).

Run with `make bench`, or after `swift build -c release --product GraphQLBench`:
`.venv/bin/python tools/bench/graphql/run.py`. BENCH_SECONDS (default 5) sets the time
spent on each query per side. Goals (issue 3): at least 30x graphql-core on both queries and
at least 1,000,000 resolved fields per second per core on the list query (both sides run
single-threaded).

The goals are judged on CPU time per operation (the process's CPU clock on both sides), which
a shared machine's other load disturbs far less than the wall clock; the wall-clock figures
are printed beside them."""
import os
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "schema.graphql")
INTROSPECTION = os.path.join(HERE, "introspection.graphql")
BENCH = os.environ.get("GRAPHQL_BENCH_BIN", os.path.join(benchlib.ROOT, ".build", "release", "GraphQLBench"))
SECONDS = os.environ.get("BENCH_SECONDS", "5")


def main():
    ours = benchlib.figures(subprocess.run([BENCH, SCHEMA, INTROSPECTION, SECONDS], check=True, capture_output=True, text=True).stdout)
    theirs = benchlib.figures(subprocess.run(
        [sys.executable, os.path.join(HERE, "graphql_core_bench.py"), SCHEMA, INTROSPECTION, SECONDS],
        check=True, capture_output=True, text=True).stdout)
    node = subprocess.run(["node", os.path.join(HERE, "graphql_js_bench.js"), SCHEMA, INTROSPECTION, SECONDS],
                          check=True, capture_output=True, text=True,
                          env=dict(os.environ, NODE_PATH="/usr/share/nodejs"))
    javascript = benchlib.figures(node.stdout)
    print("graphql engine: parse, validate (all specified rules), execute and serialize on every side")
    for name, label in (("introspection", "introspection query"), ("list", "1,000 x 10 list query")):
        benchlib.report(f"graphql {label} (operations/s of CPU time)", 1000 / ours[name]["cpu_ms_per_op"],
                        1000 / theirs[name]["cpu_ms_per_op"], "op/s", goal=30)
        benchlib.report(f"graphql {label} (operations/s of wall time)", 1000 / ours[name]["ms_per_op"],
                        1000 / theirs[name]["ms_per_op"], "op/s")
        benchlib.report(f"graphql {label} vs graphql-js 16 (operations/s of CPU time)",
                        1000 / ours[name]["cpu_ms_per_op"], 1000 / javascript[name]["cpu_ms_per_op"], "op/s", goal=5)
    fields = 10_000 / (ours["list"]["cpu_ms_per_op"] / 1000)
    baseline_fields = 10_000 / (theirs["list"]["cpu_ms_per_op"] / 1000)
    print(f"graphql list query: hearth {fields:,.0f} resolved fields per CPU second, baseline "
          f"{baseline_fields:,.0f} (goal >= 1,000,000: {'met' if fields >= 1_000_000 else 'NOT met'})",
          flush=True)


main()
