import FoundationEssentials
import Support

/// A chore's recurrence: the RFC 5545 text calendar apps and rrule.js write, a `DTSTART`, an
/// `RRULE` and optional `EXDATE` lines, parsed once and expanded into due times.
///
/// ```text
/// DTSTART;TZID=Europe/Berlin:20260329T023000
/// RRULE:FREQ=MONTHLY;BYDAY=-1FR;COUNT=12
/// EXDATE;TZID=Europe/Berlin:20260424T023000
/// ```
///
/// **What is accepted.** `FREQ` (DAILY, WEEKLY, MONTHLY, YEARLY), `INTERVAL`, `COUNT` or
/// `UNTIL`, `BYMONTH`, `BYMONTHDAY` (negative counts from the month's end), `BYDAY` (with
/// ordinals such as `-1FR` in MONTHLY and YEARLY rules), `BYSETPOS` and `WKST`; anything else
/// is a ``RecurrenceError`` naming the part. `DTSTART` with `TZID` is local time in that zone,
/// with a trailing `Z` UTC, with neither local time in the caller's default zone (the
/// household's). EXDATE values take the same three forms; one without either is local time in
/// DTSTART's zone. UNTIL is UTC with `Z`, else local time in DTSTART's zone; a bare date means
/// "through that day". Lines end in CRLF or LF, may be folded (RFC 5545 §3.1), and names are
/// case-insensitive. ``RecurrenceLimits`` bounds the text and the EXDATE values.
///
/// **What it means** (RFC 5545 §3.3.10 and §3.8.5, checked against python-dateutil):
/// - Every occurrence is at DTSTART's wall-clock time, which stays put across daylight saving
///   changes: 09:00 is 09:00 in summer and in winter.
/// - DTSTART is always the first occurrence and counts towards COUNT, even when the rule
///   would not produce it (RFC 5545; python-dateutil and rrule.js leave such a DTSTART out).
/// - Dates that do not exist are skipped: BYMONTHDAY=31 skips 30-day months, February 29
///   occurs in leap years only.
/// - A wall-clock time that does not exist (a spring-forward gap) takes the offset in force
///   before the gap, as RFC 5545 §3.3.5 reads a DATE-TIME: 02:30 on the day Berlin springs
///   forward is 03:30 CEST. One that exists twice (falling back) is its first occurrence. This
///   is how python-dateutil with `zoneinfo` (`fold=0`) and calendar apps read them; a chore never
///   vanishes on DST day.
/// - Two wall-clock times that name the same instant (Samoa's skipped 30 December 2011: 30
///   December at 10:00 is 31 December at 10:00) are one occurrence. COUNT counts what the rule
///   generates, as python-dateutil does, so such a pair takes two of it.
/// - UNTIL is inclusive and compares instants; EXDATE removes the instants it names.
/// - A rule that can never match again (`FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30`) ends: the
///   search stops after 400 × INTERVAL years without a candidate (the Gregorian calendar,
///   weekdays included, repeats every 400 years, so none can come later), and at the end of
///   year 9999 (python-dateutil's limit too). Expanding a rule therefore always ends.
///
/// Time zones come from the system's database through ``TimeZoneRules``, and dates are
/// computed with integer civil-date arithmetic, not `Calendar`: expanding 10,000 rules a year
/// ahead takes a few milliseconds (`tools/bench/chores`).
public struct RecurrenceRule: Sendable, Hashable {
    /// The canonical text: DTSTART, RRULE and EXDATE lines separated by LF, names upper-case,
    /// RRULE parts in a fixed order with sorted lists and defaults left out, EXDATE values
    /// sorted and grouped by zone. Parsing it again gives an equal rule.
    public var text: String { Self.canonicalText(start: dtstart, pattern: pattern, exceptions: exceptionTimes) }
    /// The zone of DTSTART's wall clock: its TZID, UTC, or the default zone.
    public let timeZone: TimeZoneRules

    /// The RRULE as written.
    let pattern: RecurrencePattern
    /// The EXDATE values as written, sorted and without repeats.
    let exceptionTimes: [ICalendarTime]
    let plan: RecurrencePlan
    /// DTSTART as written.
    let dtstart: ICalendarTime
    let startInstant: Int
    let count: Int?
    let untilInstant: Int?
    /// The instants EXDATE removes, sorted.
    let exceptions: [Int]
    /// DTSTART's month (``CivilCalendar/monthIndex(year:month:)``) and year, and the first
    /// day of its week (from WKST): where the periods are counted from.
    let startMonthIndex: Int
    let startYear: Int
    let firstWeekStart: Int

