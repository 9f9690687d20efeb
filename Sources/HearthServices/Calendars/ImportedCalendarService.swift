import FoundationEssentials
import HearthDomain
import HearthStore
import Support
import Synchronization

/// Calendars imported from .ics files or subscribed to as feed URLs (FR-61, README "Imported
/// calendars" and "Calendar feeds"): each is one user's, read-only, shown in their calendar and
/// counted as their busy time. Feeds are fetched and refreshed in `+Feeds`.
///
/// An import parses the file (``CalendarFile``: line-numbered refusals, ``CalendarFileLimits``)
/// on a worker pool, never on an event loop, then stores it in one transaction: a calendar of
/// that name (regardless of case) is created, or has its events replaced. Events are matched by
/// UID and RECURRENCE-ID, so importing the same file again changes nothing but the import time,
/// and an event found again keeps its id. Events are stored as their iCalendar text and expanded
/// when read (``importedEvents(of:from:to:)``), in the reader's current time zone.
public final class ImportedCalendarService: Sendable {
    /// Where calendars are stored, and changes recorded (``EventKind/importedCalendarImported``).
    public let households: HouseholdService
    /// The bounds on files and reads (`--calendar-import-max-bytes`, `--calendar-import-max-events`,
    /// `--calendar-max-occurrences`).
    public let limits: CalendarFileLimits
    /// The settings of feeds (`--calendar-feed-*`).
    public let feeds: CalendarFeedConfiguration
    let workers: WorkerPool
    /// Where feed refreshes are scheduled.
    let jobs: JobQueue
    /// Tells a user their feed is dead.
    let notifier: Notifier
    /// Whose turn it is to fetch from each feed host (`--calendar-feed-host-interval`).
    let hostTurns: Mutex<FeedHostTurns>

    /// A service storing through `households`' pool, parsing uploaded files on `workers`,
    /// refreshing feeds through `jobs`.
    public init(
        households: HouseholdService, limits: CalendarFileLimits, feeds: CalendarFeedConfiguration = CalendarFeedConfiguration(),
        workers: WorkerPool, jobs: JobQueue, notifier: Notifier
    ) {
        self.households = households
        self.limits = limits
        self.feeds = feeds
        self.workers = workers
        self.jobs = jobs
        self.notifier = notifier
        hostTurns = Mutex(FeedHostTurns(interval: feeds.hostInterval))
    }

    /// The job refreshing feeds, to register with the scheduler, logging each refresh on `logger`.
    public func refreshJob(logger: Logger) -> CalendarFeedRefreshJob { CalendarFeedRefreshJob(calendars: self, logger: logger) }

    var pool: any DatabaseWriter { households.pool }

    /// The mutation name under which replays of imports are kept.
    static let importMutation = "importCalendar"

    /// Imports `file` as `viewer`'s calendar `name`, creating it or replacing its events.
    /// A `clientMutationId` makes a replay return the first result and change nothing.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT`: on `input.name` as names are checked
    ///   (`REQUIRED`, `TOO_LONG`, `INVALID_FORMAT`); on `input.file`, `TOO_LARGE` (with
    ///   `extensions.limit`) past the byte or event limit, `INVALID_FORMAT` for a file the parser
    ///   refuses, `UNKNOWN_VALUE` for a TZID it cannot resolve, each with `extensions.line` and a
    ///   message naming the line; `UNAVAILABLE` when the import workers are all busy.
    public func importCalendar(name given: String, file: [UInt8], for viewer: Viewer, clientMutationID: String?) async throws -> ImportedCalendar {
        let name: String
        do {
            name = try DisplayText.name(given, field: "input.name")
        } catch {
            throw ServiceError.invalid(InputProblems([error]))
        }
        guard file.count <= limits.maximumBytes else {
            throw Self.refusal(.tooLarge, "A calendar file has at most \(limits.maximumBytes) bytes; this one has \(file.count).", limit: limits.maximumBytes)
        }
        let parsed: CalendarFile
        do {
            parsed = try await workers.run { [limits] in try CalendarFile.parse(file, limits: limits) }
        } catch is WorkerPoolError {
            throw ServiceError(.unavailable, "The server is busy importing other calendars; try again in a minute.")
        } catch let error as RecurrenceError {
            throw Self.refusal(error, limits: limits)
        }
        let now = households.clock.storedNow
        return try await households.mutate(Self.importMutation, by: viewer, replaying: clientMutationID, at: now) { [households] database in
            let owner = OwnerScope(Owner(viewer), database)
            let calendar = try Self.store(parsed, name: name, in: owner, at: now)
            try households.changeLog.record(
                topic: .user(viewer.userID), kind: .importedCalendarImported,
                payload: ImportedCalendarChange(calendarID: calendar.id, userID: viewer.userID), in: database)
            return calendar
        }
    }

