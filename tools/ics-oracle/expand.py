"""Python's `icalendar` and `recurring_ical_events` as the oracle of Hearth's calendar import
(HearthDomainTests' CalendarImportOracleTests): reads a JSON list of cases on standard input,
each {"path": an .ics file, "zone": the reader's IANA zone, "from": and "to": seconds since
1970}, and writes, for each case, the occurrences recurring_ical_events finds in that range,
sorted: {"uid", "start", "end"} with seconds since 1970 for timed events (floating times read in
the case's zone) and "YYYY-MM-DD" days for whole-day events.

recurring_ical_events compares floating times and days with the range as if they were in the
range's zone; Hearth reads them in the reader's zone. So the range is widened by two days for
the library and each occurrence kept when it overlaps the range as Hearth reads it (an instant
event at the range's start included).
"""
import json
import sys
from datetime import date, datetime, time, timedelta, timezone
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


def instant(moment, zone):
    """Seconds since 1970 of a date and time (naive: in `zone`) or of a day's start in `zone`."""
    if not isinstance(moment, datetime):
        moment = datetime.combine(moment, time(), tzinfo=zone)
    elif moment.tzinfo is None:
        moment = moment.replace(tzinfo=zone)
    return int(moment.timestamp())


def overlaps(first, last, case):
    return first < case["to"] and (last > case["from"] or (last == first and first >= case["from"]))


def expand(case):
    zone = ZoneInfo(case["zone"])
    with open(case["path"], "rb") as file:
        calendar = icalendar.Calendar.from_ical(file.read())
    start = datetime.fromtimestamp(case["from"], timezone.utc) - timedelta(days=2)
    end = datetime.fromtimestamp(case["to"], timezone.utc) + timedelta(days=2)
    found = []
    for event in recurring_ical_events.of(calendar).between(start, end):
        if str(event.get("STATUS", "")).upper() == "CANCELLED":
            continue
        first = event["DTSTART"].dt
        last = event["DTEND"].dt if "DTEND" in event else first
        if not overlaps(instant(first, zone), instant(last, zone), case):
            continue
        found.append({"uid": str(event["UID"]), "start": value(first, zone), "end": value(last, zone)})
    return sorted(found, key=lambda item: (str(item["start"]), item["uid"]))


print(json.dumps([expand(case) for case in json.load(sys.stdin)]))
