"""Chores benchmark, part (b) of issue 14: the chore views of an eight-member household with 200
chores and two years of history, under wrk, against `{ __typename }` on the same server in the
same run. Goal: `myChores` and `householdChores` each at least 50 % of `{ __typename }`'s rate.

The household (Europe/Berlin): two admins (the creator and a co-parent) and two adults who joined
by invitation (members), all four with accounts, three of them with a profile picture; a
teenager, two younger children (supervised, with a parent's consent) and a grandmother, without
logins (their chores are recorded for them, `onBehalfOf`). Twelve tags, and 200 chores of every
assignment mode (INDIVIDUAL 45 %, SINGLE_ACTION 30 %, GROUP 15 %, ALL_MEMBERS 10 %) and schedule
(daily, weekdays, weekly, fortnightly, monthly, yearly, every N days after completion, one-off),
some with steps, with tokens, the children's needing approval when a member records them.

**Seeding: two years through the API, on a moved clock.** Two years of history cannot be written
at today's date through the API (a completion is stamped with the server's clock), and writing
rows into the database by hand would skip the services the benchmark is about. So the set-up runs
the same release binary under libfaketime (Debian's `faketime` package, `make bench-deps`) on the
benchmark's database: the clock starts two years ago, when the household and its chores are
created, and moves forward to each completion's time before the request that records it. Every
row is written by the real services through the public API: instances (materialised by their
first completion, or planned by the scheduler), completions and steps by the adults for
themselves or for the children, approvals and a few rejections by the admins the next morning,
token credits, monthly payouts and bonuses. Every occurrence due before the last three days is
completed; of those three days about 60 %, so lists show a few overdue chores, as in a real home.
Each hour's completions go over WORKERS connections at once, and the seeding server does not
fsync its commits (`--db-synchronous normal`); on the 2 shared cores the two years still take
tens of minutes, hence CHORE_VIEWS_SEED below. The server is then restarted on that database at
the real time (planning the rest up to the horizon) and measured.

**Load.** Signed in as each of the four adults, the requests a phone's home screen sends:

- `myChores(first: 20)`: due time, status, the chore's title, tokens, tags and assignees (display
  name and avatar URL), the instance's steps;
- `householdChores(householdId:, first: 50)`: each chore with its mode, schedule, tags, assignees
  (display name, avatar URL, status), whether you may edit it, and its next due time
  (`occurrences(after: now, first: 1)`).

The baseline is `{ __typename }` with the same access tokens. Every request says
`Accept-Encoding: gzip`, as a phone's HTTP client does (CHORE_VIEWS_ENCODING= sends none): the
lists come back compressed (the kept ones compressed once, when kept), `{ __typename }` below the
server's minimum size as it is. wrk does not read compressed bodies, so the run fails if the
server's own count of operations answered with errors (`hearth_graphql_operations_total`) moved
during the load. The loads alternate, BENCH_ROUNDS times each (medians; with the server's CPU time
per request), and the SQL statements per request of each kind are read from `/metrics` first, as
tools/bench/households does: the access check and the batching of assignees and tags are in those
counts.

**Three servers' worth of figures.** The server keeps the lists it answered (`--chore-view-cache`)
until something they show changes, so the benchmark measures the views three ways, on the same
database: unchanged data (every request but the first is answered from the kept list, after its
access check and change-log lookup); one request in WRITE_EVERY (10) an admin's `updateChore` of
a chore of the household (a new title each time), so the next read of every list rebuilds it (the
write's own cost is in the figure); and a second server with `--chore-view-cache 0`, every list
read afresh, against its own `{ __typename }`.

Run with `make bench`, or `.venv/bin/python tools/bench/chores/views.py` after `make release`
(and `apt-get install faketime`). BENCH_SECONDS (default 5), BENCH_ROUNDS (3), BENCH_CONNECTIONS
(64) as for every wrk benchmark; CHORE_HISTORY_DAYS (730) shortens the history for a quick try, and
CHORE_VIEWS_SEED=DIRECTORY keeps the seeded database there and reuses it in later runs (when
comparing builds, seed with the older one: a newer binary migrates its database, an older one
refuses a newer database)."""
import heapq
import http.client
import json
import os
import random
import re
import shutil
import signal
import struct
import sys
import threading
import tempfile
import time
import urllib.request
import zlib
from concurrent.futures import ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402
import signedin  # noqa: E402
from signedin import BASE_URL, TYPENAME, body, instance_id  # noqa: E402

