import FoundationEssentials
import Support

extension CalendarFile {
    /// The occurrences of the events that overlap `from` ..< `to` (an instant event at `from`
    /// included), sorted by start, then UID.
    ///
    /// A series expands with the chores' recurrence engine (``RecurrenceRule``: DTSTART is the
    /// first occurrence, wall-clock times stay put across daylight saving changes), adds its
    /// RDATE values, drops its EXDATE values and the occurrences an override replaces; each
    /// occurrence lasts as long as the first, on the wall clock. An override with
    /// `RANGE=THISANDFUTURE` also governs the later occurrences (up to the next such override):
    /// each moves by the override's shift from its RECURRENCE-ID, lasts as long as the override
    /// and takes its title, location and transparency (RFC 5545 §3.8.4.4, as Python's
    /// `recurring_ical_events` reads it). Floating times and whole days
    /// are read in `timeZone`, the reader's. A cancelled event has no occurrences (a cancelled
    /// series, none of its overrides either).
    ///
    /// - Throws: ``RecurrenceError`` `LIMIT_EXCEEDED` when more than `limit` occurrences fall in
    ///   the range.
    public func occurrences(from: Date, to: Date, timeZone: TimeZoneRules, limit: Int) throws(RecurrenceError) -> [CalendarOccurrence] {
        // Seconds, within a span no occurrence leaves (NaN reads as its end).
        func seconds(_ date: Date) -> Int {
            let value = date.timeIntervalSince1970
            return value.isNaN ? 1_000_000_000_000 : Int(max(min(value, 1e12), -1e12).rounded(.up))
        }
        let start = seconds(from)
        let end = seconds(to)
        guard end > start else { return [] }
        let range = start..<end
        let reader = OccurrenceReader(zones: zones, viewerZone: timeZone)
        let masters = Dictionary(events.filter { $0.recurrenceID == nil }.map { ($0.uid, $0) }, uniquingKeysWith: { first, _ in first })
        var overridden: [String: Set<Int>] = [:]
        // Per UID, the RANGE=THISANDFUTURE overrides by the anchor of their RECURRENCE-ID.
        var futureOverrides: [String: [(anchor: Int, event: CalendarEvent)]] = [:]
        var found: [CalendarOccurrence] = []
        func add(_ occurrence: CalendarOccurrence) throws(RecurrenceError) {
            guard Int(occurrence.start.timeIntervalSince1970) < range.upperBound,
                Int(occurrence.end.timeIntervalSince1970) > range.lowerBound
                    || (occurrence.end == occurrence.start && Int(occurrence.start.timeIntervalSince1970) >= range.lowerBound)
            else { return }
            found.append(occurrence)
            guard found.count <= limit else {
                throw RecurrenceError(
                    code: .limitExceeded, part: nil, message: "More than \(limit) imported events fall in this range; ask for a shorter one.")
            }
        }
        for event in events {
            guard let recurrenceID = event.recurrenceID else { continue }
            let anchor = reader.anchor(recurrenceID)
            overridden[event.uid, default: []].insert(anchor)
            if event.isThisAndFuture { futureOverrides[event.uid, default: []].append((anchor, event)) }
            if let master = masters[event.uid], master.isCancelled { continue }
            guard !event.isCancelled else { continue }
            try add(reader.occurrence(of: event, at: reader.anchor(event.start), recurrenceID: anchor))
        }
        for event in masters.values where !event.isCancelled {
            let replaced = overridden[event.uid] ?? []
            let governing = (futureOverrides[event.uid] ?? []).sorted { $0.anchor < $1.anchor }
            // Occurrences a THISANDFUTURE override moves may come from before the range.
            let reach = governing.map { abs(reader.anchor($0.event.start) - $0.anchor) }.max() ?? 0
            let searched = (range.lowerBound - reach)..<(range.upperBound + reach)
            for anchor in reader.anchors(of: event, in: searched, limit: limit + 1) where !replaced.contains(anchor) {
                // The latest THISANDFUTURE override before this occurrence governs it: its shift, length and properties.
                guard let (overrideAnchor, override) = governing.last(where: { $0.anchor < anchor }) else {
                    try add(reader.occurrence(of: event, at: anchor, recurrenceID: event.isRecurring ? anchor : nil))
                    continue
                }
                guard !override.isCancelled else { continue }
                let shifted = anchor + reader.anchor(override.start) - overrideAnchor
                try add(reader.occurrence(of: override, at: shifted, recurrenceID: anchor))
            }
        }
        return found.sorted { ($0.start, $0.uid) < ($1.start, $1.uid) }
    }
}

/// Turns events' values into instants for one reader.
///
/// An *anchor* is what identifies an occurrence's start: for a timed value, its instant; for a
/// whole day, the day number × 86,400 (midnight UTC), so series of days expand in UTC without
/// daylight saving and only become instants, in the reader's zone, at the end.
private struct OccurrenceReader {
    let zones: [String: TimeZoneRules]
    let viewerZone: TimeZoneRules

    /// The zone a value's form names; floating values are the reader's.
    func zone(_ form: ICalendarTime.Form) -> TimeZoneRules {
        switch form {
        case .utc: .utc
        case .floating: viewerZone
        case .zone(let name): zones[name] ?? viewerZone
        }
    }

