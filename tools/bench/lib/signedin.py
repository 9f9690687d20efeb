"""Signed-in GraphQL loads against the real server, shared by tools/bench/households and
tools/bench/chores: people set up through the API as they do it (registration, the emailed
confirmation link, terms, invitations), wrk request files of "<access token>\\t<JSON body>" lines
(played by households/household-mix.lua), and the SQL statements the server executes per request,
read from `/metrics`."""
import hashlib
import json
import os
import re
import sqlite3
import subprocess
import urllib.request
import uuid
from datetime import datetime, timedelta, timezone

import benchlib

BASE_URL = "https://hearth.bench"
TYPENAME = "{ __typename }"
# wrk's script: cycles through a request file, counts responses carrying GraphQL errors.
MIX_SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "households", "household-mix.lua")
PASSWORD = "a long bench password"
BATCH = 100  # --max-sync-batch-entries' default
SYNC_BATCH = "mutation($input: SyncBatchInput!) { syncBatch(input: $input) { results { index isSuccess response } } }"
CREATE_CHORE = "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }"


class Client:
    """GraphQL over HTTP against the benchmark's server; any error stops the setup."""

    def __init__(self, hearth):
        self.hearth = hearth
        self.url = hearth.url("/graphql")

    def run(self, query, variables=None, token=None):
        return benchlib.graphql(self.url, query, variables, token)

    def mailed_token(self, address, page):
        """The token of the newest link to `page` in the mail outbox for `address` (a SQLite file
        or, for a `postgres://` database, read with `psql`)."""
        if self.hearth.database.startswith(("postgres://", "postgresql://")):
            rows = [(subprocess.run(
                ["psql", self.hearth.database, "-At", "-v", f"address={address}"],  # variables: from standard input only
                input="SELECT text_body FROM mail_outbox WHERE recipients::jsonb ? :'address' ORDER BY id DESC LIMIT 1;",
                capture_output=True, text=True, check=True).stdout,)]
        else:
            with sqlite3.connect(self.hearth.database) as database:
                rows = database.execute(
                    "SELECT text_body FROM mail_outbox WHERE EXISTS (SELECT 1 FROM json_each(recipients) WHERE value = ?) "
                    "ORDER BY id DESC", (address,)).fetchall()
        for (body,) in rows:
            match = re.search(re.escape(f"{BASE_URL}/{page}?token=") + r"([A-Za-z0-9_-]+)", body)
            if match:
                return match.group(1)
        raise RuntimeError(f"no {page} link was mailed to {address}")

    def person(self, username, tokens=False):
        """Registers `username`, confirms the address from the mailed link, accepts the terms;
        returns the access token, or with `tokens` the access and refresh tokens."""
        address = f"{username}@example.com"
        issued = self.run(
            "mutation($input: RegisterInput!) { register(input: $input) { tokens { accessToken refreshToken } } }",
            {"input": {"username": username, "email": address, "password": PASSWORD}},
        )["register"]["tokens"]
        token = issued["accessToken"]
        self.run("mutation($input: ConfirmEmailInput!) { confirmEmail(input: $input) { user { id } } }",
                 {"input": {"token": self.mailed_token(address, "confirm-email")}})
        version = self.run("{ terms { currentVersion } }", token=token)["terms"]["currentVersion"]
        self.run("mutation($input: AcceptTermsInput!) { acceptTerms(input: $input) { terms { isAcceptanceRequired } } }",
                 {"input": {"version": version}}, token)
        return (token, issued["refreshToken"]) if tokens else token

    def join(self, admin, household, username, kind, role, tokens=False):
        """Registers `username` (see ``person``) and has them join `household` (see ``invite``)."""
        issued = self.person(username, tokens)
        self.invite(admin, household, username, issued[0] if tokens else issued, kind, role)
        return issued

    def household(self, admin, name, members):
        """A household of `admin` that every one of `members` ([(username, token)]) joins; returns its id."""
        household_id = self.run("mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id } } }",
                                {"input": {"name": name}}, admin)["createHousehold"]["household"]["id"]
        for username, token in members:
            self.invite(admin, household_id, username, token)
        return household_id

    def invite(self, admin, household, username, token, kind=None, role="MEMBER"):
        """Invites `username` (signed in with `token`) into `household` as `admin` does, and accepts
        with the invitation token; returns their member id."""
        invitation = {"householdId": household, "email": f"{username}@example.com", "role": role}
        if kind:
            invitation["kind"] = kind
        invite = self.run("mutation($input: InviteMemberInput!) { inviteMember(input: $input) { inviteToken } }",
                          {"input": invitation}, admin)
        return self.run("mutation($input: AcceptInvitationInput!) { acceptInvitation(input: $input) { member { id } } }",
                        {"input": {"invitation": {"token": invite["inviteMember"]["inviteToken"]}}}, token)["acceptInvitation"]["member"]["id"]

    def login(self, username):
        """Signs `username` in with the bench password; returns the access token."""
        return self.run(
            "mutation($input: LoginInput!) { login(input: $input) { tokens { accessToken } } }",
            {"input": {"email": f"{username}@example.com", "password": PASSWORD}})["login"]["tokens"]["accessToken"]