    /// Creates or updates the calendar `name` of `owner` with the events of `file`.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `input.name` (`TAKEN`) when a feed or a Google calendar has the name.
    private static func store(_ file: CalendarFile, name: String, in owner: OwnerScope, at now: Date) throws -> ImportedCalendar {
        let key = DisplayText.sortKey(name)
        let calendarID: String
        if let existing = try owner.decodeOne(
            ImportedCalendar.self, "SELECT \(ImportedCalendar.columns) FROM imported_calendars WHERE user_id = {owner} AND name_key = ?", [key])
        {
            guard existing.sourceURL == nil, existing.googleCalendarID == nil else { throw nameTaken }
            calendarID = existing.id
            try owner.execute(
                "UPDATE imported_calendars SET name = ? WHERE id = ? AND user_id = {owner}", [name, calendarID])
        } else {
            calendarID = GlobalID.make(.importedCalendar, now: now).rawValue
            try owner.execute(
                """
                INSERT INTO imported_calendars (id, user_id, name, name_key, time_zones, event_count, created_at, imported_at)
                VALUES (?, {owner}, ?, ?, '', 0, ?, ?)
                """, [calendarID, name, key, now, now])
        }
        try storeEvents(of: file, into: calendarID, owner, at: now)
        return try calendar(calendarID, owner)!
    }

    /// The refusal of a name another calendar (a feed or a Google calendar, which an upload cannot replace) has.
    static let nameTaken = ServiceError.invalid(InputProblems([FieldProblem(
        field: "input.name", reason: .taken, message: "You have a calendar feed or Google calendar of this name; choose another name or delete it.")]))

    /// `owner`'s calendar `id`, or nil.
    static func calendar(_ id: String, _ owner: OwnerScope) throws -> ImportedCalendar? {
        try owner.decodeOne(ImportedCalendar.self, "SELECT \(ImportedCalendar.columns) FROM imported_calendars WHERE id = ? AND user_id = {owner}", [id])
    }

    /// Replaces the events of `owner`'s calendar `calendarID` with those of `file` (an event found
    /// again by UID and RECURRENCE-ID keeps its id), with its zones, count and skipped events.
    static func storeEvents(of file: CalendarFile, into calendarID: String, _ owner: OwnerScope, at now: Date) throws {
        let skipped = String(decoding: try JSONEncoder().encode(file.skippedEvents), as: UTF8.self)
        try owner.execute(
            """
            UPDATE imported_calendars SET time_zones = ?, event_count = ?, skipped_events = ?, imported_at = ?
            WHERE id = ? AND user_id = {owner}
            """, [file.timeZoneText, file.events.count, skipped, now, calendarID])
        var stored: [String: String] = [:]
        try owner.forEachRow("SELECT id, uid, recurrence_key FROM imported_events WHERE calendar_id = ? AND user_id = {owner}", [calendarID]) { row in
            let uid: String = try row[1]
            let key: String = try row[2]
            stored[uid + "\n" + key] = try row[0] as String
        }
        for event in file.events {
            if let id = stored.removeValue(forKey: event.uid + "\n" + event.recurrenceKey) {
                try owner.execute(
                    "UPDATE imported_events SET summary = ?, content = ? WHERE id = ? AND user_id = {owner}", [event.summary, event.text, id])
            } else {
                try owner.execute(
                    """
                    INSERT INTO imported_events (id, calendar_id, user_id, uid, recurrence_key, summary, content)
                    VALUES (?, ?, {owner}, ?, ?, ?, ?)
                    """, [GlobalID.make(.importedEvent, now: now).rawValue, calendarID, event.uid, event.recurrenceKey, event.summary, event.text])
            }
        }
        for id in stored.values {
            try owner.execute("DELETE FROM imported_events WHERE id = ? AND user_id = {owner}", [id])
        }
    }

