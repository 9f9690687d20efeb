"""Offline sync benchmark (issue 17): what a phone catching up costs, and what the live feed costs the server
per subscribed device and change. Two parts, on one release server with a temporary database.

1. **Catch-up.** A household of three (Ana, the admin, with Ben and Cara) and Ana's own habits. Ana's phone
   takes its cursor, then the household and Ana's other devices write through `syncBatch` (the path a phone
   coming back online takes, 100 mutations a request): 100 daily chores created, renamed and 10 deleted, the
   next 14 days of 20 of them completed by Ben and Cara in turn, habits (private and for followers), their
   events recorded, some commented afterwards, some deleted, and a habit deleted with its 50 events, until the change log holds BENCH_SYNC_CHANGES (10,000) rows
   in Ana's scopes after her cursor. Then, in alternating rounds, the phone catches up through
   `changes(since:, first:)` at each page size of BENCH_SYNC_PAGES (the default 100 and the largest, 500),
   each object selected as a phone stores it: wall time, requests, HTTP body bytes received, entries and the
   server's CPU time. Baselines in the same rounds: a full resync (`changes` without `since`) at the same page
   size (what the phone would pay without a cursor), and as many `{ __typename }` requests as the catch-up made
   (the transport's floor: 2,000 of them measured, scaled to the catch-up's count). Every catch-up must end
   with `hasMore` false and deliver the same objects at every page size and in every round, or the run fails.

2. **Per subscribed device per change.** For each count D of BENCH_SYNC_DEVICES (100 and 1,000), D
   graphql-transport-ws connections (tools/bench/ws/loadgen.c) in a household of BENCH_SYNC_MEMBERS (10)
   members subscribe to `syncDeltas(since:)` from the newest cursor, and D more, in a second household of as
   many other people, to `householdEvents(householdId:)` with the chore that changed (the nearest existing
   peer: the household's changes pushed as they commit). Each connection sends a document of its own (the
   operation's name carries its index): devices with cursors of their own do not share an execution, and the
   peer is held to the same rule. Each household's admin renames a chore (`updateChore`) BENCH_SYNC_WRITES
   (20) times per round; the sides alternate over BENCH_ROUNDS (3) rounds. Reported per side: the server's
   CPU time per change and per device (CPU over the writes / (D x writes)), SQL statements per change, and
   the delivery latency from the kernel receive timestamp of `updateChore`'s response to each device's frame
   (p50/p99 over every device and write) and to the last device's (p99 over the writes). Every device must
   receive exactly one frame per write (the load generator counts them), or the run fails.

Run with `make bench`, or `.venv/bin/python tools/bench/sync/run.py` after
`swift build -c release --product hearth` (HEARTH_BIN names another binary). Bounded: a few minutes on
the 2-core machine (seeding about a minute, the catch-up rounds about as long, each device count well under
a minute). Environment: BENCH_SYNC_CHANGES (10000), BENCH_SYNC_PAGES (100,500), BENCH_SYNC_DEVICES
(100,1000), BENCH_SYNC_MEMBERS (10), BENCH_SYNC_WRITES (20), BENCH_ROUNDS (3)."""
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
import uuid
from datetime import date, timedelta
from http.client import HTTPConnection

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402
import signedin  # noqa: E402
from fanout import LoadGenerator, build_loadgen, percentile, WARM_UPS  # noqa: E402
from signedin import BASE_URL, BATCH, CREATE_CHORE, body, daily_chore, entry, instance_id, next_nine_utc, send_batches  # noqa: E402

