"""Scale benchmark (issue 20): the household workload and the chores workload against 1, 2 and 3
`hearth serve` instances on one PostgreSQL database, and against one instance on SQLite, in the
same run, alternating.

**Deployment.** A throwaway PostgreSQL cluster (tools/postgres/cluster, under .build/postgres/scale)
made durable for the run (`fsync`, `synchronous_commit` and `full_page_writes` on again, as in
production; the test cluster turns them off), one database migrated with `hearth migrate`, three
instances on it; one instance on a SQLite file. Every configuration is measured through nginx
(Debian's nginx-light, one worker, round robin, keep-alive to the instances): "PostgreSQL, 2
instances" is an nginx whose upstream holds the first two instances, and so on; SQLite has an
nginx of its own, so each configuration pays the same proxy hop. Instances outside the measured
configuration stay up, idle.

**Data.** On each store the household of tools/bench/households (eight members, set up through the
API as people do it), with tags and CHORES chores drawn as tools/bench/chores/views.py draws them
(its `create_chore`), created now: views.py's two years of history take tens of minutes to seed,
so the chore lists here have no past completions.

**Loads** (wrk -t2, BENCH_CONNECTIONS connections, requests signed in as the four adults):

- household mix: tools/bench/households' mix (home screen, switcher, checklist, economy, 5 %
  writes renaming a member);
- chore views: tools/bench/chores/views.py's lists, `myChores(first: 20)` and
  `householdChores(first: 50)`, half each;
- `{ __typename }` with the same tokens: the transport's cost on each configuration.

Each round measures every load on every configuration in turn; the figures are the medians over
BENCH_ROUNDS rounds of: requests per second, p99 latency, and CPU time per request of the Hearth
instances of the configuration (summed, from /proc/PID/stat), of PostgreSQL (the postmaster and
all its backends, reaped ones included) and of nginx. On a 2-core machine that wrk, nginx,
PostgreSQL and the instances share, the rate cannot grow with instances; the CPU per request is
the figure that transfers to a deployment (docs/scaling.md uses it).

Run after `make release` (or with HEARTH_BIN naming another build):
`.venv/bin/python tools/bench/scale/run.py`. Options through the environment: BENCH_SECONDS (5,
per wrk run), BENCH_ROUNDS (3), BENCH_CONNECTIONS (64), BENCH_SCALE_CHORES (200),
BENCH_SCALE_ERRORS (`refuse`, the default: any error response stops the run; `report`: the run
goes on and each line says how many responses were errors, for a store that still returns some). Needs
PostgreSQL's server and psql (Debian's postgresql), nginx-light and wrk (`make test-deps
bench-deps`). At the end it prints the PostgreSQL database's largest tables: rows and
`pg_total_relation_size`."""
import importlib.util
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
import benchlib  # noqa: E402
import signedin  # noqa: E402
from signedin import MIX_SCRIPT, TYPENAME, body  # noqa: E402

# views.py's chores start at its START, CHORE_HISTORY_DAYS before now: now, since nothing here
# seeds a history.
os.environ.setdefault("CHORE_HISTORY_DAYS", "0")


