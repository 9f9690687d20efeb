"""Chores benchmark, part (a) of issue 14: expanding 10,000 recurring chores one year ahead,
Hearth's recurrence engine (RecurrenceBench, release build) against python-dateutil 2.9 with
zoneinfo zones doing the same work in the same run: parse each rule's RFC 5545 text
(DTSTART;TZID=…, RRULE, EXDATE) and list its occurrences in the year from NOW.

The rules are what families set up (daily and weekday chores, weekly on some days, monthly on
a date, the last Friday or the last weekday, yearly), in ten time zones, started within the
two years before NOW, some with COUNT, UNTIL or EXDATE; seeded, so every run expands the same
10,000. DTSTART is moved to the rule's first occurrence, where RFC 5545 and dateutil agree, and
both sides must find the same number of occurrences.

The sides alternate over BENCH_ROUNDS rounds (default 3), each a process of its own; the
figure is CPU time (the process clock), medians over the rounds. Goal (issue 14): at least
50× dateutil.

Run with `make bench`, or after `swift build -c release --product RecurrenceBench`:
`.venv/bin/python tools/bench/chores/run.py`. RECURRENCE_RULES (default 10000) changes the
number of rules."""
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "lib"))
import benchlib  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
BENCH = os.environ.get("RECURRENCE_BENCH_BIN", os.path.join(benchlib.ROOT, ".build", "release", "RecurrenceBench"))
ROUNDS = int(os.environ.get("BENCH_ROUNDS", "3"))
COUNT = int(os.environ.get("RECURRENCE_RULES", "10000"))
NOW = datetime(2026, 12, 1, tzinfo=timezone.utc)
ZONES = ["Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "America/Sao_Paulo", "Pacific/Apia",
         "Asia/Kathmandu", "Europe/London", "America/Los_Angeles", "Asia/Tokyo", "Australia/Sydney"]
DAYS = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]


def chore_rule(random):
    """One RRULE value of the kinds chore apps offer."""
    kind = random.random()
    if kind < 0.2:
        return "FREQ=DAILY" + random.choice(["", "", ";INTERVAL=2", ";INTERVAL=3"])
    if kind < 0.3:
        return "FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR"
    if kind < 0.65:
        days = sorted(random.sample(range(7), random.randint(1, 3)))
        return "FREQ=WEEKLY" + random.choice(["", "", ";INTERVAL=2"]) + ";BYDAY=" + ",".join(DAYS[d] for d in days)
    if kind < 0.75:
        return "FREQ=MONTHLY;BYMONTHDAY=" + random.choice(["1", "15", "-1", "1,15"])
    if kind < 0.85:
        return "FREQ=MONTHLY;BYDAY=" + random.choice(["-1FR", "1SA", "2SU", "-1SU"])
    if kind < 0.9:
        return "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1"
    return "FREQ=YEARLY" + random.choice(["", ";BYMONTH=3,9;BYMONTHDAY=1", ";BYMONTH=12;BYDAY=-1SU"])


def make_rules():
    """COUNT seeded rules, each with DTSTART on its first occurrence."""
    random_ = random.Random(14)
    rules = []
    while len(rules) < COUNT:
        zone = random_.choice(ZONES)
        local = (NOW - timedelta(days=random_.randint(0, 730))).astimezone(ZoneInfo(zone)).replace(
            hour=random_.randint(6, 21), minute=random_.choice([0, 15, 30, 45]), second=0, tzinfo=None)
        rule = chore_rule(random_)
        ending = random_.random()
        if ending < 0.05:
            rule += f";COUNT={random_.randint(5, 400)}"
        elif ending < 0.15:
            rule += ";UNTIL=" + (NOW + timedelta(days=random_.randint(-60, 500))).strftime("%Y%m%dT%H%M%SZ")
        text = f"DTSTART;TZID={zone}:{local:%Y%m%dT%H%M%S}\nRRULE:{rule}"
        first = next(iter(rrulestr(text, tzids=ZoneInfo)), None)
        if first is None:
            continue
        text = f"DTSTART;TZID={zone}:{first:%Y%m%dT%H%M%S}\nRRULE:{rule}"
        if random_.random() < 0.15:
            skipped = list(rrulestr(text, tzids=ZoneInfo).between(NOW, NOW + timedelta(days=120)))
            if skipped:
                values = sorted({random_.choice(skipped) for _ in range(random_.randint(1, 3))})
                text += f"\nEXDATE;TZID={zone}:" + ",".join(f"{value:%Y%m%dT%H%M%S}" for value in values)
        rules.append({"text": text, "zone": zone})
    return rules


def main():
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as file:
        json.dump(make_rules(), file)
    try:
        samples = {"hearth": [], "dateutil": []}
        for _ in range(ROUNDS):
            for side, command in (("hearth", [BENCH, file.name, str(NOW.timestamp())]),
                                  ("dateutil", [sys.executable, os.path.join(HERE, "dateutil_bench.py"), file.name,
                                                str(NOW.timestamp())])):
                samples[side].append(benchlib.figures(subprocess.run(command, check=True, capture_output=True, text=True).stdout))
    finally:
        os.unlink(file.name)
    for name, label, goal in (("parse_expand", "parse and expand", 50), ("expand", "expand parsed rules", None)):
        counts = {side: {round_[name]["occurrences"] for round_ in rounds} for side, rounds in samples.items()}
        if counts["hearth"] != counts["dateutil"] or len(counts["hearth"]) != 1:
            sys.exit(f"{name}: the sides found different occurrences: {counts}")
        occurrences = counts["hearth"].pop()
        ours = [round_[name]["cpu_s"] for round_ in samples["hearth"]]
        theirs = [round_[name]["cpu_s"] for round_ in samples["dateutil"]]
        print(f"chores recurrence: {COUNT:,} rules one year ahead ({occurrences:,.0f} occurrences), {label}, "
              f"{ROUNDS} alternating rounds (CPU time, medians)")
        benchlib.report(f"chores recurrence {label} (occurrences per CPU second)", occurrences / statistics.median(ours),
                        occurrences / statistics.median(theirs), "occ/s", goal=goal)
        print(f"CPU for the {COUNT:,} rules: hearth {statistics.median(ours) * 1000:.1f} ms, dateutil "
              f"{statistics.median(theirs) * 1000:,.0f} ms; ratio per round: "
              + ", ".join(f"{t / o:.0f}" for o, t in zip(ours, theirs)), flush=True)

main()