CHANGES = int(os.environ.get("BENCH_SYNC_CHANGES", "10000"))
PAGES = [int(size) for size in os.environ.get("BENCH_SYNC_PAGES", "100,500").split(",")]
DEVICES = [int(count) for count in os.environ.get("BENCH_SYNC_DEVICES", "100,1000").split(",")]
MEMBERS = int(os.environ.get("BENCH_SYNC_MEMBERS", "10"))
WRITES = int(os.environ.get("BENCH_SYNC_WRITES", "20"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
# `{ __typename }` requests of the transport's floor, scaled to each catch-up's count (the CPU clock ticks in 10 ms).
FLOOR_REQUESTS = 2000
SERVER_FLAGS = ("--access-log", "off", "--password-hash-cost", "10", "--public-base-url", BASE_URL,
                "--mail-requests-per-address", "1000000", "--access-token-ttl", "1h", "--ws-ping-interval", "0",
                "--heartbeat-interval", "1h")

# What a phone stores of each object it is sent.
NODE = """id
  ... on Household { name timeZone }
  ... on Member { displayName role memberStatus: status kind }
  ... on Chore { title description tokens choreStatus: status assignmentMode }
  ... on ChoreInstance { dueAt instanceStatus: status instanceCompletedAt: completedAt chore { id } member { id } }
  ... on ChoreCompletion { completedAt completionStatus: status isFinal instance { id } member { id } }
  ... on Habit { title reason startsOn plan visibility updatedAt }
  ... on HabitEvent { occurredOn comment updatedAt habit { id } }"""
CHANGES_QUERY = ("query CatchUp($since: String, $first: Int) { changes(since: $since, first: $first) { "
                 f"endCursor hasMore changes {{ cursor operation id typename node {{ {NODE} }} }} }} }}")
UPDATE_CHORE = "mutation($input: UpdateChoreInput!) { updateChore(input: $input) { chore { id title } } }"
DELETE_CHORE = "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { clientMutationId } }"
COMPLETE = "mutation($input: CompleteChoreInput!) { completeChore(input: $input) { outcome } }"
CREATE_HABIT = "mutation($input: CreateHabitInput!) { createHabit(input: $input) { habit { id } } }"
DELETE_HABIT = "mutation($input: DeleteHabitInput!) { deleteHabit(input: $input) { clientMutationId } }"
RECORD = "mutation($input: RecordHabitEventInput!) { recordHabitEvent(input: $input) { habitEvent { id } } }"
COMMENT = "mutation($input: UpdateHabitEventInput!) { updateHabitEvent(input: $input) { habitEvent { id } } }"
DELETE_EVENT = "mutation($input: DeleteHabitEventInput!) { deleteHabitEvent(input: $input) { clientMutationId } }"


def client_id(prefix):
    """An id made offline, in the global id form (`<prefix>_<uuid>`)."""
    return f"{prefix}_{uuid.uuid4()}"


class Pull:
    """GraphQL requests over one keep-alive connection, counting requests and response body bytes."""

    def __init__(self, hearth, token):
        self.connection = HTTPConnection("127.0.0.1", hearth.port, timeout=60)
        self.headers = {"Content-Type": "application/json", "Authorization": "Bearer " + token}
        self.requests = 0
        self.bytes = 0

    def run(self, query, variables=None):
        """Sends one request; returns its `data`, and fails on any error."""
        self.connection.request("POST", "/graphql", body(query, variables), self.headers)
        response = self.connection.getresponse()
        data = response.read()
        self.requests += 1
        self.bytes += len(data)
        answer = json.loads(data)
        if response.status != 200 or answer.get("errors"):
            raise RuntimeError(f"request failed: {response.status} {data[:300]!r}")
        return answer["data"]

    def follow(self, since, first):
        """Pages through `changes` from `since` until `hasMore` is false; returns ({id: last operation},
        the entries delivered, the end cursor)."""
        objects = {}
        delivered = 0
        while True:
            page = self.run(CHANGES_QUERY, {"since": since, "first": first})["changes"]
            objects.update((change["id"], change["operation"]) for change in page["changes"])
            delivered += len(page["changes"])
            since = page["endCursor"]
            if not page["hasMore"]:
                return objects, delivered, since

    def close(self):
        """Closes the connection."""
        self.connection.close()


class CatchUpSeed:
    """Part 1's people and history (see the module's text)."""

    def __init__(self, hearth, client):
        self.hearth = hearth
        self.client = client
        self.ana = client.person("ana")
        self.ben = client.person("ben")
        self.cara = client.person("cara")
        self.household = client.household(self.ana, "Home", [("ben", self.ben), ("cara", self.cara)])
        self.ana_id = client.run("{ me { id } }", token=self.ana)["me"]["id"]
        self.cursor = newest_cursor(hearth, self.ana)

    def rows_behind(self):
        """Change-log rows in Ana's scopes (the household's, hers, her followers') after her cursor."""
        # Topics name a household or user by its id, or by the UUID of it.
        topics = [f"household:%{self.household.split('_')[-1]}", f"user:%{self.ana_id.split('_')[-1]}",
                  f"followers:%{self.ana_id.split('_')[-1]}"]
        with sqlite3.connect(f"file:{self.hearth.database}?mode=ro", uri=True) as database:
            return database.execute(
                "SELECT count(*) FROM change_log WHERE sequence > ? AND (topic LIKE ? OR topic LIKE ? OR topic LIKE ?)",
                [int(self.cursor), *topics]).fetchone()[0]

    def write(self):
        """Writes the history; returns the change-log rows behind Ana's cursor."""
        if self.rows_behind() != 0 or not self.cursor.isdigit():
            raise RuntimeError(f"the log's topics are not what this benchmark reads (cursor {self.cursor!r})")
        start = next_nine_utc()
        chores = [client_id("chr") for _ in range(100)]
        entries = [entry(CREATE_CHORE, daily_chore(self.household, start, f"Chore {n}", chore)) for n, chore in enumerate(chores)]
        entries += [entry(UPDATE_CHORE, {"choreId": chores[n % len(chores)], "title": f"Chore {n} renamed"}) for n in range(200)]
        entries += [entry(DELETE_CHORE, {"choreId": chore}) for chore in chores[-10:]]
        send_batches(self.client, self.ana, entries)  # from her other device: only admins create chores here
        # The next 14 days of 20 chores (the planned instances), completed by Ben and Cara in turn.
        instances = [instance_id(chore, start + timedelta(days=day)) for chore in chores[:20] for day in range(14)]
        for turn, token in enumerate((self.ben, self.cara)):
            send_batches(self.client, token, [entry(COMPLETE, {"instanceId": instance}) for instance in instances[turn::2]])
        habits = [client_id("hab") for _ in range(10)]
        send_batches(self.client, self.ana, [entry(CREATE_HABIT, {
            "id": habit, "title": f"Habit {n}", "startsOn": "2026-01-01", "plan": ["MONDAY", "WEDNESDAY", "FRIDAY"],
            "visibility": "FOLLOWERS" if n % 2 else "PRIVATE"}) for n, habit in enumerate(habits)])
        self.abandoned(habits[-1])
        events = []
        day = date(2026, 1, 1)
        while self.rows_behind() < CHANGES:
            batch = []
            for n in range(min(BATCH - 8, CHANGES - self.rows_behind())):
                event = client_id("hev")
                events.append(event)
                batch.append(entry(RECORD, {"id": event, "habitId": habits[n % (len(habits) - 1)],
                                            "occurredOn": (day + timedelta(days=len(events) % 330)).isoformat()}))
            # Some earlier events commented, some deleted (each a change of its own).
            batch += [entry(COMMENT, {"habitEventId": events[-n * 7], "comment": "felt good"}) for n in range(1, 6)]
            batch += [entry(DELETE_EVENT, {"habitEventId": events.pop(-n * 11)}) for n in range(1, 4)]
            send_batches(self.client, self.ana, batch)
        return self.rows_behind()

    def abandoned(self, habit):
        """A habit with 50 events, deleted: one change that removes 51 objects (a tombstone each)."""
        send_batches(self.client, self.ana, [entry(RECORD, {"id": client_id("hev"), "habitId": habit,
                                                            "occurredOn": (date(2026, 1, 1) + timedelta(days=n)).isoformat()})
                                             for n in range(50)] + [entry(DELETE_HABIT, {"habitId": habit})])


class Side:
    """One side of part 1: how it pulls, and what each round measured."""

    def __init__(self, label, run):
        self.label = label
        self.run = run
        self.samples = []  # (wall s, server CPU s, requests, bytes, entries)

    def measure(self, hearth, token):
        """One round: pulls over a new connection signed in with `token`, timing it and the server's CPU."""
        pull = Pull(hearth, token)
        cpu = benchlib.cpu_seconds(hearth.process.pid)
        started = time.monotonic()
        entries = self.run(pull)
        wall = time.monotonic() - started
        self.samples.append((wall, benchlib.cpu_seconds(hearth.process.pid) - cpu, pull.requests, pull.bytes, entries))
        pull.close()

    def medians(self):
        """(wall s, server CPU s, requests, bytes, entries), each the median over the rounds."""
        return [statistics.median(column) for column in zip(*self.samples)]

    def line(self):
        """The side's figures, printed one line per side."""
        wall, cpu, requests, received, entries = self.medians()
        per_entry = f", {cpu * 1e6 / entries:.0f} us per entry" if entries else ""
        return (f"{self.label}: {requests:,.0f} requests, {entries:,.0f} entries, {received / 1e6:.2f} MB received; "
                f"wall {wall * 1e3:,.0f} ms, server CPU {cpu * 1e3:,.0f} ms{per_entry}")


def catch_up(hearth, client):
    """Part 1 (see the module's text): seeds the history, then measures and prints the sides."""
    print("## catch-up", flush=True)
    seed = CatchUpSeed(hearth, client)
    started = time.monotonic()
    behind = seed.write()
    print(f"# seeded in {time.monotonic() - started:.0f} s: Ana's cursor {seed.cursor} is {behind:,} change-log rows behind", flush=True)
    expected = {}

    def catching_up(first):
        def run(pull):
            objects, delivered, _ = pull.follow(seed.cursor, first)
            if expected.setdefault("catch-up", objects) != objects:
                raise RuntimeError(f"catching up at first={first} delivered other objects than before")
            return delivered
        return run

    def resyncing(first):
        return lambda pull: pull.follow(None, first)[1]

    def transport_floor(pull):
        for _ in range(FLOOR_REQUESTS):
            pull.run("{ __typename }")
        return 0

    pairs = [(Side(f"catch-up first={first}", catching_up(first)), Side(f"full resync first={first}", resyncing(first))) for first in PAGES]
    floor = Side(f"{{ __typename }} x {FLOOR_REQUESTS}", transport_floor)
    sides = [*(side for pair in pairs for side in pair), floor]
    for _ in range(ROUNDS):
        for side in sides:
            side.measure(hearth, seed.ana)
    print(f"# {ROUNDS} alternating rounds, medians; one keep-alive connection, requests one after another; "
          f"{len(expected['catch-up']):,} objects changed, {list(expected['catch-up'].values()).count('DELETE'):,} of them tombstones")
    for side in sides:
        print(side.line())
    for catch, full in pairs:
        wall, cpu, requests, received, _ = catch.medians()
        floor_wall, floor_cpu = (figure * requests / FLOOR_REQUESTS for figure in floor.medians()[:2])
        benchlib.report(f"{catch.label}: server CPU against as many {{ __typename }} requests (ms)", cpu * 1e3, floor_cpu * 1e3, "ms")
        benchlib.report(f"{catch.label}: wall time against as many {{ __typename }} requests (ms)", wall * 1e3, floor_wall * 1e3, "ms")
        resync_wall, resync_cpu, _, resync_received, _ = full.medians()
        print(f"{catch.label} / {full.label}: server CPU {cpu / resync_cpu:.2f}, wall {wall / resync_wall:.2f}, "
              f"bytes {received / resync_received:.2f}", flush=True)


class FanoutSide:
    """One side of part 2: a household of MEMBERS people, a chore its admin renames, and a subscription."""

    def __init__(self, client, directory, name):
        people = [(f"{name}{n:02}", client.person(f"{name}{n:02}")) for n in range(MEMBERS)]
        admin = people[0][1]
        self.name = name
        self.household = client.household(admin, name, people[1:])
        chore = client.run(CREATE_CHORE, {"input": daily_chore(self.household, next_nine_utc())}, admin)["createChore"]["chore"]["id"]
        self.tokens = os.path.join(directory, f"{name}.tokens")
        with open(self.tokens, "w") as file:
            file.writelines(token + "\n" for _, token in people)
        self.subscription = None  # the payload the devices subscribe with
        writes = WARM_UPS + ROUNDS * WRITES
        self.triggers = signedin.write_requests(os.path.join(directory, f"{name}.requests"), [
            (admin, body(UPDATE_CHORE, {"input": {"choreId": chore, "title": f"Bins {n}"}})) for n in range(len(DEVICES) * writes)])
        self.triggers_used = 0
        self.loadgen = None
        self.steps = []

    def start(self, binary, hearth, devices):
        """The load generator with `devices` connections, its trigger file read from where the last one stopped."""
        path = f"{self.triggers}.{devices}"
        with open(self.triggers) as source, open(path, "w") as rest:
            rest.writelines(source.readlines()[self.triggers_used:])
        self.steps = []
        self.loadgen = LoadGenerator(binary, hearth, devices, self.tokens, self.subscription, path)
        return self.loadgen

    def measure(self):
        """One round of WRITES renames; fails unless every device received exactly one frame per rename."""
        step = self.loadgen.step(f"measure {WRITES}")
        frames = (step.figures["frames_min"], step.figures["frames_max"])
        if frames != (WRITES, WRITES):
            raise RuntimeError(f"{self.name}: a device received {frames[0]:.0f} to {frames[1]:.0f} frames for {WRITES} changes")
        self.steps.append(step)

    def stop(self):
        """Ends the load generator, if one runs; the next starts after the requests this one sent."""
        if self.loadgen:
            self.loadgen.close()
            self.triggers_used += self.loadgen.warm_ups + ROUNDS * WRITES
            self.loadgen = None

    def line(self, devices):
        """The server's CPU per device and change (us), and the side's line of figures (medians over the rounds)."""
        cpu = statistics.median(step.cpu_seconds for step in self.steps)
        each_p50 = statistics.median(step.figures["each_p50"] for step in self.steps)
        each_p99 = statistics.median(step.figures["each_p99"] for step in self.steps)
        last = [value for step in self.steps for value in step.figures["values"]]
        statements = statistics.median(step.statements for step in self.steps) / WRITES
        return cpu * 1e6 / (devices * WRITES), (
            f"{self.name}: server CPU {cpu * 1e3 / WRITES:,.1f} ms per change, {cpu * 1e6 / (devices * WRITES):,.1f} us per device "
            f"per change; {statements:,.1f} SQL statements per change; each device's frame after the response p50 "
            f"{each_p50:.2f} ms, p99 {each_p99:.2f} ms; the last device's p99 {percentile(last, 0.99):.2f} ms")


def newest_cursor(hearth, token):
    """The end of a full resync of the person signed in with `token`: the newest change-log row."""
    pull = Pull(hearth, token)
    cursor = pull.follow(None, max(PAGES))[2]
    pull.close()
    return cursor


def sync_subscription(cursor):
    """A device's `syncDeltas` from `cursor`, each object selected as the catch-up selects it."""
    return body("subscription Device%DEVICE%($since: String) { syncDeltas(since: $since) { endCursor hasMore mustResync "
                f"changes {{ cursor operation id typename node {{ {NODE} }} }} }} }}", {"since": cursor})


def events_subscription(household):
    """A device's `householdEvents` of `household`, with the changed chore's fields a phone shows."""
    return body(f'subscription Device%DEVICE% {{ householdEvents(householdId: "{household}") {{ sequence kind choreId '
                "chore { id title description tokens status assignmentMode } } }")


def fan_out(hearth, client, directory):
    """Part 2 (see the module's text), for each device count of DEVICES."""
    print("## per subscribed device per change", flush=True)
    binary = build_loadgen(directory)
    events = FanoutSide(client, directory, "events")
    events.subscription = events_subscription(events.household)
    sync = FanoutSide(client, directory, "sync")
    with open(sync.tokens) as tokens:
        sync_member = tokens.readline().strip()
    for devices in DEVICES:
        # The newest cursor, after every write so far: the subscriptions start with no backlog.
        sync.subscription = sync_subscription(newest_cursor(hearth, sync_member))
        sides = [sync, events]
        try:
            for side in sides:
                side.start(binary, hearth, devices)
            print(f"# {devices} devices on each side over {MEMBERS} members' sessions, {ROUNDS} alternating rounds of {WRITES} "
                  f"renames each; server RSS {hearth.rss_kib() / 1024:.0f} MiB", flush=True)
            for _ in range(ROUNDS):
                for side in sides:
                    side.measure()
        finally:
            for side in sides:
                side.stop()
        ours, our_line = sync.line(devices)
        theirs, their_line = events.line(devices)
        print(our_line)
        print(their_line)
        benchlib.report(f"{devices} devices: server CPU per device per change, syncDeltas vs householdEvents (us)", ours, theirs, "us")


def main():
    benchlib.raise_fd_limit()
    print(f"# load average {os.getloadavg()[0]:.1f}", flush=True)
    directory = tempfile.mkdtemp(prefix="sync-bench-")
    hearth = benchlib.Hearth(*SERVER_FLAGS)
    try:
        client = signedin.Client(hearth)
        catch_up(hearth, client)
        fan_out(hearth, client, directory)
    finally:
        hearth.stop()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