def module(name, path):
    """The benchmark script at `path` (relative to tools/bench) as a module named `name`."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "..", path))
    loaded = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(loaded)
    return loaded


households = module("households_bench", "households/run.py")
views = module("chore_views_bench", "chores/views.py")

ALTERNATION = benchlib.Alternation()
CHORES = int(os.environ.get("BENCH_SCALE_CHORES", "200"))
REPORT_ERRORS = os.environ.get("BENCH_SCALE_ERRORS", "refuse") == "report"
CLUSTER = os.path.join(benchlib.ROOT, ".build", "postgres", "scale")
MEMBERS = "query($id: ID!) { household(id: $id) { members(first: 20) { edges { node { id displayName kind role } } } } }"
TAG = "mutation($input: CreateTagInput!) { createTag(input: $input) { tag { id } } }"


def psql(url, *commands):
    """Runs each of `commands` with psql on `url` (each its own transaction); returns the output."""
    arguments = [argument for command in commands for argument in ("-c", command)]
    return subprocess.run(["psql", url, "-At", "-F", "\t", *arguments], capture_output=True, text=True, check=True).stdout


class PostgreSQL:
    """The throwaway cluster, durable, with one migrated database for the benchmark."""

    def __init__(self):
        script = os.path.join(benchlib.ROOT, "tools", "postgres", "cluster")
        self.stop_command = [script, "stop", CLUSTER]
        maintenance = subprocess.run([script, "start", CLUSTER], capture_output=True, text=True, check=True).stdout.strip()
        psql(maintenance, "ALTER SYSTEM SET fsync = on", "ALTER SYSTEM SET synchronous_commit = on",
             "ALTER SYSTEM SET full_page_writes = on", "SELECT pg_reload_conf()", "CREATE DATABASE hearth_scale")
        # Plain TCP on loopback, as in the earlier runs: the test cluster also serves TLS (libpq's
        # default `prefer` would take it), which adds encryption to every round trip.
        self.url = maintenance.rsplit("/", 1)[0] + "/hearth_scale?sslmode=disable"
        subprocess.run([benchlib.HEARTH, "migrate", "--database", self.url], capture_output=True, check=True)
        with open(os.path.join(CLUSTER, "data", "postmaster.pid")) as file:
            self.pid = int(file.readline())

    def largest_tables(self, count=12):
        """[(table, rows, bytes)] of the largest tables, by pg_total_relation_size."""
        tables = [line.split("\t") for line in psql(self.url, (
            "SELECT relname, pg_total_relation_size(relid) FROM pg_stat_user_tables "
            f"ORDER BY 2 DESC, 1 LIMIT {count}")).splitlines()]
        return [(name, int(psql(self.url, f"SELECT count(*) FROM {name}")), int(size)) for name, size in tables]

    def totals(self):
        """(rows, bytes) of all the database's tables, pg_total_relation_size (indexes, TOAST)."""
        rows, size = psql(self.url, "SELECT COALESCE(sum(n_live_tup), 0), COALESCE(sum(pg_total_relation_size(relid)), 0) FROM pg_stat_user_tables").split("\t")
        return int(rows), int(size)

    def stop(self):
        subprocess.run(self.stop_command, check=False)


def chore_views(client, connection, directory, tokens, household):
    """Tags and CHORES chores in `household` (views.py's draws), created as its first admin;
    returns the path of the chore views' request file."""
    members = [edge["node"] for edge in client.run(MEMBERS, {"id": household}, tokens[0])["household"]["members"]["edges"]]
    shape = views.Household()
    shape.id = household
    shape.adults = [views.Adult(m["displayName"], m["id"], (None, None), m["role"] == "ADMIN")
                    for m in members if m["kind"] in ("PARENT", "CO_PARENT")]
    shape.dependents = [m["id"] for m in members if m["kind"] in ("CHILD", "SHADOW")]
    for name, color in views.TAGS:
        shape.tags.append(connection.run(TAG, {"input": {"householdId": household, "name": name, "color": color}}, tokens[0])["createTag"]["tag"]["id"])
    draws = random.Random(14)
    for number in range(CHORES):
        views.create_chore(connection, shape, draws, number, tokens[0])
    lists = [body(views.MY_CHORES), body(views.HOUSEHOLD_CHORES, {"id": household, "now": views.iso(views.NOW)})]
    return signedin.write_requests(os.path.join(directory, "chores.requests"), [(token, entry) for entry in lists for token in tokens])


def workloads(hearth, directory):
    """Sets the household and its chores up through `hearth`; returns {load: request file}."""
    os.makedirs(directory)
    client = signedin.Client(hearth)
    admins, adults, household, shadow = households.household_of_eight(client)
    (mix_file, typename_file), mix = households.request_files(directory, admins, adults, household, shadow)
    chores_file = chore_views(client, views.Connection(hearth), directory, admins + adults, household)
    views.wait_for_jobs(hearth)
    with open(chores_file) as file:
        entries = mix + [tuple(line.rstrip("\n").split("\t", 1)) for line in file]
    for token, entry in entries:  # every request answers without errors before the load
        signedin.send(client, token, entry, "0")
    return {"household mix": mix_file, "chore views": chores_file, TYPENAME: typename_file}


