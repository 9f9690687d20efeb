"""Household workload benchmark (docs/benchmarks.md: "domain operations ... a realistic household
workload, reported as throughput and p99 beside the cost of the bare transport in the same run").

One household of eight members: the creator (admin), a co-parent (admin), two adults who joined
by invitation, two teenagers and two shadow members, set up through the API as people do it
(registration, emailed confirmation link, terms, invitations accepted by token). The four adults
then use the app at once: each request is signed in as one of them and is, in a cycle of ten,

- the home screen five times: the active household with its members (a Relay connection),
- the household switcher twice: `households { id name emoji isActive }`,
- the setup checklist once and the economy settings once (`household(id:)`),
- and, for the two admins, one write (renaming a shadow member: a commit, which also empties
  the commit-scoped caches every signed-in request reads); the other two read the home screen
  instead. About 5 % of the requests write.

The baseline is `{ __typename }` sent with the same access tokens: the cost of HTTP, the
GraphQL pipeline and authentication without any household work. The two loads alternate,
BENCH_ROUNDS times each; the figures are the medians, with the server's CPU time per request.
wrk's Lua script counts responses that carry GraphQL errors and the run fails on any.

Before the load, each kind of request (and the mix in order) is sent alone, one at a time, and
the SQL statements the server executed for it are read from `/metrics` (`hearth_db_statements_total`,
transaction control included, and `hearth_db_statements_prepared_total`): statements per request
do not depend on the machine's load, so they show a change in the read path even where the
timings are noise. `instructions.py` beside this file counts the server's instructions per
request the same way, under valgrind.

Run with `make bench` (or `.venv/bin/python tools/bench/households/run.py` after
`make release`). Options through the environment: BENCH_SECONDS (default 5, per wrk run),
BENCH_ROUNDS (3), BENCH_CONNECTIONS (64)."""
import os
import shutil
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402
from signedin import (BASE_URL, MIX_SCRIPT as SCRIPT, TYPENAME, Client, body, send,  # noqa: E402
                      statements_per_request, write_requests)

ALTERNATION = benchlib.Alternation()

HOME = """query Home { activeHousehold { id name emoji timeZone viewerMember { id role displayName }
  members(first: 20) { totalCount edges { node { id displayName kind role status isViewer } } } } }"""
SWITCHER = "query Switcher { households { id name emoji isActive } }"
CHECKLIST = """query Checklist($id: ID!) { household(id: $id) { onboarding { isComplete nextStep
  steps { step state isRequired } } } }"""
ECONOMY = """query Economy($id: ID!) { household(id: $id) { economy { currencyPerToken currencyCode earningsSplit } } }"""
RENAME = """mutation Rename($input: UpdateMemberInput!) { updateMember(input: $input) { member { id displayName } } }"""
# Access tokens outlive the run; password hashing cheap enough for the set-up's registrations.
SERVER_FLAGS = ("--access-log", "off", "--access-token-ttl", "1h", "--password-hash-cost", "10", "--public-base-url", BASE_URL)


def household_of_eight(client):
    """Sets up the household; returns (admin tokens, member tokens, household id, a shadow's member id)."""
    admin = client.person("ana")
    household = client.run(
        "mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id } } }",
        {"input": {"name": "Rua das Flores", "emoji": "\U0001F3E0", "timeZone": "Europe/Lisbon"}}, admin,
    )["createHousehold"]["household"]["id"]
    co_parent = client.join(admin, household, "bruno", "CO_PARENT", "ADMIN")
    adults = [client.join(admin, household, name, "PARENT", "MEMBER") for name in ("carla", "duarte")]
    shadow = None
    for kind, name, age in (("CHILD", "Eva", 14), ("CHILD", "Filipe", 16), ("SHADOW", "Avó Graça", 78), ("SHADOW", "Hugo", 15)):
        member = client.run(
            "mutation($input: AddMemberInput!) { addMember(input: $input) { member { id } } }",
            {"input": {"householdId": household, "kind": kind, "displayName": name, "age": age}}, admin,
        )["addMember"]["member"]["id"]
        shadow = shadow or (member if kind == "SHADOW" else None)
    return [admin, co_parent], adults, household, shadow


def request_files(directory, admins, members, household, shadow):
    """Writes the mix and the baseline as wrk request files; returns their paths and the mix."""
    mix = []
    for token in admins + members:
        reads = [body(HOME)] * 5 + [body(SWITCHER)] * 2 + [body(CHECKLIST, {"id": household}), body(ECONOMY, {"id": household})]
        write = body(RENAME, {"input": {"memberId": shadow, "displayName": "Hugo {n}"}}) if token in admins else body(HOME)
        mix += [(token, entry) for entry in reads[:5] + [write] + reads[5:]]
    paths = [write_requests(os.path.join(directory, f"{name}.requests"), entries)
             for name, entries in (("mix", mix), ("typename", [(token, body(TYPENAME)) for token, _ in mix]))]
    return paths, mix


def main():
    hearth = benchlib.Hearth(*SERVER_FLAGS)
    directory = tempfile.mkdtemp(prefix="hearth-households-bench-")
    try:
        client = Client(hearth)
        (mix_file, typename_file), mix = request_files(directory, *household_of_eight(client))
        for token, entry in mix:  # every request of the mix answers without errors before the load
            send(client, token, entry, "0")
        statements_per_request(hearth, client, mix)
        url = hearth.url("/graphql")
        benchlib.wrk(url, connections=ALTERNATION.connections, seconds=1, script=SCRIPT, script_args=[mix_file])  # warm-up
        writes = sum(1 for _, entry in mix if "updateMember" in entry)
        ALTERNATION.compare(
            hearth.process.pid, "household mix vs signed-in { __typename } (req/s)",
            ("household mix", url, SCRIPT, [mix_file]), ("{ __typename }", url, SCRIPT, [typename_file]),
            note=f"; 4 signed-in adults of one 8-member household, {100 * writes / len(mix):.0f}% writes")
    finally:
        hearth.stop()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