    /// `viewer`'s imported calendars, by name.
    public func calendars(for viewer: Viewer) async throws -> [ImportedCalendar] {
        try await pool.readPreferringCallingThread { database in
            try OwnerScope(Owner(viewer), database).decode(
                ImportedCalendar.self, "SELECT \(ImportedCalendar.columns) FROM imported_calendars WHERE user_id = {owner} ORDER BY name_key, id")
        }
    }

    /// Those of `ids` that name imported calendars of `viewer`'s, by id (`node(id:)`, `nodes(ids:)`,
    /// offline sync); other ids are left out without a read.
    public func calendars(ids: [String], for viewer: Viewer) async throws -> [String: ImportedCalendar] {
        let wanted = ids.filter { GlobalID.mayName(.importedCalendar, $0) }
        guard !wanted.isEmpty else { return [:] }
        return try await pool.readPreferringCallingThread { database in
            let owner = OwnerScope(Owner(viewer), database)
            var found: [String: ImportedCalendar] = [:]
            for id in Set(wanted) { found[id] = try Self.calendar(id, owner) }
            return found
        }
    }

    /// Deletes `viewer`'s imported calendar `id` with its events (a feed is no longer refreshed:
    /// its scheduled job finds no calendar).
    /// - Throws: ``ServiceError`` `NOT_FOUND` when it is not theirs (or not a calendar id).
    public func deleteCalendar(id: String, for viewer: Viewer, clientMutationID: String?) async throws -> String {
        guard GlobalID.mayName(.importedCalendar, id) else { throw ServiceError(.notFound, "No such imported calendar.") }
        let now = households.clock.storedNow
        return try await households.mutate("deleteImportedCalendar", by: viewer, replaying: clientMutationID, about: id, at: now) { [households] database in
            let owner = OwnerScope(Owner(viewer), database)
            try owner.execute("DELETE FROM imported_calendars WHERE id = ? AND user_id = {owner}", [id])
            guard database.changedRowCount > 0 else { throw ServiceError(.notFound, "No such imported calendar.") }
            try Tombstones.record([id], .importedCalendar, scope: .user(viewer.userID), at: now, in: database)
            try households.changeLog.record(
                topic: .user(viewer.userID), kind: .importedCalendarDeleted, payload: ImportedCalendarChange(calendarID: id, userID: viewer.userID),
                in: database)
            return id
        }
    }

    /// The refusal of a file on `field` (`input.file`, or `input.url` for a feed).
    static func refusal(
        _ reason: FieldProblem.Reason, _ message: String, limit: Int? = nil, line: Int? = nil, field: String = "input.file"
    ) -> ServiceError {
        var error = ServiceError(.badUserInput, message, problems: [FieldProblem(field: field, reason: reason, message: message)])
        error.limit = limit
        error.line = line
        return error
    }

    /// The refusal of a file the parser refused, naming its line.
    static func refusal(_ error: RecurrenceError, limits: CalendarFileLimits) -> ServiceError {
        switch error.code {
        case .limitExceeded:
            let limit = error.part == "VEVENT" ? limits.maximumEvents : error.part == nil ? limits.maximumBytes : nil
            return refusal(.tooLarge, error.description, limit: limit, line: error.line)
        case .unknownTimeZone: return refusal(.unknownValue, error.description, line: error.line)
        case .malformed, .unsupported: return refusal(.invalidFormat, error.description, line: error.line)
        }
    }
}