class Configuration:
    """Instances behind an nginx of their own; `database` is the PostgreSQL server, or None."""

    def __init__(self, name, instances, files, database=None):
        self.name, self.instances, self.files, self.database = name, instances, files, database
        self.nginx = benchlib.Nginx(workers=1, upstreams=[instance.port for instance in instances])

    def cpu(self):
        """CPU seconds so far of (the instances, PostgreSQL, nginx)."""
        return (sum(instance.cpu() for instance in self.instances),
                benchlib.process_tree_cpu_seconds(self.database.pid) if self.database else 0.0,
                benchlib.process_tree_cpu_seconds(self.nginx.process.pid))

    def measure(self, load, seconds):
        """One wrk run of `load`: (req/s, p99 ms, µs per request of the instances, PostgreSQL, nginx,
        error responses in %). Error responses stop the run unless BENCH_SCALE_ERRORS is `report`."""
        before = self.cpu()
        rate, p99, requests, errors = benchlib.wrk_counting_errors(
            self.nginx.url("/graphql"), ALTERNATION.connections, 2, seconds, MIX_SCRIPT, [self.files[load]])
        if any(errors) and not REPORT_ERRORS:
            raise RuntimeError(f"{load} on {self.name}: {errors[0]} non-2xx responses, {errors[1]} with GraphQL errors")
        cpu = ((after - first) * 1e6 / max(requests, 1) for after, first in zip(self.cpu(), before))
        return (rate, p99, *cpu, 100.0 * sum(errors) / max(requests, 1))


class Instance(benchlib.Hearth):
    """A `hearth serve` of the benchmark."""

    def cpu(self):
        return benchlib.cpu_seconds(self.process.pid)


def main():
    benchlib.raise_fd_limit()
    directory = tempfile.mkdtemp(prefix="hearth-scale-bench-")
    postgres, started, configurations = None, [], []
    try:
        postgres = PostgreSQL()
        started = [Instance(*households.SERVER_FLAGS, database=postgres.url) for _ in range(3)]
        sqlite = Instance(*households.SERVER_FLAGS)
        started.append(sqlite)
        sqlite_files = workloads(sqlite, os.path.join(directory, "sqlite"))
        postgres_files = workloads(started[0], os.path.join(directory, "postgres"))
        configurations = [Configuration("SQLite, 1 instance", [sqlite], sqlite_files)] + [
            Configuration(f"PostgreSQL, {count} instance{'s' if count > 1 else ''}", started[:count], postgres_files, postgres)
            for count in (1, 2, 3)]
        for configuration in configurations:  # warm-up: connections, caches, prepared statements
            for load in configuration.files:
                configuration.measure(load, 1)
        samples = {(c.name, load): [] for c in configurations for load in c.files}
        for _ in range(ALTERNATION.rounds):
            for configuration in configurations:
                for load in configuration.files:
                    samples[(configuration.name, load)].append(configuration.measure(load, ALTERNATION.seconds))
        report(configurations, samples, os.path.basename(benchlib.HEARTH) + " at " + benchlib.HEARTH)
        print("# PostgreSQL's largest tables after the run (1 household, its chores and the loads' writes): "
              + ", ".join(f"{name} {rows} rows {size / 1024:.0f} KiB" for name, rows, size in postgres.largest_tables()), flush=True)
        rows, size = postgres.totals()
        print(f"# All tables: {rows} live rows (pg_stat_user_tables' estimate), {size / 1024:.0f} KiB", flush=True)
    finally:
        for configuration in configurations:
            configuration.nginx.stop()
        for instance in started:
            instance.stop()
        if postgres:
            postgres.stop()
        shutil.rmtree(directory, ignore_errors=True)


def report(configurations, samples, binary):
    """Prints one line per load and configuration (medians), and each load's rate and CPU per
    request against SQLite's."""
    print(f"# wrk -t2 -c{ALTERNATION.connections} -d{ALTERNATION.seconds}s --latency through nginx, "
          f"{ALTERNATION.rounds} alternating rounds (medians), {os.cpu_count()} cores; {binary}")
    for load in configurations[0].files:
        baseline = None
        for configuration in configurations:
            rate, p99, hearth, database, proxy, errors = (statistics.median(column) for column in zip(*samples[(configuration.name, load)]))
            baseline = baseline or (rate, hearth + database)
            print(f"{load} | {configuration.name}: {rate:,.0f} req/s, p99 {p99:.1f} ms, CPU per request: hearth {hearth:,.0f} us"
                  f" + PostgreSQL {database:,.0f} us (nginx {proxy:,.0f} us); vs SQLite: rate {rate / baseline[0]:.2f}, "
                  f"server CPU {(hearth + database) / baseline[1]:.2f}; error responses {errors:.2f} %", flush=True)


if __name__ == "__main__":
    main()
