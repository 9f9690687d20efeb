#!/usr/bin/env python3
"""Writes a Loop Habit Tracker "Export as CSV" archive the way the app writes it, for tests and
measurements of `importLoopHabits`.

The shape follows Loop's own exporter, uhabits-core `io/HabitsCSVExporter.kt`,
`models/HabitList.kt` (`writeCSV`) and `models/Entry.kt` (`formattedValue`), github.com/iSoron/uhabits:

- `Habits.csv`: Position (`%03d`), Name, Type (`YES_NO`/`NUMERICAL`), Question, Description,
  FrequencyNumerator, FrequencyDenominator, Color, Unit, Target Type, Target Value (a Kotlin
  Double, `5.0`), Archived? -- written by opencsv's CSVWriter without quoting all fields: a field
  is quoted only when it holds a comma, a quote (doubled) or a line break; lines end in "\\n".
- A folder per habit, `"%03d %s".trim()` of its position and its name with all but
  `[ a-zA-Z0-9._-]` removed (cut to 100), holding `Scores.csv` and `Checkmarks.csv`: every
  known entry, newest first. Since June 2025 (`--format 2025`, the default) `Checkmarks.csv` has
  the header `Date,Value,Notes` and values named (`YES_MANUAL`, `YES_AUTO`, `NO`, `SKIP`,
  `UNKNOWN`) with the day's note; before (`--format 2021`) it has no header and `date,value`
  with the value as a number (`2`). A measurable habit's values are thousandths of its unit
  (`5000` is 5 km) in both.
- Top-level `Scores.csv` and `Checkmarks.csv`: `Date,` and every name followed by a comma (not
  quoted), then a line per day from today back to the oldest entry, each value followed by a comma.
- The zip (java.util.zip.ZipOutputStream, deflated) holds the files in the order they were
  written: `Habits.csv`, each habit's `Scores.csv` and `Checkmarks.csv`, then the top-level
  `Scores.csv` and `Checkmarks.csv`; no folder entries.

Usage: loop_export.py (--dir DIR | --zip FILE|-) [--format 2025|2021] [--preset fixture|years]
[--habits N] [--years N] [--today YYYY-MM-DD]. `fixture` is the tests' five habits over three
years (Tests/Fixtures/LoopHabitTracker); `years` is N habits over N years, for measuring.
"""

import argparse
import datetime
import io
import os
import random
import re
import sys
import zipfile

YES_MANUAL, YES_AUTO, NO, UNKNOWN, SKIP = 2, 1, 0, -1, 3
NAMES = {YES_MANUAL: "YES_MANUAL", YES_AUTO: "YES_AUTO", NO: "NO", SKIP: "SKIP", UNKNOWN: "UNKNOWN"}


class Habit:
    def __init__(self, name, question, numerator, denominator, color, description="", numerical=None, archived=False):
        self.name, self.question, self.description = name, question, description
        self.numerator, self.denominator, self.color = numerator, denominator, color
        self.numerical = numerical  # (unit, "AT_LEAST"/"AT_MOST", target) or None
        self.archived = archived
        self.entries = {}  # day -> (value, notes), as the user entered them

    def computed(self, day, first):
        """The computed entry of a day (EntryList.recomputeFrom): what the user entered, else
        YES_AUTO when the frequency is met by the days before it, else NO."""
        if day in self.entries:
            return self.entries[day]
        if self.numerical:
            return None
        window = [day - datetime.timedelta(days=offset) for offset in range(1, self.denominator)]
        done = sum(1 for other in window if other >= first and self.entries.get(other, (NO, ""))[0] == YES_MANUAL)
        return (YES_AUTO, "") if self.denominator > 1 and done >= self.numerator else (NO, "")


def csv_line(fields):
    """opencsv CSVWriter.writeNext(fields, false)."""
    def quoted(field):
        if any(mark in field for mark in ',"\n\r'):
            return '"' + field.replace('"', '""') + '"'
        return field
    return ",".join(quoted(field) for field in fields) + "\n"


def formatted(value, habit, named):
    if habit.numerical:
        return NAMES[value] if named and value in NAMES and value <= 0 else str(value)
    return NAMES[value] if named else str(value)


def fixture_habits(today):
    first = today - datetime.timedelta(days=1095)
    rng = random.Random(16)
    meditate = Habit("Meditate", "Did you meditate today?", 1, 1, "#FF8F00")
    reading = Habit("Read, then journal", "Did you read and journal?", 3, 7, "#43A047", description="Ten pages, one paragraph")
    floss = Habit("Floss", "Did you floss?", 1, 2, "#1E88E5")
    piano = Habit("Practise the Goldberg Variations", "Did you practise the piano this morning?", 1, 1, "#8E24AA", archived=True)
    run = Habit("Run", "How many km did you run?", 1, 7, "#E53935", numerical=("km", "AT_LEAST", 5.0))
    stretch = Habit("🧘" * 21, "Stretch?\nTen minutes", 1, 1, "#5E35B1")
    day = first
    while day <= today:
        weekday = day.weekday()
        if rng.random() < 0.74:
            meditate.entries[day] = (YES_MANUAL, "")
        elif rng.random() < 0.1:
            meditate.entries[day] = (SKIP, "")
        if weekday in (0, 2, 5) and rng.random() < 0.8 or rng.random() < 0.05:
            reading.entries[day] = (YES_MANUAL, "")
        if day.toordinal() % 2 == 0 and rng.random() < 0.9:
            floss.entries[day] = (YES_MANUAL, "")
        if weekday < 5 and rng.random() < 0.18:
            piano.entries[day] = (YES_MANUAL, "")
        if weekday == 6:
            run.entries[day] = (rng.choice([3000, 5000, 6000, 7500, 8000, 10000]), "")
        elif rng.random() < 0.04:
            run.entries[day] = (5000, "")
        if day >= today - datetime.timedelta(days=20) and rng.random() < 0.7:
            stretch.entries[day] = (YES_MANUAL, "")
        day += datetime.timedelta(days=1)
    notes = {
        datetime.date(2024, 3, 6): (meditate, "Felt calm, 20 min"),
        datetime.date(2023, 7, 15): (meditate, 'Used the "body scan"\nthen slept'),
        datetime.date(2024, 11, 2): (meditate, "A long sit in the park before work"),
        datetime.date(2024, 12, 25): (reading, "Dickens, by the fire"),
    }
    for day, (habit, note) in notes.items():
        habit.entries[day] = (YES_MANUAL, note)
    return [meditate, reading, floss, piano, run, stretch]