ALTERNATION = benchlib.Alternation()
GOAL = 0.5
ZONE = ZoneInfo("Europe/Berlin")
NOW = datetime.now(timezone.utc).replace(microsecond=0)
START = NOW - timedelta(days=int(os.environ.get("CHORE_HISTORY_DAYS", "730")))
# Occurrences due after this are done only sometimes: the overdue chores a list shows.
RECENT = NOW - timedelta(days=3)
FAKETIME = os.environ.get("FAKETIME_LIBRARY", "/usr/lib/x86_64-linux-gnu/faketime/libfaketimeMT.so.1")
SERVER_FLAGS = ("--access-log", "off", "--access-token-ttl", "1h", "--password-hash-cost", "10", "--public-base-url", BASE_URL)
# The seeding's connections at once (each hour's completions are sent together).
WORKERS = 3
# On the moved clock access tokens last the day between refreshes (daily), sessions the two
# years; durability is not what the seeding measures, so commits are not fsynced (WAL, `normal`).
SEEDING_FLAGS = ("--db-synchronous", "normal", "--access-log", "off", "--access-token-ttl", "1d", "--session-max-lifetime", "800d",
                 "--refresh-token-ttl", "365d", "--password-hash-cost", "10", "--public-base-url", BASE_URL)

MY_CHORES = """query MyChores { myChores(first: 20) { edges { cursor node { id dueAt status isPersonal completedAt
  household { id name } member { id displayName }
  chore { id title tokens requiresApproval assignmentMode tags { id name color }
    assignees { displayName avatarUrl member { id } } }
  steps { isDone isLocked step { id title } } } }
  pageInfo { hasNextPage endCursor } } }"""
HOUSEHOLD_CHORES = """query HouseholdChores($id: ID!, $now: DateTime!) { householdChores(householdId: $id, first: 50) {
  totalCount edges { cursor node { id title assignmentMode tokens requiresApproval hasSteps viewerCanEdit
    tags { id name color } assignees { displayName avatarUrl member { id status } }
    schedule { __typename ... on RecurringSchedule { recurrence } ... on OnceSchedule { dueAt }
      ... on AfterCompletionSchedule { every unit firstDueAt } }
    occurrences(after: $now, first: 1) } }
  pageInfo { hasNextPage endCursor } } }"""

# The write of the "one in WRITE_EVERY" loads: a new title for one chore ("{n}" is wrk's counter).
TOUCH = """mutation Touch($input: UpdateChoreInput!) { updateChore(input: $input) { chore { id } } }"""
WRITE_EVERY = int(os.environ.get("CHORE_VIEWS_WRITE_EVERY", "10"))
# What the load's requests send as Accept-Encoding: a phone's HTTP client asks for gzip (iOS's
# URLSession and Android's OkHttp do by default); CHORE_VIEWS_ENCODING= (empty) sends none.
ENCODING = os.environ.get("CHORE_VIEWS_ENCODING", "gzip")

COMPLETE = """mutation($input: CompleteChoreInput!) { completeChore(input: $input) {
  outcome completion { id status } } }"""
TAGS = [("Kitchen", "#e67e22"), ("Bathroom", "#3498db"), ("Laundry", "#9b59b6"), ("Garden", "#27ae60"), ("Pets", "#f1c40f"),
        ("Outdoor", "#16a085"), ("Quick", "#95a5a6"), ("Weekly clean", "#2c3e50"), ("School", "#c0392b"), ("Shopping", "#d35400"),
        ("Car", "#7f8c8d"), ("Bedroom", "#8e44ad")]
TASKS = ["Empty the dishwasher", "Load the dishwasher", "Wipe the counters", "Take out the bins", "Vacuum", "Mop the floor",
         "Dust the shelves", "Clean the sink", "Change the sheets", "Fold the laundry", "Hang the washing", "Water the plants",
         "Feed the cat", "Walk the dog", "Clean the litter box", "Tidy up", "Make the bed", "Sort the recycling",
         "Mow the lawn", "Wash the car", "Clean the fridge", "Descale the kettle", "Clean the windows", "Pack the school bag",
         "Practise the piano", "Buy groceries", "Cook dinner", "Set the table", "Clear the table", "Iron the shirts"]
