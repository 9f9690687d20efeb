"""System calls per request of the household workload: the kernel's share of a request, which
instructions.py (user space only) leaves out and run.py's CPU times include.

The set-up of run.py makes the same household; then `{ __typename }`, the home screen alone and
the mix each run under wrk for BENCH_SECONDS (default 3): first alone, measuring the server's
user and system CPU time and its threads' context switches per request (from /proc), then
while `perf stat` counts the server's system calls by name (its `syscalls:sys_enter_*`
tracepoints: root, or kernel.perf_event_paranoid at -1), divided by the requests wrk completed.
(`strace -c` counts them too, but it slows every call down so much that locks the event loops
rarely contend for under load contend all the time: futex calls come out ten times too many.)

Run after `make release`: `.venv/bin/python tools/bench/households/syscalls.py` (HEARTH_BIN picks
another binary; extra server flags after the script's name, e.g. `--db-readers 8`). Needs
perf (Debian's linux-perf, installed by `make bench`)."""
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
import benchlib  # noqa: E402
import run  # noqa: E402
import signedin  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "3"))
CONNECTIONS = 16
SHOWN = 12  # the calls listed per kind, most frequent first
# perf takes a moment to attach its hundreds of tracepoints; requests sent before would go
# uncounted. The idle server's calls meanwhile (its log flusher's) are a handful.
ATTACH_SECONDS = 1


def counted_calls(csv):
    """{system call: calls} from `perf stat -x,` output (count, unit, event, ...), the calls made."""
    calls = {}
    for line in csv.splitlines():
        fields = line.split(",")
        if len(fields) > 2 and fields[0].isdigit() and int(fields[0]) > 0:
            calls[fields[2].removeprefix("syscalls:sys_enter_")] = int(fields[0])
    return calls


def kernel_figures(pid):
    """(user CPU seconds, system CPU seconds, context switches) of the server's threads so far."""
    with open(f"/proc/{pid}/stat") as file:
        fields = file.read().rsplit(")", 1)[1].split()  # fields[0] is the 3rd field, `state`
    switches = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{task}/status") as file:
                # voluntary_ctxt_switches and nonvoluntary_ctxt_switches
                switches += sum(int(line.split()[1]) for line in file if "ctxt_switches:" in line)
        except OSError:
            continue  # the thread ended meanwhile
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick, switches


def cpu_per_request(pid, url, requests_file):
    """Runs wrk with `requests_file`; returns (user µs, system µs, context switches) per request."""
    before = kernel_figures(pid)
    _, _, requests = benchlib._wrk(url, CONNECTIONS, 2, SECONDS, signedin.MIX_SCRIPT, [requests_file])
    after = kernel_figures(pid)
    return tuple((later - earlier) / requests * scale for later, earlier, scale in zip(after, before, (1e6, 1e6, 1)))


def calls_per_request(pid, url, requests_file, directory):
    """Runs wrk with `requests_file` while `perf stat` counts the server's system calls by name;
    returns ({call: calls per request}, requests)."""
    output = os.path.join(directory, "perf-stat.csv")
    perf = subprocess.Popen(["perf", "stat", "-x,", "-o", output, "-e", "syscalls:sys_enter_*", "-p", str(pid)],
                            stderr=subprocess.DEVNULL)
    time.sleep(ATTACH_SECONDS)
    try:
        _, _, requests = benchlib._wrk(url, CONNECTIONS, 2, SECONDS, signedin.MIX_SCRIPT, [requests_file])
    finally:
        perf.send_signal(signal.SIGINT)
        perf.wait()
    with open(output) as file:
        calls = counted_calls(file.read())
    return {name: count / requests for name, count in calls.items()}, requests


def main():
    hearth = benchlib.Hearth(*run.SERVER_FLAGS, *sys.argv[1:])
    directory = tempfile.mkdtemp(prefix="hearth-households-syscalls-")
    try:
        client = signedin.Client(hearth)
        (mix_file, typename_file), mix = run.request_files(directory, *run.household_of_eight(client))
        home_file = signedin.write_requests(os.path.join(directory, "home.requests"),
                                            [(token, entry) for token, entry in mix if signedin.operation_name(entry) == "Home"])
        url = hearth.url("/graphql")
        benchlib.wrk(url, connections=CONNECTIONS, seconds=1, script=signedin.MIX_SCRIPT, script_args=[mix_file])  # warm-up
        kinds = ((signedin.TYPENAME, typename_file), ("home screen", home_file), ("the mix", mix_file))
        print(f"# wrk -c{CONNECTIONS} -d{SECONDS}s per kind, server CPU and context switches per request")
        for name, path in kinds:
            user, system, switches = cpu_per_request(hearth.process.pid, url, path)
            print(f"{name}: user {user:.1f} µs, system {system:.1f} µs, {switches:.2f} context switches", flush=True)
        print(f"# perf stat, wrk -c{CONNECTIONS} -d{SECONDS}s per kind, system calls per request")
        for name, path in kinds:
            calls, requests = calls_per_request(hearth.process.pid, url, path, directory)
            listed = sorted(calls.items(), key=lambda item: -item[1])[:SHOWN]
            print(f"{name} ({requests} requests): {sum(calls.values()):.1f} calls; "
                  + ", ".join(f"{call} {count:.2f}" for call, count in listed), flush=True)
    finally:
        hearth.stop()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
