"""The chores benchmark's part (a), python-dateutil's side: the work RecurrenceBench does, with
rrulestr and zoneinfo zones, on the process's CPU clock.

Usage: dateutil_bench.py RULES.json NOW. One warm-up pass over the first 200 rules (imports,
zone cache), then one measured pass over all. Prints `name key=value …` lines like
RecurrenceBench: `parse_expand` (rrulestr and between() per rule) and `expand` (between() on
rules parsed beforehand).
"""
import json
import sys
import time
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr


def main():
    entries = json.load(open(sys.argv[1]))
    start = datetime.fromtimestamp(float(sys.argv[2]), timezone.utc)
    end = start + timedelta(days=365)

    def parse(entry):
        return rrulestr(entry["text"], tzids=ZoneInfo, unfold=True)

    def parse_and_expand(batch):
        return sum(len(parse(entry).between(start, end, inc=True)) for entry in batch)

    parse_and_expand(entries[:200])
    began = time.process_time()
    occurrences = parse_and_expand(entries)
    print(f"parse_expand rules={len(entries)} occurrences={occurrences} cpu_s={time.process_time() - began} passes=1")
    rules = [parse(entry) for entry in entries]
    began = time.process_time()
    occurrences = sum(len(rule.between(start, end, inc=True)) for rule in rules)
    print(f"expand rules={len(rules)} occurrences={occurrences} cpu_s={time.process_time() - began} passes=1", flush=True)


main()
