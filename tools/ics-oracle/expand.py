"""Python's `icalendar` and `recurring_ical_events` as the oracle of Hearth's calendar import
(HearthDomainTests' CalendarImportOracleTests): reads a JSON list of cases on standard input,
each {"path": an .ics file, "zone": the reader's IANA zone, "from": and "to": seconds since
1970}, and writes, for each case, the occurrences recurring_ical_events finds in that range,
sorted: {"uid", "start", "end"} with seconds since 1970 for timed events (floating times read in
the case's zone) and "YYYY-MM-DD" days for whole-day events.
"""
import json
import sys
from datetime import date, datetime, timezone
from zoneinfo import ZoneInfo

import icalendar
import recurring_ical_events


def value(moment, zone):
    """Seconds since 1970 for a date and time (naive: in `zone`), the ISO day for a date."""
    if isinstance(moment, datetime):
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=zone)
        return int(moment.timestamp())
    return moment.isoformat()


def expand(case):
    zone = ZoneInfo(case["zone"])
    with open(case["path"], "rb") as file:
        calendar = icalendar.Calendar.from_ical(file.read())
    start = datetime.fromtimestamp(case["from"], timezone.utc)
    end = datetime.fromtimestamp(case["to"], timezone.utc)
    found = []
    for event in recurring_ical_events.of(calendar).between(start, end):
        if str(event.get("STATUS", "")).upper() == "CANCELLED":
            continue
        first = event["DTSTART"].dt
        last = event["DTEND"].dt if "DTEND" in event else first
        found.append({"uid": str(event["UID"]), "start": value(first, zone), "end": value(last, zone)})
    return sorted(found, key=lambda item: (str(item["start"]), item["uid"]))


print(json.dumps([expand(case) for case in json.load(sys.stdin)]))
