"""Leaderboard fan-out benchmark (issue 15, FR-58): one household with 1,000 subscribed devices, each a
graphql-transport-ws connection with a `leaderboardChanged` subscription, signed in with sessions of the
household's 20 members (50 each: `--max-sessions-per-user`'s default). For each `completeChore`, the time
from its HTTP response to the moment the LAST device has the new board, p50/p99 over a bounded number of
completions, and the server's CPU time per completion, against the same completion in a second household
of the same members that nobody subscribes to (the baseline), in alternating rounds on the same server.

Each completion is of the next day's instance of a daily `SINGLE_ACTION` chore (one in each household),
by the members in turn, so each one moves the week's board (counts and ranks) and every device receives
it. The load generator is tools/bench/ws/loadgen.c (one epoll thread; `--trigger-file` mode): it sends
each `completeChore` itself and times both the response and the devices' messages with the kernel's
receive timestamps (SO_TIMESTAMPNS), so neither depends on how fast its one thread gets round to each
socket. A latency below zero means the last device had the board before the response arrived.

Also printed: the SQL statements per completion, read from `/metrics` (one board computation per
completion, whatever the number of devices, is what the feed promises: the statements with and without
subscribers differ by that one computation), the server's RSS with the devices connected, and the load
generator's own CPU time per completion.

Run with `make bench`, or `.venv/bin/python tools/bench/leaderboard/run.py` after `make release`.
Environment: BENCH_LB_DEVICES (1000), BENCH_LB_MEMBERS (20), BENCH_LB_COMPLETIONS (50 per round and
side), BENCH_ROUNDS (3). Bounded: ROUNDS x COMPLETIONS completions each side, each round waiting at most
10 s."""
import math
import os
import shutil
import statistics
import sys
import tempfile
from datetime import timedelta

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402
import signedin  # noqa: E402
from fanout import LoadGenerator, build_loadgen, percentile, WARM_UPS  # noqa: E402
from signedin import BASE_URL, body, instance_id  # noqa: E402

