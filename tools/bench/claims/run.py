"""Claim race benchmark (issue 15, FR-52): 64 simultaneous `claimChore` calls on one instance, from 64
sessions spread over the household's eligible members (8 adults, 8 sessions each), run on 1,000 instances
one after another; every instance must have exactly one winner, every other claim `CONFLICT`
(`ALREADY_CLAIMED`), and the database exactly one `chore_instance.claimed` record per instance. Prints the
time the races took (each race's time from the first claim sent to the last answer, p50/p99) and the
server's CPU time per claim, against 64 simultaneous signed-in `{ __typename }` requests from the same
sessions (the bare transport), in alternating blocks on the same server.

The instances are the next days' of daily `SINGLE_ACTION` chores (every adult may claim them): the first
ones planned by the scheduler, the later ones written by their claim. Each session is a keep-alive
connection of its own; a race writes all 64 requests at once (asyncio), then reads the 64 answers.

Run with `make bench`, or `.venv/bin/python tools/bench/claims/run.py` after `make release`. Environment:
BENCH_CLAIM_RACES (1000), BENCH_CLAIM_SESSIONS (64), BENCH_ROUNDS (3 alternating blocks). Bounded: the
races are counted, and each answer is awaited at most 30 s."""
import asyncio
import json
import math
import os
import sqlite3
import statistics
import sys
import time
from datetime import datetime, timedelta, timezone

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402
import signedin  # noqa: E402
from signedin import BASE_URL, TYPENAME, instance_id  # noqa: E402

