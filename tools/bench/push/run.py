"""Web Push benchmark (issue 18, push encryption throughput per core): what one delivery attempt
computes before it writes to the network, single-threaded, in CPU time. Hearth's side is PushBench
(Sources beside this file, release build): RFC 8291 encryption with a fresh key pair and salt, and
the RFC 8292 VAPID header, exactly as the push.deliver job does. The peer (peer.py) does the same
with the reference implementations, http_ece and py_vapid (on the `cryptography` package's
OpenSSL). The sides alternate over BENCH_ROUNDS rounds (3); the figures are the medians.

Run with `make bench`, or after `swift build -c release --product PushBench`:
`.venv/bin/python tools/bench/push/run.py`. Environment: PUSH_BENCH_COUNT (5000 pushes per size),
BENCH_ROUNDS (3). Sizes: 200 bytes (a reminder) and 3,993 (the largest a push carries).
"""
import json, os, statistics, subprocess, sys, warnings

here = os.path.dirname(os.path.abspath(__file__))
root = os.path.dirname(os.path.dirname(os.path.dirname(here)))
count = os.environ.get("PUSH_BENCH_COUNT", "5000")
rounds = int(os.environ.get("BENCH_ROUNDS", "3"))
sides = {
    "hearth": [os.path.join(root, ".build", "release", "PushBench"), count],
    "peer": [sys.executable, "-W", "ignore", os.path.join(here, "peer.py"), count],
}
results = {side: {} for side in sides}
for round_number in range(rounds):
    for side, command in (sides.items() if round_number % 2 == 0 else reversed(list(sides.items()))):
        for line in subprocess.run(command, check=True, capture_output=True, text=True).stdout.splitlines():
            figures = json.loads(line)
            results[side].setdefault(figures["payload_bytes"], []).append(figures["pushes_per_cpu_second"])
for size in sorted(results["hearth"]):
    hearth, peer = statistics.median(results["hearth"][size]), statistics.median(results["peer"][size])
    print(json.dumps({"payload_bytes": size, "hearth_pushes_per_cpu_second": hearth, "peer_pushes_per_cpu_second": peer,
                      "ratio": round(hearth / peer, 2), "rounds": {side: results[side][size] for side in sides}}))
