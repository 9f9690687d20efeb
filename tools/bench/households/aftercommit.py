"""What a household screen costs right after a commit, against the same screen asked for again:
the server runs under valgrind's callgrind (as in instructions.py), the household of run.py is
set up, and then, ROUNDS times for each kind of screen of the mix, a commit is made and the
screen is sent twice by a member without admin rights, one request at a time; the instructions
of each request are counted. Two kinds of commit, each measured apart:

- `member renamed`: an admin renames a shadow member of the household (the mix's write, which
  changes what the home screen lists and nothing the other screens show);
- `elsewhere`: someone else renames a household of their own (most of a busy server's commits
  are another household's, or a chore's: the household screens' reads come back the same).

In the mix, most of the instructions go to the first request of each kind after a commit (the
kept reads, the kept text and SQLite's page caches start again), so this is the figure that
shows what a change to that path did, while instructions.py shows what the mix pays in all.

Run after `make release`: `.venv/bin/python tools/bench/households/aftercommit.py` (HEARTH_BIN
picks another binary, BENCH_ROUNDS the commits per kind of screen, default 6). Needs valgrind and
objcopy, as instructions.py does."""
import os
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
sys.path.insert(0, os.path.dirname(__file__))
import benchlib  # noqa: E402
import run  # noqa: E402
from signedin import body, send  # noqa: E402

ROUNDS = int(os.environ.get("BENCH_ROUNDS", "6"))
RENAME_HOUSEHOLD = "mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { household { id } } }"


def main():
    directory = tempfile.mkdtemp(prefix="hearth-households-aftercommit-")
    callgrind = benchlib.Callgrind(directory, *run.SERVER_FLAGS)
    try:
        client = run.Client(callgrind.hearth)
        admins, members, household, shadow = run.household_of_eight(client)
        stranger = client.person("zoe")
        elsewhere = client.run(
            "mutation($input: CreateHouseholdInput!) { createHousehold(input: $input) { household { id } } }",
            {"input": {"name": "Elsewhere", "timeZone": "Europe/Lisbon"}}, stranger)["createHousehold"]["household"]["id"]
        screens = {
            "home": body(run.HOME), "switcher": body(run.SWITCHER),
            "checklist": body(run.CHECKLIST, {"id": household}), "economy": body(run.ECONOMY, {"id": household}),
        }
        commits = {
            "member renamed": (admins[0], body(run.RENAME, {"input": {"memberId": shadow, "displayName": "Hugo {n}"}})),
            "elsewhere": (stranger, body(RENAME_HOUSEHOLD, {"input": {"householdId": elsewhere, "name": "Elsewhere {n}"}})),
        }
        viewer = members[0]
        for entry in screens.values():
            send(client, viewer, entry, "warm")
        print(f"# callgrind, {ROUNDS} commits per kind of screen; thousand server instructions per request,"
              " the first request after the commit / the same request again")
        for commit, (writer, write) in commits.items():
            figures = []
            for name, entry in screens.items():
                first = again = 0
                for turn in range(ROUNDS):
                    send(client, writer, write, f"{name}{turn}")
                    callgrind.dump()
                    send(client, viewer, entry, "x")
                    first += callgrind.dump()
                    send(client, viewer, entry, "x")
                    again += callgrind.dump()
                figures.append(f"{name} {first / ROUNDS / 1000:,.0f} / {again / ROUNDS / 1000:,.0f}")
            print(f"after a commit, {commit}: " + ", ".join(figures), flush=True)
    finally:
        callgrind.stop()


if __name__ == "__main__":
    main()