RACES = int(os.environ.get("BENCH_CLAIM_RACES", "1000"))
SESSIONS = int(os.environ.get("BENCH_CLAIM_SESSIONS", "64"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
MEMBERS = 8
CHORES = 10
# Setting up the members from one address sends more email than `--mail-requests-per-address`'s default allows.
SERVER_FLAGS = ("--access-log", "off", "--password-hash-cost", "10", "--public-base-url", BASE_URL,
                "--mail-requests-per-address", "1000000", "--access-token-ttl", "1h")
CLAIM = "mutation($input: ClaimChoreInput!) { claimChore(input: $input) { claimant { id } } }"


class Session:
    """One signed-in device: a keep-alive HTTP/1.1 connection and its access token."""

    def __init__(self, token, member):
        self.token, self.member = token, member

    async def connect(self, port):
        self.reader, self.writer = await asyncio.open_connection("127.0.0.1", port)

    def send(self, query, variables=None):
        payload = json.dumps({"query": query, "variables": variables or {}}).encode()
        self.writer.write(b"POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                          b"Authorization: Bearer %s\r\nContent-Length: %d\r\n\r\n%s" % (self.token.encode(), len(payload), payload))

    async def answer(self):
        """The next response's JSON; fails on a status other than 200."""
        head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), 30)
        if not head.startswith(b"HTTP/1.1 200"):
            raise RuntimeError(f"answer: {head!r}")
        length = next(int(line.split(b":")[1]) for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:"))
        return json.loads(await asyncio.wait_for(self.reader.readexactly(length), 30))

    def close(self):
        self.writer.close()


async def race(sessions, instance):
    """64 claims of `instance` at once; returns (the winners' member ids, seconds from the first send to the last answer)."""
    started = time.monotonic()
    for session in sessions:
        session.send(CLAIM, {"input": {"instanceId": instance}})
    answers = await asyncio.gather(*(session.answer() for session in sessions))
    elapsed = time.monotonic() - started
    winners = []
    for session, answer in zip(sessions, answers):
        if "errors" not in answer:
            winners.append(answer["data"]["claimChore"]["claimant"]["id"])
            continue
        extensions = answer["errors"][0].get("extensions", {})
        if (extensions.get("code"), extensions.get("reason")) != ("CONFLICT", "ALREADY_CLAIMED"):
            raise RuntimeError(f"claim of {instance} by {session.member}: {answer['errors']}")
    return winners, elapsed


async def transport(sessions):
    """64 `{ __typename }` at once from the same sessions: the baseline."""
    for session in sessions:
        session.send(TYPENAME)
    for answer in await asyncio.gather(*(session.answer() for session in sessions)):
        if answer.get("data") != {"__typename": "Query"}:
            raise RuntimeError(f"__typename: {answer}")


def set_up(client):
    """The household (8 adults), SESSIONS signed-in sessions spread over them, and RACES instances to claim."""
    names = [f"adult{index}" for index in range(MEMBERS)]
    first = {name: client.person(name) for name in names}
    admin = first[names[0]]
    household = client.run("mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id } } }",
                           {"input": {"name": "Racers"}}, admin)["createHousehold"]["household"]["id"]
    for name in names[1:]:
        client.invite(admin, household, name, first[name])
    sessions = [Session(first[names[index]], names[index]) if index < MEMBERS else Session(client.login(names[index % MEMBERS]), names[index % MEMBERS])
                for index in range(SESSIONS)]
    start = datetime.now(timezone.utc).replace(hour=9, minute=0, second=0, microsecond=0) + timedelta(days=1)
    days = math.ceil(RACES / CHORES)
    chores = [client.run(
        "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }",
        {"input": {"householdId": household, "title": f"Bins {number}", "assignmentMode": "SINGLE_ACTION",
                   "schedule": {"recurrence": f"DTSTART:{start.strftime('%Y%m%dT%H%M%SZ')}\nRRULE:FREQ=DAILY"}}}, admin,
    )["createChore"]["chore"]["id"] for number in range(CHORES)]
    instances = [instance_id(chore, start + timedelta(days=day)) for day in range(days) for chore in chores][:RACES]
    return sessions, instances


async def measure(hearth, sessions, instances):
    for session in sessions:
        await session.connect(hearth.port)
    blocks = [instances[index::ROUNDS] for index in range(ROUNDS)]
    winners, durations, claim_cpu, transport_cpu = {}, [], [], []
    started = time.monotonic()
    for block in blocks:
        before = benchlib.cpu_seconds(hearth.process.pid)
        for instance in block:
            winners[instance], elapsed = await race(sessions, instance)
            durations.append(elapsed)
        claim_cpu.append((benchlib.cpu_seconds(hearth.process.pid) - before) * 1e6 / (len(block) * len(sessions)))
        before = benchlib.cpu_seconds(hearth.process.pid)
        for _ in block:
            await transport(sessions)
        transport_cpu.append((benchlib.cpu_seconds(hearth.process.pid) - before) * 1e6 / (len(block) * len(sessions)))
    races_seconds = sum(durations)
    total_seconds = time.monotonic() - started
    for session in sessions:
        session.close()
    return winners, durations, claim_cpu, transport_cpu, races_seconds, total_seconds


def main():
    print(f"# load average {os.getloadavg()[0]:.1f}; {RACES} races of {SESSIONS} claims over {MEMBERS} members' sessions, "
          f"{ROUNDS} alternating blocks", flush=True)
    hearth = benchlib.Hearth(*SERVER_FLAGS)
    try:
        sessions, instances = set_up(signedin.Client(hearth))
        winners, durations, claim_cpu, transport_cpu, races_seconds, total_seconds = asyncio.run(measure(hearth, sessions, instances))
        with sqlite3.connect(f"file:{hearth.database}?mode=ro", uri=True) as database:
            records = database.execute("SELECT count(*) FROM change_log WHERE kind = 'chore_instance.claimed'").fetchone()[0]
            claimed = database.execute("SELECT count(*) FROM chore_instances WHERE claimant_id IS NOT NULL").fetchone()[0]
    finally:
        hearth.stop()
    wrong = {instance: found for instance, found in winners.items() if len(found) != 1}
    ordered = sorted(durations)
    print(f"races: {len(winners)}, claims: {len(winners) * len(sessions)}, instances with exactly one winner: {len(winners) - len(wrong)}, "
          f"double wins: {sum(1 for found in wrong.values() if len(found) > 1)}, no winner: {sum(1 for found in wrong.values() if not found)}")
    print(f"claimed records in the change log: {records}, claimed instances in the database: {claimed} (expected {len(winners)} each)")
    print(f"time: {races_seconds:.1f} s in races ({total_seconds:.1f} s with the baseline); one race (64 claims) "
          f"p50 {ordered[len(ordered) // 2] * 1000:.1f} ms, p99 {ordered[max(math.ceil(0.99 * len(ordered)), 1) - 1] * 1000:.1f} ms")
    print("per block, server CPU per request (us), claim / __typename: "
          + ", ".join(f"{c:.0f} / {t:.0f}" for c, t in zip(claim_cpu, transport_cpu)))
    ours, theirs = statistics.median(claim_cpu), statistics.median(transport_cpu)
    print(f"server CPU per claim (median): {ours:.0f} us, per race {ours * len(sessions) / 1000:.1f} ms; "
          f"__typename {theirs:.0f} us; ratio {ours / theirs:.1f}", flush=True)
    if wrong or records != len(winners) or claimed != len(winners):
        sys.exit(f"FAILED: {len(wrong)} instances without exactly one winner, e.g. {list(wrong.items())[:3]}")


if __name__ == "__main__":
    main()