ROOMS = ["kitchen", "bathroom", "living room", "hall", "bedroom", "garage", "balcony", "attic", "office", "garden"]
# The accounts: the creator (an admin), a co-parent (an admin), two parents (members).
ADULTS = ("ana", "bruno", "carla", "duarte")
# A database seeded by an earlier run (a directory), reused; written there when absent.
SEED = os.environ.get("CHORE_VIEWS_SEED")
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def iso(moment):
    return moment.astimezone(timezone.utc).isoformat(timespec="milliseconds").replace("+00:00", "Z")


def parse(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def png():
    """A small valid PNG, for the profile pictures."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    rows = b"".join(b"\x00" + bytes([200, 80, 40]) * 16 for _ in range(16))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 16, 16, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


class FakeClock:
    """The seeding server's wall clock, under libfaketime's `faketime` wrapper: it follows the
    modification time of a file (`FAKETIME=%`, read on every call), which ``move`` sets; the
    monotonic clock, which timers use, stays real. (The wrapper, not a bare LD_PRELOAD: it sets
    libfaketime's environment up before the server starts, and Swift finds `argv` beside the
    initial environment, which the library would otherwise move.)"""

    WRAPPER = ("faketime", "-f", "%")

    def __init__(self, directory):
        self.path = os.path.join(directory, "faketime")
        open(self.path, "w").close()
        self.now = START

    def environment(self):
        return {"FAKETIME_FOLLOW_FILE": self.path, "FAKETIME_NO_CACHE": "1", "FAKETIME_DONT_FAKE_MONOTONIC": "1"}

    def move(self, moment):
        """Moves the clock to `moment` (never back)."""
        self.now = max(self.now, moment)
        nanoseconds = round(self.now.timestamp() * 1e9)
        os.utime(self.path, ns=(nanoseconds, nanoseconds))

    @staticmethod
    def stop(hearth):
        """Stops the server the wrapper started (the wrapper does not pass signals on), then the wrapper."""
        wrapper = hearth.process.pid
        with open(f"/proc/{wrapper}/task/{wrapper}/children") as file:
            for child in file.read().split():
                os.kill(int(child), signal.SIGTERM)
        hearth.process.wait(timeout=30)
        hearth.stop()


class Connection:
    """GraphQL over one keep-alive connection (the seeding sends tens of thousands of requests)."""

    def __init__(self, hearth):
        self.connection = http.client.HTTPConnection("127.0.0.1", hearth.port, timeout=60)

    def run(self, query, variables=None, token=None):
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = "Bearer " + token
        self.connection.request("POST", "/graphql", json.dumps({"query": query, "variables": variables or {}}), headers)
        answer = json.loads(self.connection.getresponse().read())
        if answer.get("errors"):
            raise RuntimeError(f"{query.split('(')[0].strip()} failed: {answer['errors']}")
        return answer["data"]


class Adult:
    """An adult with an account: their member id and their session's tokens, kept fresh on the moved clock."""

    def __init__(self, name, member_id, tokens, is_admin):
        self.name, self.member_id, self.is_admin = name, member_id, is_admin
        self.access, self.refresh = tokens
        self.issued = START

    def token(self, connection, clock):
        if clock.now - self.issued > timedelta(hours=20):
            tokens = connection.run(
                "mutation($input: RefreshSessionInput!) { refreshSession(input: $input) { tokens { accessToken refreshToken } } }",
                {"input": {"refreshToken": self.refresh}})["refreshSession"]["tokens"]
            self.access, self.refresh, self.issued = tokens["accessToken"], tokens["refreshToken"], clock.now
        return self.access


class Household:
    """The household as the seeding built it: its id, adults, members and chores."""

    def __init__(self):
        self.id = None
        self.adults = []        # [Adult]
        self.dependents = []    # member ids of the children and the grandmother
        self.tags = []
        self.chores = []        # dicts: id, mode, assignees, steps, schedule kind


def set_up(client, connection, clock, random):
    """The household, its members, tags and 200 chores, created at START through the API."""
    household = Household()
    ana = client.person("ana", tokens=True)
    household.id = client.run(
        "mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id viewerMember { id } } } }",
        {"input": {"name": "Lindenstraße 7", "emoji": "\U0001F3E1", "timeZone": "Europe/Berlin"}}, ana[0],
    )["createHousehold"]["household"]["id"]
    tokens = {"ana": ana}
    for name, kind, role in zip(ADULTS[1:], ("CO_PARENT", "PARENT", "PARENT"), ("ADMIN", "MEMBER", "MEMBER")):
        tokens[name] = client.join(ana[0], household.id, name, kind, role, tokens=True)
    for name in ADULTS:
        viewer = client.run("query($id: ID!) { household(id: $id) { viewerMember { id role } } }", {"id": household.id},
                            tokens[name][0])["household"]["viewerMember"]
        household.adults.append(Adult(name, viewer["id"], tokens[name], viewer["role"] == "ADMIN"))
    terms = client.run("{ terms { currentVersion } }", token=ana[0])["terms"]["currentVersion"]
    for kind, name, age in (("CHILD", "Eva", 14), ("SHADOW", "Filipe", 11), ("SHADOW", "Gil", 7), ("SHADOW", "Avó Graça", 78)):
        consent = None
        if age < 13:  # a supervised child: a parent's verifiable consent first
            consent = client.run(
                "mutation($input: RecordParentalConsentInput!) { recordParentalConsent(input: $input) { consent { id } } }",
                {"input": {"householdId": household.id, "method": "CARD", "path": "SUPERVISED", "termsVersion": terms,
                           "attestation": f"I am {name}'s parent and agree to the terms for them."}}, ana[0],
            )["recordParentalConsent"]["consent"]["id"]
        household.dependents.append(client.run(
            "mutation($input: AddMemberInput!) { addMember(input: $input) { member { id } } }",
            {"input": {"householdId": household.id, "kind": kind, "displayName": name, "age": age, "consentId": consent}}, ana[0],
        )["addMember"]["member"]["id"])
    for adult in household.adults[:3]:
        upload_avatar(client, adult.access)
    for name, color in TAGS:
        household.tags.append(connection.run(
            "mutation($input: CreateTagInput!) { createTag(input: $input) { tag { id } } }",
            {"input": {"householdId": household.id, "name": name, "color": color}}, ana[0])["createTag"]["tag"]["id"])
    for number in range(200):
        household.chores.append(create_chore(connection, household, random, number, ana[0]))
    return household


def upload_avatar(client, token):
    """Sets a profile picture (`PUT /avatar`, the upload without multipart)."""
    request = urllib.request.Request(client.hearth.url("/avatar"), data=png(), method="PUT", headers={
        "Content-Type": "image/png", "Authorization": "Bearer " + token})
    urllib.request.urlopen(request, timeout=30).close()


def create_chore(connection, household, random, number, token):
    """One chore of the 200: mode, assignees, schedule, steps, tags and tokens drawn from `random`."""
    everyone = [adult.member_id for adult in household.adults] + household.dependents
    draw = random.random()
    mode = "INDIVIDUAL" if draw < 0.45 else "SINGLE_ACTION" if draw < 0.75 else "GROUP" if draw < 0.9 else "ALL_MEMBERS"
    assignees = {"INDIVIDUAL": [random.choice(everyone)], "GROUP": random.sample(everyone, random.randint(2, 3)),
                 "ALL_MEMBERS": [], "SINGLE_ACTION": random.choice([[], [random.choice(everyone[:4])]])}[mode]
    local = START.astimezone(ZONE).replace(hour=random.randint(7, 20), minute=random.choice([0, 15, 30, 45]), second=0)
    start = f"DTSTART;TZID=Europe/Berlin:{local.strftime('%Y%m%dT%H%M%S')}\n"
    draw = random.random()
    if mode == "ALL_MEMBERS":
        draw = 0.2 + 0.8 * draw  # weekly or rarer: one instance each of eight members
    kind = "recurrence"
    if draw < 0.08:
        schedule = {"recurrence": start + "RRULE:FREQ=DAILY"}
    elif draw < 0.13:
        schedule = {"recurrence": start + "RRULE:FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"}
    elif draw < 0.58:
        days = ",".join(DAYS[day] for day in sorted(random.sample(range(7), random.randint(1, 2))))
        schedule = {"recurrence": start + f"RRULE:FREQ=WEEKLY;BYDAY={days}"}
    elif draw < 0.68:
        schedule = {"recurrence": start + f"RRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY={random.choice(DAYS)}"}
    elif draw < 0.83:
        schedule = {"recurrence": start + random.choice(["RRULE:FREQ=MONTHLY;BYMONTHDAY=1", "RRULE:FREQ=MONTHLY;BYDAY=-1FR",
                                                         "RRULE:FREQ=MONTHLY;BYDAY=1SA", "RRULE:FREQ=MONTHLY;BYMONTHDAY=-1"])}
    elif draw < 0.88:
        schedule = {"recurrence": start + random.choice(["RRULE:FREQ=YEARLY;BYMONTH=3,9;BYMONTHDAY=1", "RRULE:FREQ=YEARLY"])}
    elif draw < 0.96 and mode in ("INDIVIDUAL", "SINGLE_ACTION"):
        kind = "afterCompletion"
        schedule = {"afterCompletion": {"every": random.randint(3, 10), "unit": "DAYS", "firstDueAt": iso(local + timedelta(days=1))}}
    else:
        kind = "once"
        schedule = {"once": iso(NOW + timedelta(days=random.randint(-20, 20), hours=random.randint(0, 12)))}
        if mode in ("GROUP", "ALL_MEMBERS"):
            schedule = {"recurrence": start + "RRULE:FREQ=MONTHLY;BYMONTHDAY=15"}
            kind = "recurrence"
    steps = [{"title": title} for title in random.choice([["Clear", "Wash", "Dry"], ["Sort", "Wash"], ["Prepare", "Do it", "Put away"]])] \
        if kind == "recurrence" and "WEEKLY" in schedule["recurrence"] and random.random() < 0.1 else []
    task = random.choice(TASKS)
    title = f"{task} ({random.choice(ROOMS)})" if random.random() < 0.5 else task
    chore = connection.run(
        "mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id steps { id } } } }",
        {"input": {"householdId": household.id, "title": title, "assignmentMode": mode, "assigneeIds": assignees,
                   "schedule": schedule, "steps": steps, "tagIds": random.sample(household.tags, random.randint(0, 3)),
                   "tokens": random.choice([0, 1, 2, 2, 3, 5, 5, 10]),
                   # The adults who are not admins may record the children's chores for them.
                   "completers": {"roles": ["MEMBER"], "kinds": ["CHILD"] if mode == "SINGLE_ACTION" and random.random() < 0.3 else []},
                   "description": f"Bench chore {number}" if random.random() < 0.3 else None}}, token,
    )["createChore"]["chore"]
    return {"id": chore["id"], "mode": mode, "assignees": assignees, "steps": len(chore["steps"]), "kind": kind}


class History:
    """Two years of completions through the API on the moved clock (see the module's text)."""

    def __init__(self, hearth, clock, household, random):
        self.hearth, self.clock, self.household, self.random = hearth, clock, household, random
        self.adults = {adult.member_id: adult for adult in household.adults}
        self.everyone = [adult.member_id for adult in household.adults] + household.dependents
        self.pending_approval = []
        self.counts = {"completions": 0, "approvals": 0, "rejections": 0, "payouts": 0, "bonuses": 0}
        self.lock = threading.Lock()
        self.connections = threading.local()

    @property
    def connection(self):
        """This thread's connection to the server."""
        if not hasattr(self.connections, "connection"):
            self.connections.connection = Connection(self.hearth)
        return self.connections.connection

    def run(self, query, variables, adult):
        return self.connection.run(query, variables, adult.token(self.connection, self.clock))

    def occurrences(self, chore):
        """The chore's due times from START to now (recurrences and one-off chores)."""
        found, after = [], START
        while after < NOW:
            page = [parse(text) for text in self.run(
                "query($id: ID!, $after: DateTime!) { chore(id: $id) { occurrences(after: $after, first: 500) } }",
                {"id": chore["id"], "after": iso(after)}, self.household.adults[0])["chore"]["occurrences"]]
            found += [due for due in page if due < NOW]
            if len(page) < 500:
                break
            after = page[-1] + timedelta(milliseconds=1)
        return found

    def targets(self, chore):
        return {"GROUP": chore["assignees"], "ALL_MEMBERS": self.everyone}.get(chore["mode"], [None])

    def events(self):
        """The first completion of every occurrence to do, as a heap of (time, tie, chore, due, member)."""
        heap = []
        for chore in self.household.chores:
            dues = self.occurrences(chore) if chore["kind"] != "afterCompletion" else [self.next_after_completion(chore)]
            for due in dues:
                for member in self.targets(chore):
                    self.push(heap, chore, due, member)
        return heap

    def next_after_completion(self, chore):
        text = self.run("query($id: ID!, $after: DateTime!) { chore(id: $id) { occurrences(after: $after, first: 1) } }",
                        {"id": chore["id"], "after": iso(START)}, self.household.adults[0])["chore"]["occurrences"]
        return parse(text[0]) if text else None

    def push(self, heap, chore, due, member):
        if due is None or due >= NOW or (due >= RECENT and self.random.random() < 0.4):
            return
        done = min(due + timedelta(minutes=self.random.randint(-30, 180)), NOW - timedelta(minutes=5))
        heapq.heappush(heap, (done, self.random.random(), chore["id"], due, member))

    def who(self, chore, member):
        """(the adult who sends the completion, the member it is for when that is someone else)."""
        subject = member or (chore["assignees"][0] if chore["assignees"] else None)
        if chore["mode"] == "SINGLE_ACTION" and (subject is None or self.random.random() < 0.4):
            subject = self.random.choice(self.everyone[:4])
        if subject in self.adults:
            return self.adults[subject], None
        return self.random.choice(self.household.adults), subject

    def seed(self):
        """Completes every occurrence in time order: what falls within the same hour of one day
        is sent at that hour's last completion time, over WORKERS connections at once."""
        heap = self.events()
        chores = {chore["id"]: chore for chore in self.household.chores}
        day = None
        with ThreadPoolExecutor(WORKERS) as workers:
            while heap:
                batch = [heapq.heappop(heap)]
                if day != batch[0][0].astimezone(ZONE).date():
                    day = batch[0][0].astimezone(ZONE).date()
                    self.morning(day)
                while heap and heap[0][0] - batch[0][0] < timedelta(hours=1) and heap[0][0].astimezone(ZONE).date() == day:
                    batch.append(heapq.heappop(heap))
                self.clock.move(batch[-1][0])
                for adult in self.household.adults:  # refreshed here, not by the workers at once
                    adult.token(self.connection, self.clock)
                work = [(chores[chore_id], self.current(chores[chore_id], due), member, *self.who(chores[chore_id], member))
                        for _, _, chore_id, due, member in batch]
                work = [event for event in work if event[1] is not None]
                list(workers.map(lambda event: self.occurrence(*event), work))
                for chore, due, member, adult, _ in work:
                    if chore["kind"] == "afterCompletion":  # the next one: the interval after this completion
                        text = self.run("query($id: ID!, $after: DateTime!) { chore(id: $id) { occurrences(after: $after, first: 1) } }",
                                        {"id": chore["id"], "after": iso(self.clock.now)}, adult)["chore"]["occurrences"]
                        self.push(heap, chore, parse(text[0]) if text else None, member)
        self.morning(None)

    def current(self, chore, due):
        """The due time of the occurrence to complete: `due`, except for an `afterCompletion` chain,
        whose next one a rejection since (the chain's completion redone later) has moved."""
        if chore["kind"] != "afterCompletion":
            return due
        return self.next_after_completion(chore)

    def occurrence(self, chore, due, member, adult, for_member):
        """Completes one occurrence (in a worker, on its own connection)."""
        try:
            self.complete(chore, instance_id(chore["id"], due, member), adult, for_member)
        except RuntimeError as error:
            raise RuntimeError(f"{chore} due {iso(due)} for {member} at {iso(self.clock.now)}: {error}") from None

    def complete(self, chore, instance, adult, for_member):
        """Completes the instance's steps that are not done (every one, or the one a rejection reopened)."""
        outcome = "STEP_COMPLETED"
        while outcome == "STEP_COMPLETED":
            data = self.run(COMPLETE, {"input": {"instanceId": instance, "onBehalfOf": for_member}}, adult)["completeChore"]
            outcome = data["outcome"]
            if outcome not in ("COMPLETED", "STEP_COMPLETED", "PENDING_APPROVAL"):
                raise RuntimeError(f"completeChore of {instance}: {outcome}")
            with self.lock:
                self.counts["completions"] += 1
        if outcome == "PENDING_APPROVAL":
            with self.lock:
                self.pending_approval.append((data["completion"]["id"], chore, instance, adult, for_member))

    def morning(self, day):
        """At 08:00 on `day` (at the end when None): an admin reviews what waits for approval; on
        the first of the month the children's allowance is paid out and someone earns a bonus."""
        moment = NOW - timedelta(minutes=1) if day is None else datetime(day.year, day.month, day.day, 8, tzinfo=ZONE)
        self.clock.move(moment)
        admin = self.random.choice([adult for adult in self.household.adults if adult.is_admin])
        waiting, self.pending_approval = self.pending_approval, []
        for completion, chore, instance, adult, for_member in waiting:
            if self.random.random() < 0.03:
                self.run("mutation($input: RejectCompletionInput!) { rejectCompletion(input: $input) { completion { id } } }",
                         {"input": {"completionId": completion, "reason": "Not done properly"}}, admin)
                self.counts["rejections"] += 1
                self.complete(chore, instance, adult, for_member)  # done again, properly
            else:
                self.run("mutation($input: ApproveCompletionInput!) { approveCompletion(input: $input) { completion { id } } }",
                         {"input": {"completionId": completion}}, admin)
                self.counts["approvals"] += 1
        if day is not None and day.day == 1:
            for member in self.household.dependents[:3]:
                balance = self.run("query($id: ID!) { node(id: $id) { ... on Member { tokenBalance } } }", {"id": member}, admin)
                tokens = balance["node"]["tokenBalance"] // 2
                if tokens > 0:
                    self.run("mutation($input: RecordPayoutInput!) { recordPayout(input: $input) { clientMutationId } }",
                             {"input": {"memberId": member, "tokens": tokens, "note": "Pocket money"}}, admin)
                    self.counts["payouts"] += 1
            self.run("mutation($input: GiveBonusTokensInput!) { giveBonusTokens(input: $input) { clientMutationId } }",
                     {"input": {"memberId": self.random.choice(self.household.dependents[:3]), "amount": 5, "note": "Helped a neighbour"}},
                     admin)
            self.counts["bonuses"] += 1


def seed(database):
    """Builds the household and its two years in `database` on the moved clock; returns the
    household and what was written."""
    directory = os.path.dirname(database)
    clock = FakeClock(directory)
    clock.move(START)
    hearth = benchlib.Hearth(*SEEDING_FLAGS, wrapper=FakeClock.WRAPPER, database=database, environment=clock.environment())
    try:
        client = signedin.Client(hearth)
        connection = Connection(hearth)
        draws = random.Random(14)
        started = time.monotonic()
        household = set_up(client, connection, clock, draws)
        history = History(hearth, clock, household, draws)
        history.seed()
        print(f"# seeded on a moved clock in {time.monotonic() - started:.0f} s: 8 members, {len(household.chores)} chores, "
              + ", ".join(f"{count} {name}" for name, count in history.counts.items()), flush=True)
        return household
    finally:
        FakeClock.stop(hearth)


def view_requests(client):
    """Signs the four adults in; returns their access tokens, the household's id and the two
    views' requests, {view: [(access token, JSON body)]}, the adults in turn."""
    tokens = [client.login(name) for name in ADULTS]
    household = client.run("{ households { id } }", token=tokens[0])["households"][0]["id"]
    return tokens, household, {
        "myChores": [(token, body(MY_CHORES)) for token in tokens],
        "householdChores": [(token, body(HOUSEHOLD_CHORES, {"id": household, "now": iso(NOW)})) for token in tokens],
    }


def wait_for_jobs(hearth):
    """Waits until the scheduler has run every job that is due (the planning after the restart)."""
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        with urllib.request.urlopen(hearth.url("/metrics"), timeout=30) as response:
            text = response.read().decode()
        busy = sum(float(value) for value in re.findall(r"^hearth_jobs_(?:due|running)\{[^}]*\} (\S+)$", text, re.MULTILINE))
        if busy == 0:
            return
        time.sleep(0.2)
    raise RuntimeError("the scheduler did not finish the due jobs in 5 minutes")


def counts(database):
    """How many rows the views read from: instances, completions, ledger entries."""
    import sqlite3
    with sqlite3.connect(database) as connection:
        return {table: connection.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in ("chore_instances", "chore_completions", "token_ledger")}


def wrk_arguments(path):
    """The wrk script's arguments for the request file `path`: with ENCODING to send, if any."""
    return [path, ENCODING] if ENCODING else [path]


def measure(hearth, client, directory, tokens, views, loads, setting):
    """Sends every request of `views` once (none may fail), prints the statements per request of
    each, then measures `loads` (label: requests) and `{ __typename }` in alternation and prints
    each against `{ __typename }`."""
    mix = views["myChores"] + views["householdChores"]
    for token, entry in mix:
        signedin.send(client, token, entry, "0")
    signedin.statements_per_request(hearth, client, mix)
    files = {name: signedin.write_requests(os.path.join(directory, f"load{index}.requests"), entries)
             for index, (name, entries) in enumerate(loads.items())}
    files[TYPENAME] = signedin.write_requests(os.path.join(directory, "typename.requests"), [(token, body(TYPENAME)) for token in tokens])
    url = hearth.url("/graphql")
    benchlib.wrk(url, connections=ALTERNATION.connections, seconds=1, script=signedin.MIX_SCRIPT, script_args=wrk_arguments(files["myChores"]))
    failed = signedin.failed_operations(hearth)
    medians, rates = ALTERNATION.measure(hearth.process.pid, {name: (url, signedin.MIX_SCRIPT, wrk_arguments(path)) for name, path in files.items()})
    failed = signedin.failed_operations(hearth) - failed
    if failed:
        raise RuntimeError(f"the server answered {failed:.0f} operations of the load with errors")
    print(f"# {setting}: wrk -t2 -c{ALTERNATION.connections} -d{ALTERNATION.seconds}s --latency, keep-alive, loopback, "
          f"Accept-Encoding: {ENCODING or '(none)'}, {ALTERNATION.rounds} alternating rounds (medians); "
          "4 signed-in adults of one 8-member household, 200 chores")
    for name in loads:
        benchlib.report(f"{name} vs signed-in {TYPENAME} (req/s)", medians[name][0], medians[TYPENAME][0], "req/s",
                        goal=GOAL if name in views else None)
        print("per round: " + ", ".join(f"{ours / theirs:.3f}" if theirs else "n/a (no baseline response)"
                                        for ours, theirs in zip(rates[name], rates[TYPENAME])))
    print("p99 latency: " + ", ".join(f"{name} {figures[1]:.2f} ms" for name, figures in medians.items()))
    print("server CPU per request: " + ", ".join(f"{name} {figures[2]:.1f} us" for name, figures in medians.items()), flush=True)


def main():
    directory = tempfile.mkdtemp(prefix="hearth-chore-views-bench-")
    database = os.path.join(directory, "seed", "views.sqlite")
    try:
        if SEED and os.path.exists(SEED):
            shutil.copytree(SEED, os.path.dirname(database))
            print(f"# the household seeded earlier in {SEED}")
        else:
            os.mkdir(os.path.dirname(database))
            seed(database)
            if SEED:
                shutil.copytree(os.path.dirname(database), SEED)
        hearth = benchlib.Hearth(*SERVER_FLAGS, database=database)
        try:
            wait_for_jobs(hearth)
            print("# rows: " + ", ".join(f"{table} {count}" for table, count in counts(database).items()), flush=True)
            client = signedin.Client(hearth)
            tokens, household, views = view_requests(client)
            chore = client.run("query($id: ID!) { householdChores(householdId: $id, first: 1) { edges { node { id } } } }",
                               {"id": household}, tokens[0])["householdChores"]["edges"][0]["node"]["id"]
            touch = (tokens[0], body(TOUCH, {"input": {"choreId": chore, "title": "Tidy up {n}"}}))
            loads = dict(views)
            for name, entries in views.items():  # WRITE_EVERY - 1 reads (the adults in turn), then the write
                loads[f"{name}, 1 write in {WRITE_EVERY}"] = [entries[index % len(entries)] for index in range(WRITE_EVERY - 1)] + [touch]
            measure(hearth, client, directory, tokens, views, loads, "kept lists (--chore-view-cache on)")
        finally:
            hearth.stop()
        hearth = benchlib.Hearth(*SERVER_FLAGS, "--chore-view-cache", "0", database=database)
        try:
            wait_for_jobs(hearth)
            client = signedin.Client(hearth)
            tokens, household, views = view_requests(client)
            measure(hearth, client, directory, tokens, views, views, "every list read afresh (--chore-view-cache 0)")
        finally:
            hearth.stop()
    finally:
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    main()
