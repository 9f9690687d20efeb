"""The WebSocket load generator (tools/bench/ws/loadgen.c) in its `--trigger-file` mode, shared by the
benchmarks of subscriptions that mutations trigger (tools/bench/leaderboard, tools/bench/sync): building it,
starting it and waiting until every connection has subscribed, one `measure`/`quiet` command with the
server's CPU time and SQL statements over it, and reading its result lines."""
import math
import os
import subprocess

import benchlib
import signedin

LOADGEN = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ws", "loadgen.c")
# The warm-up rounds the load generator may take (lines of a trigger file beyond the measured ones).
WARM_UPS = 20


def build_loadgen(directory):
    """Compiles the load generator into `directory`; returns the binary's path."""
    binary = os.path.join(directory, "loadgen")
    subprocess.run(["cc", "-O2", "-Wall", "-o", binary, LOADGEN, "-lz"], check=True, timeout=120)
    return binary


def percentile(values, p):
    """Nearest-rank percentile, as loadgen.c computes it."""
    ordered = sorted(values)
    return ordered[max(math.ceil(p * len(ordered)), 1) - 1]


def figures(line):
    """A loadgen `result`/`quiet` line as {key: value or [values]}."""
    result = {}
    for pair in line.split()[1:]:
        key, value = pair.split("=")
        result[key] = [float(v) for v in value.split(",")] if "," in value or key in ("values", "from_request", "response") else float(value)
    return result


class LoadGenerator:
    """A running load generator: `connections` graphql-transport-ws connections signed in with the tokens
    of `tokens_file`, each subscribed with `payload`, and the requests of `trigger_file` (and `quiet_file`)
    to send. Starting it waits for its `ready` line (every connection subscribed, a warm-up round seen by all)."""

    def __init__(self, binary, hearth, connections, tokens_file, payload, trigger_file, quiet_file=None):
        command = [binary, "--port", str(hearth.port), "--connections", str(connections), "--tokens", tokens_file,
                   "--subscribe-payload", payload, "--trigger-file", trigger_file, "--publish-path", "/graphql"]
        if quiet_file:
            command += ["--quiet-file", quiet_file]
        self.hearth = hearth
        self.process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ready = self.process.stdout.readline()
        if not self.ready.startswith("ready"):
            self.close()
            raise RuntimeError(f"load generator did not get ready: {self.ready!r}")
        self.warm_ups = int(dict(pair.split("=") for pair in self.ready.split()[1:])["warm_ups"])

    def step(self, command):
        """Runs one command (`measure N`, `quiet N`); returns its ``Step``."""
        return Step(self.hearth, self, command)

    def close(self):
        """Closes every connection and ends the process."""
        if self.process.poll() is None:
            try:
                self.process.stdin.write("exit\n")
                self.process.stdin.flush()
                self.process.wait(timeout=30)
            except (BrokenPipeError, subprocess.TimeoutExpired):
                self.process.kill()


class Step:
    """One loadgen command: its output line, and the server's CPU time and SQL statements over it."""

    def __init__(self, hearth, loadgen, command):
        # The scrapes of /metrics fall outside the CPU time measured.
        statements = signedin.statement_counters(hearth)[0]
        cpu = benchlib.cpu_seconds(hearth.process.pid)
        loadgen.process.stdin.write(command + "\n")
        loadgen.process.stdin.flush()
        line = loadgen.process.stdout.readline()
        if not line.startswith(("result", "quiet")):
            raise RuntimeError(f"load generator: {line!r}")
        self.cpu_seconds = benchlib.cpu_seconds(hearth.process.pid) - cpu
        self.statements = signedin.statement_counters(hearth)[0] - statements
        self.figures = figures(line)
