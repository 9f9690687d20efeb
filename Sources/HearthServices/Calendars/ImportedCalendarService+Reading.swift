import FoundationEssentials
import HearthDomain
import HearthStore

extension ImportedCalendarService {
    /// The occurrences of `viewer`'s imported events overlapping `from` ..< `to`, sorted by start
    /// (``importedEvents(of:from:to:)``).
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `to` (`OUT_OF_RANGE`) when it is not after
    ///   `from`, and (`TOO_LARGE`, `extensions.limit`) when more than `--calendar-max-occurrences`
    ///   occurrences fall in the range.
    public func importedEvents(for viewer: Viewer, from: Date, to: Date) async throws -> [ImportedOccurrence] {
        guard to > from else {
            throw ServiceError.invalid(InputProblems([FieldProblem(field: "to", reason: .outOfRange, message: "The range ends after it starts.")]))
        }
        return try await pool.readPreferringCallingThread { [self] database in
            try importedEvents(of: OwnerScope(Owner(viewer), database), from: from, to: to)
        }
    }

    /// The occurrences of `owner`'s imported events overlapping `from` ..< `to`, sorted by start
    /// then UID, expanded in the owner's time zone (`User.timeZone`, UTC when unset): for the
    /// calendar view and for whatever needs someone's schedule inside a transaction of its own.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `to` (`TOO_LARGE`, `extensions.limit`) past
    ///   ``CalendarFileLimits/maximumOccurrences`` in all; ``StoreError``.
    func importedEvents(of owner: OwnerScope, from: Date, to: Date) throws -> [ImportedOccurrence] {
        let zone = try HabitService.timeZone(of: owner)
        var rowsByCalendar: [String: (timeZones: String, events: [(id: String, content: String)])] = [:]
        try owner.forEachRow(
            """
            SELECT c.id, c.time_zones, e.id, e.content FROM imported_calendars c JOIN imported_events e ON e.calendar_id = c.id
            WHERE c.user_id = {owner} AND e.user_id = {owner} ORDER BY c.id, e.id
            """
        ) { row in
            let calendarID: String = try row[0]
            let timeZones: String = try row[1]
            let event: (id: String, content: String) = (try row[2], try row[3])
            rowsByCalendar[calendarID, default: (timeZones, [])].events.append(event)
        }
        var found: [ImportedOccurrence] = []
        for (calendarID, stored) in rowsByCalendar.sorted(by: { $0.key < $1.key }) {
            let file: CalendarFile
            let occurrences: [CalendarOccurrence]
            do {
                (file, occurrences) = try Self.expand(stored, from: from, to: to, zone: zone, limit: limits.maximumOccurrences - found.count)
            } catch {
                // Stored text parsed when it was imported: only the limit can refuse it now.
                throw error.code == .limitExceeded ? tooManyOccurrences() : error
            }
            // Events are stored one per UID and RECURRENCE-ID, in the order read.
            var ids: [String: String] = [:]
            for (event, row) in zip(file.events, stored.events) { ids[event.uid + "\n" + event.recurrenceKey] = row.id }
            for occurrence in occurrences {
                let id = ids[occurrence.uid + "\n" + occurrence.recurrenceKey] ?? ""
                found.append(ImportedOccurrence(eventID: id, calendarID: calendarID, occurrence: occurrence))
            }
        }
        return found.sorted { ($0.occurrence.start, $0.occurrence.uid) < ($1.occurrence.start, $1.occurrence.uid) }
    }

    /// The calendar stored as `stored` and its occurrences in the range.
    private static func expand(
        _ stored: (timeZones: String, events: [(id: String, content: String)]), from: Date, to: Date, zone: TimeZoneRules, limit: Int
    ) throws(RecurrenceError) -> (CalendarFile, [CalendarOccurrence]) {
        let file = try CalendarFile.parse(stored: stored.timeZones, events: stored.events.map(\.content))
        return (file, try file.occurrences(from: from, to: to, timeZone: zone, limit: limit))
    }

    /// The periods in which `owner` is busy by their imported calendars between `from` and `to`:
    /// the busy occurrences (not TRANSP:TRANSPARENT, not cancelled) merged where they overlap or
    /// touch, sorted. For reminders that wait for free time (FR-50A/B).
    /// - Throws: as ``importedEvents(of:from:to:)``.
    func busyPeriods(of owner: OwnerScope, from: Date, to: Date) throws -> [BusyPeriod] {
        BusyPeriod.merging(try importedEvents(of: owner, from: from, to: to).map(\.occurrence))
    }

    private func tooManyOccurrences() -> ServiceError {
        let message = "More than \(limits.maximumOccurrences) imported events fall in this range; ask for a shorter one."
        var error = ServiceError(.badUserInput, message, problems: [FieldProblem(field: "to", reason: .tooLarge, message: message)])
        error.limit = limits.maximumOccurrences
        return error
    }
}
