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
import json
import os
import re
import shutil
import sqlite3
import sys
import tempfile
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

ALTERNATION = benchlib.Alternation()
SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "household-mix.lua")
BASE_URL = "https://hearth.bench"

HOME = """query Home { activeHousehold { id name emoji timeZone viewerMember { id role displayName }
  members(first: 20) { totalCount edges { node { id displayName kind role status isViewer } } } } }"""
SWITCHER = "query Switcher { households { id name emoji isActive } }"
CHECKLIST = """query Checklist($id: ID!) { household(id: $id) { onboarding { isComplete nextStep
  steps { step state isRequired } } } }"""
ECONOMY = """query Economy($id: ID!) { household(id: $id) { economy { currencyPerToken currencyCode earningsSplit } } }"""
RENAME = """mutation Rename($input: UpdateMemberInput!) { updateMember(input: $input) { member { id displayName } } }"""
TYPENAME = "{ __typename }"
# Access tokens outlive the run; password hashing cheap enough for the set-up's registrations.
SERVER_FLAGS = ("--access-log", "off", "--access-token-ttl", "1h", "--password-hash-cost", "10", "--public-base-url", BASE_URL)


class Client:
    """GraphQL over HTTP against the benchmark's server; any error stops the setup."""

    def __init__(self, hearth):
        self.hearth = hearth
        self.url = hearth.url("/graphql")

    def run(self, query, variables=None, token=None):
        return benchlib.graphql(self.url, query, variables, token)

    def mailed_token(self, address, page):
        """The token of the newest link to `page` in the mail outbox for `address`."""
        with sqlite3.connect(os.path.join(self.hearth.directory, "bench.sqlite")) as database:
            rows = database.execute(
                "SELECT text_body FROM mail_outbox WHERE EXISTS (SELECT 1 FROM json_each(recipients) WHERE value = ?) "
                "ORDER BY id DESC", (address,)).fetchall()
        for (body,) in rows:
            match = re.search(re.escape(f"{BASE_URL}/{page}?token=") + r"([A-Za-z0-9_-]+)", body)
            if match:
                return match.group(1)
        raise RuntimeError(f"no {page} link was mailed to {address}")

    def person(self, username):
        """Registers `username`, confirms the address from the mailed link, accepts the terms;
        returns the access token."""
        address = f"{username}@example.com"
        token = self.run(
            "mutation($input: RegisterInput!) { register(input: $input) { tokens { accessToken } } }",
            {"input": {"username": username, "email": address, "password": "a long bench password"}},
        )["register"]["tokens"]["accessToken"]
        self.run("mutation($input: ConfirmEmailInput!) { confirmEmail(input: $input) { user { id } } }",
                 {"input": {"token": self.mailed_token(address, "confirm-email")}})
        version = self.run("{ terms { currentVersion } }", token=token)["terms"]["currentVersion"]
        self.run("mutation($input: AcceptTermsInput!) { acceptTerms(input: $input) { terms { isAcceptanceRequired } } }",
                 {"input": {"version": version}}, token)
        return token

    def join(self, admin, household, username, kind, role):
        """Invites `username` into `household` and accepts with the invitation token."""
        token = self.person(username)
        invite = self.run(
            "mutation($input: InviteMemberInput!) { inviteMember(input: $input) { inviteToken } }",
            {"input": {"householdId": household, "email": f"{username}@example.com", "kind": kind, "role": role}}, admin)
        self.run("mutation($input: AcceptInvitationInput!) { acceptInvitation(input: $input) { member { id } } }",
                 {"input": {"invitation": {"token": invite["inviteMember"]["inviteToken"]}}}, token)
        return token


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


def body(query, variables=None):
    return json.dumps({"query": query, "variables": variables or {}}, ensure_ascii=False)


def request_files(directory, admins, members, household, shadow):
    """Writes the mix and the baseline as wrk request files; returns their paths and the mix."""
    mix = []
    for token in admins + members:
        reads = [body(HOME)] * 5 + [body(SWITCHER)] * 2 + [body(CHECKLIST, {"id": household}), body(ECONOMY, {"id": household})]
        write = body(RENAME, {"input": {"memberId": shadow, "displayName": "Hugo {n}"}}) if token in admins else body(HOME)
        mix += [(token, entry) for entry in reads[:5] + [write] + reads[5:]]
    paths = []
    for name, entries in (("mix", mix), ("typename", [(token, body(TYPENAME)) for token, _ in mix])):
        path = os.path.join(directory, f"{name}.requests")
        with open(path, "w", encoding="utf-8") as file:
            file.writelines(f"{token}\t{entry}\n" for token, entry in entries)
        paths.append(path)
    return paths, mix


def operation_name(entry):
    """The name of the operation a request body sends (`Home`, `Rename`, ...)."""
    match = re.match(r"\s*(?:query|mutation)\s+(\w+)", json.loads(entry)["query"])
    return match.group(1) if match else TYPENAME


def statement_counters(hearth):
    """The server's (statements executed, statements compiled) so far, over every connection."""
    with urllib.request.urlopen(hearth.url("/metrics"), timeout=30) as response:
        text = response.read().decode()
    def total(name):
        return sum(float(value) for value in re.findall(rf"^{name}{{[^}}]*}} (\S+)$", text, re.MULTILINE))
    return total("hearth_db_statements_total"), total("hearth_db_statements_prepared_total")


def send(client, token, entry, tag):
    """Sends one request of a request file, `{n}` replaced by `tag`."""
    request = json.loads(entry.replace("{n}", tag))
    client.run(request["query"], request["variables"], token)


def per_kind(client, mix, measure, repeat=10):
    """For each kind of request of the mix, the mix itself in order, and the baseline: sends it
    once unmeasured (so caches a write emptied fill again), then `repeat` times, one at a time,
    between `measure()` calls; returns [(kind, what measure's counters rose by per request)] and
    the mix's weight of each kind."""
    kinds = {"the mix": mix}
    for token, entry in mix + [(mix[0][0], body(TYPENAME))]:
        kinds.setdefault(operation_name(entry), [(token, entry)])
    figures = []
    for name, entries in kinds.items():
        for sent in range(len(entries)):
            send(client, *entries[sent], f"w{sent}")
        before = measure()
        for sent in range(repeat):
            send(client, *entries[sent % len(entries)], f"s{sent}")
        figures.append((name, [(after - first) / repeat for after, first in zip(measure(), before)]))
    return figures


def statements_per_request(hearth, client, mix):
    """Prints the SQL statements the server executed and compiled per request of each kind."""
    repeat = len(mix)
    before = statement_counters(hearth)
    scrape = [after - first for after, first in zip(statement_counters(hearth), before)]  # what a scrape itself reads
    figures = per_kind(client, mix, lambda: statement_counters(hearth), repeat=repeat)
    print("SQL statements per request (prepared): " + ", ".join(
        f"{name} {executed - scrape[0] / repeat:.1f} ({prepared - scrape[1] / repeat:.1f})" for name, (executed, prepared) in figures),
        flush=True)


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
