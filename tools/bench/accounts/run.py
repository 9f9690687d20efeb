"""Authenticated GraphQL benchmark (issue 5): POST {"query":"{ me { id displayName } }"} with a
valid `Authorization: Bearer` access token against POST {"query":"{ __typename }"} on the same
server in the same run. The goal: at least 80% of the `__typename` rate, so verifying the token
(HS256 JWT, session generation from the in-memory session directory) and resolving the signed-in
user must stay cheap.

wrk only counts HTTP errors and a refused token still answers 200 with an error, so the script
checks before and after the measurement that the token still resolves `me` without errors.

The two loads alternate, BENCH_ROUNDS times each (default 3); the figures are the medians of
the rounds, with the server's CPU time per request (user + system, from /proc) beside them.

Run with `make bench` (or `.venv/bin/python tools/bench/accounts/run.py` after `make release`).
Options through the environment: BENCH_SECONDS (default 5, per wrk run), BENCH_ROUNDS (3),
BENCH_CONNECTIONS (64)."""
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

SECONDS = int(os.environ.get("BENCH_SECONDS", "5"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
CONNECTIONS = int(os.environ.get("BENCH_CONNECTIONS", "64"))
HERE = os.path.dirname(os.path.abspath(__file__))
ME_SCRIPT = os.path.join(HERE, "post-me.lua")
TYPENAME_SCRIPT = os.path.join(HERE, "..", "graphql-http", "post-typename.lua")
REGISTER = """mutation($input: RegisterInput!) { register(input: $input) { tokens { accessToken } } }"""


def post(url, query, variables=None, token=None):
    body = json.dumps({"query": query, "variables": variables or {}}).encode()
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = "Bearer " + token
    with urllib.request.urlopen(urllib.request.Request(url, data=body, headers=headers), timeout=30) as response:
        return json.load(response)


def check_me(url, token):
    answer = post(url, "{ me { id displayName } }", token=token)
    if answer.get("errors") or not answer.get("data", {}).get("me"):
        raise RuntimeError(f"the token does not resolve me: {answer}")


def main():
    hearth = benchlib.Hearth("--access-log", "off", "--access-token-ttl", "1h")
    try:
        url = hearth.url("/graphql")
        registered = post(url, REGISTER, {"input": {
            "username": "bench", "email": "bench@example.com", "password": "a long bench password"}})
        token = registered["data"]["register"]["tokens"]["accessToken"]
        check_me(url, token)
        os.environ["HEARTH_TOKEN"] = token
        benchlib.wrk(url, connections=CONNECTIONS, seconds=1, script=ME_SCRIPT)  # warm-up
        benchlib.wrk(url, connections=CONNECTIONS, seconds=1, script=TYPENAME_SCRIPT)
        medians, rates = benchlib.alternate(hearth.process.pid, {
            "me": (url, ME_SCRIPT),
            "typename": (url, TYPENAME_SCRIPT),
        }, rounds=ROUNDS, connections=CONNECTIONS, seconds=SECONDS)
        check_me(url, token)
    finally:
        hearth.stop()
    (me, me_p99, me_cpu), (typename, typename_p99, typename_cpu) = medians["me"], medians["typename"]
    print(f"# wrk -t2 -c{CONNECTIONS} -d{SECONDS}s --latency, keep-alive, loopback, {ROUNDS} alternating rounds (medians)")
    benchlib.report("POST { me { id displayName } } with a Bearer token vs POST { __typename } (req/s)",
                    me, typename, "req/s", goal=0.8)
    print("per round: " + ", ".join(f"{m / t:.2f}" for m, t in zip(rates["me"], rates["typename"])))
    print(f"p99 latency: me {me_p99:.2f} ms, __typename {typename_p99:.2f} ms")
    print(f"server CPU per request: me {me_cpu:.1f} us, __typename {typename_cpu:.1f} us", flush=True)


if __name__ == "__main__":
    main()
