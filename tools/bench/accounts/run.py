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
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

ALTERNATION = benchlib.Alternation()
HERE = os.path.dirname(os.path.abspath(__file__))
ME_SCRIPT = os.path.join(HERE, "post-me.lua")
TYPENAME_SCRIPT = os.path.join(HERE, "..", "graphql-http", "post-typename.lua")
REGISTER = """mutation($input: RegisterInput!) { register(input: $input) { tokens { accessToken } } }"""


def check_me(url, token):
    if not benchlib.graphql(url, "{ me { id displayName } }", token=token).get("me"):
        raise RuntimeError("the token does not resolve me")


def main():
    hearth = benchlib.Hearth("--access-log", "off", "--access-token-ttl", "1h")
    try:
        url = hearth.url("/graphql")
        token = benchlib.graphql(url, REGISTER, {"input": {
            "username": "bench", "email": "bench@example.com", "password": "a long bench password"}},
        )["register"]["tokens"]["accessToken"]
        check_me(url, token)
        os.environ["HEARTH_TOKEN"] = token
        benchlib.wrk(url, connections=ALTERNATION.connections, seconds=1, script=ME_SCRIPT)  # warm-up
        benchlib.wrk(url, connections=ALTERNATION.connections, seconds=1, script=TYPENAME_SCRIPT)
        ALTERNATION.compare(
            hearth.process.pid, "POST { me { id displayName } } with a Bearer token vs POST { __typename } (req/s)",
            ("me", url, ME_SCRIPT), ("__typename", url, TYPENAME_SCRIPT), goal=0.8)
        check_me(url, token)
    finally:
        hearth.stop()


if __name__ == "__main__":
    main()