    init(
        timeZone: TimeZoneRules, pattern: RecurrencePattern, start: ICalendarTime, untilInstant: Int?, exceptionTimes: [ICalendarTime],
        exceptions: [Int]
    ) {
        self.timeZone = timeZone
        self.pattern = pattern
        self.exceptionTimes = exceptionTimes
        dtstart = start
        var hint = -1
        startInstant = timeZone.instant(forLocal: start.localSeconds, hint: &hint)
        count = pattern.count
        self.untilInstant = untilInstant
        self.exceptions = exceptions
        plan = RecurrencePlan(pattern, startDayNumber: start.dayNumber)
        let date = CivilCalendar.date(fromDayNumber: start.dayNumber)
        startMonthIndex = CivilCalendar.monthIndex(year: date.year, month: date.month)
        startYear = date.year
        firstWeekStart = start.dayNumber - (CivilCalendar.weekday(ofDayNumber: start.dayNumber) - pattern.weekStart + 7) % 7
    }

    /// DTSTART, the first occurrence (unless an EXDATE removes it).
    public var start: Date { Date(timeIntervalSince1970: Double(startInstant)) }

    /// The next `limit` due times at or after `after`, in order, honouring COUNT, UNTIL and
    /// EXDATE; fewer when the series ends first.
    public func occurrences(after: Date, limit: Int) -> [Date] {
        occurrences(from: Self.seconds(roundingUp: after), before: .max, limit: limit)
    }

    /// The due times at or after `after` and before `before`, in order, at most `limit` of them
    /// (for planning up to a horizon).
    public func occurrences(after: Date, before: Date, limit: Int) -> [Date] {
        occurrences(from: Self.seconds(roundingUp: after), before: Self.seconds(roundingUp: before), limit: limit)
    }

    private func occurrences(from: Int, before end: Int, limit: Int) -> [Date] {
        guard limit > 0 else { return [] }
        // Two days of margin: the walk starts in the period holding that local day, and an
        // offset change moves a wall-clock time by less.
        let day = CivilCalendar.floorDivide(from + timeZone.offset(atInstant: from), CivilCalendar.secondsPerDay) - 2
        var expander = RecurrenceExpander(self, fromDay: day)
        var dates: [Date] = []
        dates.reserveCapacity(min(limit, 64))
        while dates.count < limit, let instant = expander.next(), instant < end {
            if instant >= from { dates.append(Date(timeIntervalSince1970: Double(instant))) }
        }
        return dates
    }

    /// The latest instant an occurrence can start at: UNTIL, or the last of the COUNT occurrences;
    /// `nil` for a rule that goes on, and for a COUNT above ``largestCountExpandedForLastStart``
    /// (read as going on rather than expanded).
    public var lastStart: Date? {
        if let untilInstant { return Date(timeIntervalSince1970: Double(untilInstant)) }
        guard let count, count <= Self.largestCountExpandedForLastStart else { return nil }
        return occurrences(from: startInstant, before: .max, limit: count).last ?? start
    }

    /// The largest COUNT ``lastStart`` expands (a few milliseconds of work at most).
    public static let largestCountExpandedForLastStart = 10_000

    /// Whether `date` is one of the due times.
    public func isOccurrence(_ date: Date) -> Bool {
        occurrences(after: date, limit: 1).first == date
    }

    /// Whole seconds since 1970 at or after `date`, within a range no occurrence leaves.
    private static func seconds(roundingUp date: Date) -> Int {
        let seconds = date.timeIntervalSince1970
        guard !seconds.isNaN else { return -limit }
        return Int(min(max(seconds.rounded(.up), -Double(limit)), Double(limit)))
    }

    /// Far beyond year 9999 either way, and far from overflowing.
    private static let limit = 1 << 40

    /// Rules are equal when their canonical texts are, in the same zone (a floating DTSTART
    /// means another rule in another default zone).
    public static func == (left: RecurrenceRule, right: RecurrenceRule) -> Bool {
        left.pattern == right.pattern && left.dtstart == right.dtstart && left.exceptionTimes == right.exceptionTimes
            && left.timeZone.identifier == right.timeZone.identifier
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(pattern)
        hasher.combine(dtstart)
        hasher.combine(exceptionTimes)
    }
}