    func anchor(_ value: ICalendarTimeValue) -> Int {
        switch value {
        case .date(let day): return day * CivilCalendar.secondsPerDay
        case .dateTime(let time):
            var hint = -1
            return zone(time.form).instant(forLocal: time.localSeconds, hint: &hint)
        }
    }

    /// The zone a series walks in, and its DTSTART as that zone's wall-clock reading.
    private func series(_ event: CalendarEvent) -> (zone: TimeZoneRules, start: ICalendarTime) {
        switch event.start {
        case .date(let day): (.utc, ICalendarTime(dayNumber: day, secondOfDay: 0, form: .floating))
        case .dateTime(let time): (zone(time.form), time)
        }
    }

    /// The anchors of `event`'s occurrences that may overlap `range`, without its EXDATE values.
    func anchors(of event: CalendarEvent, in range: Range<Int>, limit: Int) -> [Int] {
        let (seriesZone, start) = series(event)
        // Wide enough for any occurrence that overlaps: back by its length and two days (zones
        // and whole days read in another zone), forward by two days.
        let margin = 2 * CivilCalendar.secondsPerDay
        let low = range.lowerBound - maximumLength(of: event) - margin
        let high = range.upperBound + margin
        var anchors: [Int]
        if let pattern = event.pattern {
            let rule = RecurrenceRule(
                timeZone: seriesZone, pattern: pattern, start: start, untilInstant: RecurrenceRule.untilInstant(of: pattern, in: seriesZone),
                exceptionTimes: [], exceptions: [])
            anchors = rule.occurrences(
                after: Date(timeIntervalSince1970: Double(low)), before: Date(timeIntervalSince1970: Double(high)), limit: limit
            ).map { Int($0.timeIntervalSince1970) }
        } else {
            anchors = [anchor(event.start)].filter { (low..<high).contains($0) }
        }
        anchors += event.extraStarts.map(anchor).filter { (low..<high).contains($0) }
        let excluded = Set(event.exceptions.map(anchor))
        return Array(Set(anchors).subtracting(excluded)).sorted()
    }

    /// The most an occurrence of `event` may last, in seconds, whatever the zone.
    private func maximumLength(of event: CalendarEvent) -> Int {
        switch event.end {
        case .duration(let seconds): seconds + 3600 * 3
        case .time(let end): abs(anchor(end) - anchor(event.start)) + CivilCalendar.secondsPerDay
        }
    }

    /// The occurrence of `event` whose start's anchor is `anchor`.
    func occurrence(of event: CalendarEvent, at anchor: Int, recurrenceID: Int?) -> CalendarOccurrence {
        let (seriesZone, _) = series(event)
        var hint = -1
        // The start as a wall-clock reading of the series' zone, and the end the same length after.
        let startLocal = anchor + seriesZone.offset(atInstant: anchor)
        let endLocal: Int
        var absoluteEnd: Int?
        switch event.end {
        case .duration(let seconds): endLocal = startLocal + seconds
        case .time(let end):
            switch (event.start, end) {
            case (.dateTime(let first), .dateTime(let last)) where first.form != last.form:
                // Ends in another zone: the same length in seconds.
                endLocal = startLocal
                absoluteEnd = anchor + self.anchor(end) - self.anchor(event.start)
            case (.dateTime(let first), .dateTime(let last)): endLocal = startLocal + last.localSeconds - first.localSeconds
            case (.date(let first), .date(let last)): endLocal = startLocal + (last - first) * CivilCalendar.secondsPerDay
            default: endLocal = startLocal
            }
        }
        let start: Int
        let end: Int
        var firstDay: CalendarDay?
        var endDay: CalendarDay?
        if event.isAllDay {
            // Days become instants in the reader's zone.
            start = viewerZone.instant(forLocal: startLocal, hint: &hint)
            end = viewerZone.instant(forLocal: endLocal, hint: &hint)
            firstDay = CalendarDay(dayNumber: CivilCalendar.floorDivide(startLocal, CivilCalendar.secondsPerDay))
            endDay = CalendarDay(dayNumber: CivilCalendar.floorDivide(endLocal + CivilCalendar.secondsPerDay - 1, CivilCalendar.secondsPerDay))
        } else {
            start = anchor
            end = absoluteEnd ?? seriesZone.instant(forLocal: endLocal, hint: &hint)
        }
        // A whole-day series' ids are days too, read in the reader's zone.
        let recurrenceDate = recurrenceID.map { id in
            Date(timeIntervalSince1970: Double(event.isAllDay ? viewerZone.instant(forLocal: id, hint: &hint) : id))
        }
        return CalendarOccurrence(
            uid: event.uid, recurrenceKey: event.recurrenceKey, summary: event.summary, location: event.location, start: Date(timeIntervalSince1970: Double(start)),
            end: Date(timeIntervalSince1970: Double(max(start, end))), isAllDay: event.isAllDay, isBusy: event.isBusy, firstDay: firstDay,
            endDay: endDay, recurrenceID: recurrenceDate)
    }
}
