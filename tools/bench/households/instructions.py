"""The household workload's cost in instructions: the server runs under valgrind's callgrind, the
set-up of run.py makes the same household, and each kind of request of the mix, the mix itself in
order and the baseline `{ __typename }` are sent one at a time; the instructions the server
executed (every thread, the kernel's work not included) are counted per request.

Counts do not move with the machine's other load, as CPU times do on a shared machine: this is
the figure to compare two builds by when the load average is high. It leaves out what the
kernel does for a request (network, fsync, locks), which run.py's CPU times include.

Run after `make release`: `.venv/bin/python tools/bench/households/instructions.py` (HEARTH_BIN
picks another binary, BENCH_REPEAT the requests per kind, default 40; BENCH_KEEP_DUMPS=1 keeps
the temporary directory and prints which callgrind dump holds each kind's requests, for
`callgrind_annotate --inclusive=yes`). Needs valgrind and
objcopy (Debian's valgrind and binutils, installed by `make bench`): valgrind 3.19 cannot read
the DWARF 5 of Swift's debug information, so it runs a copy without it."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
import benchlib  # noqa: E402
import run  # noqa: E402
import signedin  # noqa: E402

REPEAT = int(os.environ.get("BENCH_REPEAT", "40"))
KEEP_DUMPS = os.environ.get("BENCH_KEEP_DUMPS") == "1"


def main():
    directory = tempfile.mkdtemp(prefix="hearth-households-instructions-")
    callgrind = benchlib.Callgrind(directory, *run.SERVER_FLAGS, keep_dumps=KEEP_DUMPS)
    hearth = callgrind.hearth
    try:
        client = signedin.Client(hearth)
        (_, _), mix = run.request_files(directory, *run.household_of_eight(client))
        measured, total = [], [0]

        def instructions():
            """The instructions counted so far."""
            total[0] += callgrind.dump()
            measured.append(callgrind.dumps[-1])
            return list(total)

        figures = {name: count for name, (count,) in signedin.per_kind(client, mix, instructions, repeat=REPEAT)}
        print(f"# callgrind, {REPEAT} requests of each kind one at a time, server instructions per request")
        print("instructions per request: " + ", ".join(f"{name} {count / 1000:,.0f}k" for name, count in figures.items()))
        print(f"the mix / {signedin.TYPENAME}: {figures['the mix'] / figures[signedin.TYPENAME]:.2f}", flush=True)
        if KEEP_DUMPS:
            # Each kind is measured between two dumps: the second holds its requests alone.
            for index, name in enumerate(figures):
                print(f"callgrind dump of {name}: {measured[2 * index + 1]}")
    finally:
        callgrind.stop()


if __name__ == "__main__":
    main()