def body(query, variables=None):
    """A request's JSON body."""
    return json.dumps({"query": query, "variables": variables or {}}, ensure_ascii=False)


def write_requests(path, entries):
    """Writes [(access token, JSON body)] as a request file for MIX_SCRIPT; returns `path`."""
    with open(path, "w", encoding="utf-8") as file:
        file.writelines(f"{token}\t{entry}\n" for token, entry in entries)
    return path


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


def failed_operations(hearth):
    """The GraphQL operations the server has answered with field errors or rejected so far
    (`hearth_graphql_operations_total`): how a load whose responses wrk does not read (compressed
    ones) is checked."""
    with urllib.request.urlopen(hearth.url("/metrics"), timeout=30) as response:
        text = response.read().decode()
    return sum(float(value) for value in re.findall(
        r'^hearth_graphql_operations_total\{[^}]*outcome="(?:field_errors|rejected)"[^}]*\} (\S+)$', text, re.MULTILINE))


def statements_per_request(hearth, client, mix):
    """Prints the SQL statements the server executed and compiled per request of each kind."""
    repeat = len(mix)
    before = statement_counters(hearth)
    scrape = [after - first for after, first in zip(statement_counters(hearth), before)]  # what a scrape itself reads
    figures = per_kind(client, mix, lambda: statement_counters(hearth), repeat=repeat)
    print("SQL statements per request (prepared): " + ", ".join(
        f"{name} {executed - scrape[0] / repeat:.1f} ({prepared - scrape[1] / repeat:.1f})" for name, (executed, prepared) in figures),
        flush=True)


def entry(operation, fields):
    """One `syncBatch` entry: `operation` with `input` = `fields`."""
    return {"operation": operation, "variables": {"input": fields}}


def send_batches(client, token, entries):
    """Sends `entries` through `syncBatch`, BATCH at a time (the path a phone coming back online
    takes); fails on any entry that failed."""
    for start in range(0, len(entries), BATCH):
        results = client.run(SYNC_BATCH, {"input": {"mutations": entries[start:start + BATCH]}}, token)["syncBatch"]["results"]
        failed = [result for result in results if not result["isSuccess"]]
        if failed:
            raise RuntimeError(f"syncBatch entry failed: {failed[0]}")


def daily_chore(household_id, start, title="Bins", chore_id=None):
    """The `createChore` input of a daily `SINGLE_ACTION` chore (every adult may complete it) from `start`,
    with the client-made id `chore_id` when given."""
    recurrence = f"DTSTART:{start.strftime('%Y%m%dT%H%M%SZ')}\nRRULE:FREQ=DAILY"
    fields = {"householdId": household_id, "title": title, "assignmentMode": "SINGLE_ACTION", "tokens": 1,
              "schedule": {"recurrence": recurrence}}
    return {"id": chore_id, **fields} if chore_id else fields


def next_nine_utc():
    """Tomorrow at 09:00 UTC: a daily chore created now with this start has every occurrence planned
    (one earlier today than the chore's creation is not, so it cannot be completed)."""
    return datetime.now(timezone.utc).replace(hour=9, minute=0, second=0, microsecond=0) + timedelta(days=1)


def instance_id(chore_id, occurrence, member_id=None):
    """ChoreInstance.id as the schema documents it (ChoreInstanceID in HearthDomain)."""
    milliseconds = round(occurrence.timestamp() * 1000)
    d = hashlib.sha256(f"{chore_id}|{milliseconds}|{member_id or ''}".encode()).digest()
    b = max(milliseconds, 0).to_bytes(6, "big") + bytes([0x80 | d[0] & 0x0F, d[1], 0x80 | d[2] & 0x3F]) + d[3:10]
    return "chi_" + str(uuid.UUID(bytes=b))
