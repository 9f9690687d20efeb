"""python-dateutil as the oracle of Hearth's recurrence engine (HearthDomainTests'
RecurrenceOracleTests): reads a JSON list of cases on standard input, each
{"text": canonical recurrence text, "zone": the household zone, "after": seconds since 1970},
and writes one JSON object per case: the first 60 occurrences, the 12 at or after "after"
(both as seconds since 1970 UTC, as dateutil lists them) and the search horizon.

Each rule is expanded by dateutil's rrulestr with zoneinfo zones (the system's tzdata), with
two adjustments that make dateutil follow RFC 5545 where the engine does:
- a DTSTART without TZID is local time in the household zone (dateutil would leave it naive);
- DTSTART is always the first occurrence and counts towards COUNT (RFC 5545 §3.3.10): it is
  added as an RDATE, and COUNT lowered by one when the rule does not produce DTSTART itself.
Rules are searched 400 years from DTSTART at most (the horizon), so a rule with few
occurrences cannot keep dateutil busy until the year 9999.
"""
import json
import re
import sys
import warnings
from datetime import datetime, timezone
from itertools import islice
from zoneinfo import ZoneInfo

from dateutil.rrule import rrulestr, rruleset

# dateutil warns when COUNT and UNTIL (the horizon) meet; both bound the rule as intended.
warnings.simplefilter("ignore")
FLOATING = re.compile(r"^(DTSTART|EXDATE):(\d{8}T\d{6}(?:,\d{8}T\d{6})*)$", re.MULTILINE)
START_ZONE = re.compile(r"^DTSTART;TZID=([^:]+):", re.MULTILINE)


def pinned(text, zone):
    """The text with floating values in the zone they mean: DTSTART's or the household's."""
    start_zone = START_ZONE.search(text)
    start_is_utc = re.search(r"^DTSTART:\d{8}T\d{6}Z$", text, re.MULTILINE) is not None

    def pin(match):
        name, values = match.group(1), match.group(2)
        if name == "EXDATE" and start_is_utc:
            return "EXDATE:" + ",".join(value + "Z" for value in values.split(","))
        key = start_zone.group(1) if (name == "EXDATE" and start_zone) else zone
        return f"{name};TZID={key}:{values}"

    return FLOATING.sub(pin, text)


def expand(case):
    parsed = rrulestr(pinned(case["text"], case["zone"]), tzids=ZoneInfo, forceset=True, unfold=True)
    rule = parsed._rrule[0]
    start = rule._dtstart
    horizon = datetime(min(start.year + 400, 9999), 1, 1, tzinfo=start.tzinfo)
    bounded = rule.replace(until=min(rule._until, horizon) if rule._until else horizon)
    produced = next(iter(bounded.replace(count=None)), None)
    series = rruleset()
    if rule._count is None or produced == start:
        series.rrule(bounded)
    elif rule._count > 1:
        series.rrule(bounded.replace(count=rule._count - 1))
    series.rdate(start)
    for value in parsed._exdate:
        series.exdate(value)
    after = datetime.fromtimestamp(case["after"], timezone.utc)
    return {
        "first": [int(value.timestamp()) for value in islice(series, 60)],
        "later": [int(value.timestamp()) for value in islice(series.xafter(after, count=12, inc=True), 12)],
        "horizon": int(horizon.timestamp()),
    }


json.dump([expand(case) for case in json.load(sys.stdin)], sys.stdout)
