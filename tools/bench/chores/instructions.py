"""The chore views' cost in instructions: the server runs under valgrind's callgrind on a
household seeded by views.py (CHORE_VIEWS_SEED, required: seeding takes minutes even without
valgrind), and `{ __typename }`, `myChores` and `householdChores` (views.py's requests, the four
adults in turn, `Accept-Encoding: gzip` as a phone sends) are each sent twice per adult, then
BENCH_REPEAT times one at a time; the instructions the server executed (every thread, the
kernel's work not included) are counted per request. With the list cache on (the default),
these are kept lists; `CHORE_VIEWS_CACHE=0` counts lists built afresh.

Counts do not move with the machine's other load, as views.py's CPU times do on a shared
machine: this is the figure to compare two builds by. Run after `make release` and a views.py
run that kept its seed: `CHORE_VIEWS_SEED=DIR .venv/bin/python tools/bench/chores/instructions.py`
(HEARTH_BIN picks another binary; BENCH_REPEAT, default 20; BENCH_KEEP_DUMPS=1 keeps the
callgrind dump of each kind, for `callgrind_annotate --inclusive=yes`). Needs valgrind and
objcopy (installed by `make bench`); valgrind 3.19 cannot read the DWARF 5 of Swift's debug
information, so it runs a copy without it."""
import http.client
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
import benchlib  # noqa: E402
import signedin  # noqa: E402
import views  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "20"))
KEEP_DUMPS = os.environ.get("BENCH_KEEP_DUMPS") == "1"
CACHE = os.environ.get("CHORE_VIEWS_CACHE", "1") != "0"


def main():
    if not views.SEED or not os.path.exists(views.SEED):
        sys.exit("set CHORE_VIEWS_SEED to a directory a views.py run seeded")
    directory = tempfile.mkdtemp(prefix="hearth-chore-instructions-")
    database = os.path.join(directory, "seed", "views.sqlite")
    shutil.copytree(views.SEED, os.path.dirname(database))
    flags = views.SERVER_FLAGS + (() if CACHE else ("--chore-view-cache", "0"))
    callgrind = benchlib.Callgrind(directory, *flags, database=database, keep_dumps=KEEP_DUMPS)
    hearth = callgrind.hearth
    try:
        views.wait_for_jobs(hearth)
        tokens, _, requests = views.view_requests(signedin.Client(hearth))
        kinds = {signedin.TYPENAME: [(token, signedin.body(signedin.TYPENAME)) for token in tokens], **requests}
        host, port = hearth.url("/").split("//")[1].split("/")[0].rsplit(":", 1)
        connection = http.client.HTTPConnection(host, int(port), timeout=600)

        def send(token, entry):
            headers = {"Content-Type": "application/json", "Authorization": "Bearer " + token}
            if views.ENCODING:
                headers["Accept-Encoding"] = views.ENCODING
            connection.request("POST", "/graphql", entry.encode(), headers)
            response = connection.getresponse()
            response.read()
            if response.status != 200:
                raise RuntimeError(f"status {response.status}")

        figures, statements = {}, {}
        for name, entries in kinds.items():
            # Twice per adult unmeasured: the first request builds the list, the second makes
            # (and keeps) its response and that response's gzip encoding.
            for entry in entries * 2:
                send(*entry)
            # The statement counters are read outside the measured requests: before the dump
            # that zeroes the counts, and after the one that reads them.
            before = signedin.statement_counters(hearth)[0]
            callgrind.dump()
            for sent in range(REPEAT):
                send(*entries[sent % len(entries)])
            figures[name] = callgrind.dump() / REPEAT
            statements[name] = (signedin.statement_counters(hearth)[0] - before) / REPEAT
            if KEEP_DUMPS:
                print(f"callgrind dump of {name}: {callgrind.dumps[-1]}")
        failed = signedin.failed_operations(hearth)
        if failed:
            raise RuntimeError(f"the server answered {failed:.0f} operations with errors")
        print(f"# callgrind, {REPEAT} requests of each kind one at a time, lists {'kept' if CACHE else 'built afresh'}, "
              f"Accept-Encoding: {views.ENCODING or '(none)'}; server instructions per request")
        print("instructions per request: " + ", ".join(f"{name} {count / 1000:,.0f}k" for name, count in figures.items()))
        print("SQL statements per request (with one reading of /metrics): "
              + ", ".join(f"{name} {count:.1f}" for name, count in statements.items()))
        baseline = figures[signedin.TYPENAME]
        print(", ".join(f"{name} / {signedin.TYPENAME}: {figures[name] / baseline:.2f}" for name in requests), flush=True)
    finally:
        callgrind.stop()


if __name__ == "__main__":
    main()