def years_habits(today, count, years):
    rng = random.Random(count * 1000 + years)
    first = today - datetime.timedelta(days=365 * years)
    habits = []
    for index in range(count):
        habit = Habit("Habit %d" % (index + 1), "Did you do it?", 1, 1, "#FF8F00")
        day = first
        while day <= today:
            if rng.random() < 0.8:
                habit.entries[day] = (YES_MANUAL, "Note %d" % day.day if rng.random() < 0.1 else "")
            day += datetime.timedelta(days=1)
        habits.append(habit)
    return habits


def files(habits, today, named):
    """The archive's files in the order HabitsCSVExporter writes them: (path, text)."""
    out = [("Habits.csv", csv_line(["Position", "Name", "Type", "Question", "Description", "FrequencyNumerator",
                                    "FrequencyDenominator", "Color", "Unit", "Target Type", "Target Value", "Archived?"])
            + "".join(csv_line([
                "%03d" % (index + 1), habit.name, "NUMERICAL" if habit.numerical else "YES_NO", habit.question, habit.description,
                str(habit.numerator), str(habit.denominator), habit.color,
                habit.numerical[0] if habit.numerical else "", habit.numerical[1] if habit.numerical else "",
                repr(float(habit.numerical[2])) if habit.numerical else "", "true" if habit.archived else "false"])
                for index, habit in enumerate(habits)))]
    oldest_all = min(min(habit.entries) for habit in habits if habit.entries)
    columns = []
    for index, habit in enumerate(habits):
        first = min(habit.entries) if habit.entries else today
        days = [today - datetime.timedelta(days=offset) for offset in range((today - first).days + 1)]
        known = [(day, habit.computed(day, first)) for day in days]
        known = [(day, entry) for day, entry in known if entry is not None]
        folder = ("%03d %s" % (index + 1, re.sub(r"[^ a-zA-Z0-9._-]+", "", habit.name)[:100])).strip() + "/"
        scores = "".join(csv_line([day.isoformat(), "%.4f" % (0.5)]) for day in days)
        if named:
            scores = csv_line(["Date", "Score"]) + scores
            checkmarks = csv_line(["Date", "Value", "Notes"]) + "".join(
                csv_line([day.isoformat(), formatted(value, habit, True), note]) for day, (value, note) in known)
        else:
            checkmarks = "".join("%s,%d\n" % (day.isoformat(), value) for day, (value, _) in known)
        out += [(folder + "Scores.csv", scores), (folder + "Checkmarks.csv", checkmarks)]
        columns.append({day: formatted(entry[0], habit, named) for day, entry in known})
    header = "Date," + "".join(habit.name + "," for habit in habits) + "\n"
    days = [today - datetime.timedelta(days=offset) for offset in range((today - oldest_all).days + 1)]
    top_checks = header + "".join(
        day.isoformat() + "," + "".join(column.get(day, "UNKNOWN" if named else "-1") + "," for column in columns) + "\n" for day in days)
    top_scores = header + "".join(day.isoformat() + "," + "0.5000," * len(habits) + "\n" for day in days)
    return out + [("Scores.csv", top_scores), ("Checkmarks.csv", top_checks)]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    target = parser.add_mutually_exclusive_group(required=True)
    target.add_argument("--dir")
    target.add_argument("--zip")
    parser.add_argument("--format", choices=["2025", "2021"], default="2025")
    parser.add_argument("--preset", choices=["fixture", "years"], default="fixture")
    parser.add_argument("--habits", type=int, default=10)
    parser.add_argument("--years", type=int, default=5)
    parser.add_argument("--today", default="2024-12-31")
    arguments = parser.parse_args()
    today = datetime.date.fromisoformat(arguments.today)
    habits = fixture_habits(today) if arguments.preset == "fixture" else years_habits(today, arguments.habits, arguments.years)
    written = files(habits, today, arguments.format == "2025")
    if arguments.dir:
        for path, text in written:
            os.makedirs(os.path.dirname(os.path.join(arguments.dir, path)), exist_ok=True)
            with open(os.path.join(arguments.dir, path), "w", encoding="utf-8", newline="") as file:
                file.write(text)
        return
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path, text in written:
            archive.writestr(zipfile.ZipInfo(path, date_time=(2025, 1, 1, 0, 0, 0)), text.encode("utf-8"), zipfile.ZIP_DEFLATED)
    if arguments.zip == "-":
        sys.stdout.buffer.write(buffer.getvalue())
    else:
        with open(arguments.zip, "wb") as file:
            file.write(buffer.getvalue())


if __name__ == "__main__":
    main()