DEVICES = int(os.environ.get("BENCH_LB_DEVICES", "1000"))
MEMBERS = int(os.environ.get("BENCH_LB_MEMBERS", "20"))
COMPLETIONS = int(os.environ.get("BENCH_LB_COMPLETIONS", "50"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
P99_GOAL_MS = 50
SESSIONS = math.ceil(DEVICES / MEMBERS)
# Setting up the members from one address sends more email than `--mail-requests-per-address`'s default allows.
SERVER_FLAGS = ("--access-log", "off", "--password-hash-cost", "10", "--public-base-url", BASE_URL, "--mail-requests-per-address", "1000000",
                "--access-token-ttl", "1h", "--ws-ping-interval", "0", "--heartbeat-interval", "1h",
                "--max-sessions-per-user", str(max(SESSIONS, 1)))
BOARD = ("period totalCompletions totalTokens entries { rank completionCount tokens percentage "
         "member { id displayName } }")
COMPLETE = "mutation($input: CompleteChoreInput!) { completeChore(input: $input) { outcome completion { id } } }"


def daily_chore(client, admin, household_id, start):
    """A daily `SINGLE_ACTION` chore (every adult may complete it) from `start`; returns its id."""
    return client.run("mutation($input: CreateChoreInput!) { createChore(input: $input) { chore { id } } }",
                      {"input": signedin.daily_chore(household_id, start)}, admin)["createChore"]["chore"]["id"]


def completions(path, chore_id, start, count, sessions):
    """Writes `count` completions of the chore's next days, by the members in turn, as a request file. The
    members' active household is the first they joined, so they complete the other's chores anyway (FR-18),
    and so, for the same request, the first's too."""
    return signedin.write_requests(path, [
        (sessions[day % len(sessions)][0], body(COMPLETE, {"input": {
            "instanceId": instance_id(chore_id, start + timedelta(days=day)), "crossHousehold": "COMPLETE_ANYWAY"}}))
        for day in range(count)])


def main():
    benchlib.raise_fd_limit()
    print(f"# load average {os.getloadavg()[0]:.1f}; {DEVICES} devices over {MEMBERS} members' sessions; "
          f"{ROUNDS} alternating rounds of {COMPLETIONS} completions each side", flush=True)
    directory = tempfile.mkdtemp(prefix="leaderboard-bench-")
    loadgen_binary = build_loadgen(directory)
    hearth = benchlib.Hearth(*SERVER_FLAGS)
    try:
        client = signedin.Client(hearth)
        names = [f"member{index:02}" for index in range(MEMBERS)]
        first = {name: client.person(name) for name in names}
        admin = first[names[0]]
        others = [(name, first[name]) for name in names[1:]]
        busy = client.household(admin, "Busy", others)
        quiet = client.household(admin, "Quiet", others)
        # Every member's sessions: the one registering opened, and more sign-ins up to SESSIONS.
        sessions = [(first[name], name) for name in names]
        sessions += [(client.login(name), name) for _ in range(SESSIONS - 1) for name in names]
        devices = sessions[:DEVICES]
        start = signedin.next_nine_utc()
        count = ROUNDS * COMPLETIONS + WARM_UPS
        # Completions by each member in turn, with the session of theirs that registered.
        completers = sessions[:MEMBERS]
        triggers = completions(os.path.join(directory, "busy.requests"), daily_chore(client, admin, busy, start), start, count, completers)
        quiets = completions(os.path.join(directory, "quiet.requests"), daily_chore(client, admin, quiet, start), start, count, completers)
        tokens = os.path.join(directory, "tokens")
        with open(tokens, "w") as file:
            file.writelines(token + "\n" for token, _ in devices)
        subscription = body(f'subscription {{ leaderboardChanged(householdId: "{busy}", period: WEEK) {{ {BOARD} }} }}')
        loadgen = LoadGenerator(loadgen_binary, hearth, len(devices), tokens, subscription, triggers, quiets)
        try:
            print(loadgen.ready.strip(), f"server RSS {hearth.rss_kib() / 1024:.0f} MiB", flush=True)
            measured, baseline = [], []
            for _ in range(ROUNDS):
                measured.append(loadgen.step(f"measure {COMPLETIONS}"))
                baseline.append(loadgen.step(f"quiet {COMPLETIONS}"))
        finally:
            loadgen.close()
        # Every request completed its instance (the load generator checked only that none failed).
        for household_id, expected in ((busy, loadgen.warm_ups + ROUNDS * COMPLETIONS), (quiet, ROUNDS * COMPLETIONS)):
            total = client.run("query($id: ID!) { leaderboard(householdId: $id, period: ALL_TIME) { totalCompletions } }",
                               {"id": household_id}, admin)["leaderboard"]["totalCompletions"]
            if total != expected:
                raise RuntimeError(f"{total} completions counted in {household_id}, {expected} sent")
        report(measured, baseline, len(devices))
    finally:
        hearth.stop()
        shutil.rmtree(directory, ignore_errors=True)


def report(measured, baseline, devices):
    after = [value for step in measured for value in step.figures["values"]]
    from_request = [value for step in measured for value in step.figures["from_request"]]
    responses = [value for step in measured for value in step.figures["response"]]
    quiet_responses = [value for step in baseline for value in step.figures["response"]]
    p99 = percentile(after, 0.99)
    print(f"last device's update after completeChore's response ({len(after)} completions): "
          f"p50 {percentile(after, 0.5):.2f} ms, p99 {p99:.2f} ms, max {max(after):.2f} ms "
          f"(goal p99 < {P99_GOAL_MS} ms: {'met' if p99 < P99_GOAL_MS else 'NOT met'})")
    print(f"  from sending completeChore: p50 {percentile(from_request, 0.5):.2f} ms, p99 {percentile(from_request, 0.99):.2f} ms")
    print(f"completeChore's round trip: with {devices} subscribers p50 {percentile(responses, 0.5):.2f} ms, "
          f"p99 {percentile(responses, 0.99):.2f} ms; without p50 {percentile(quiet_responses, 0.5):.2f} ms, "
          f"p99 {percentile(quiet_responses, 0.99):.2f} ms")
    ours = [step.cpu_seconds * 1e6 / COMPLETIONS for step in measured]
    theirs = [step.cpu_seconds * 1e6 / COMPLETIONS for step in baseline]
    print("per round, server CPU per completion (us), with / without subscribers: "
          + ", ".join(f"{o:.0f} / {t:.0f}" for o, t in zip(ours, theirs)))
    ours_median, theirs_median = statistics.median(ours), statistics.median(theirs)
    print(f"server CPU per completion (medians): with {devices} subscribers {ours_median:.0f} us, without {theirs_median:.0f} us; "
          f"ratio {ours_median / theirs_median:.2f}; {(ours_median - theirs_median) / devices:.1f} us more per device")
    print(f"SQL statements per completion: with subscribers {statistics.median(s.statements for s in measured) / COMPLETIONS:.1f}, "
          f"without {statistics.median(s.statements for s in baseline) / COMPLETIONS:.1f}")
    print(f"load generator CPU per completion: {statistics.median(s.figures['cpu_ms'] for s in measured):.2f} ms", flush=True)


if __name__ == "__main__":
    main()
