import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Syncing a selected Google calendar into its imported calendar (one `google.calendar_sync` job per
/// calendar and due time, each scheduling the next, as feed refreshes do):
///
/// - The first sync lists every event (`events.list` with `showDeleted=true`, `singleEvents=false`,
///   page by page with `pageToken`) and keeps `nextSyncToken`; later ones send `syncToken` and get
///   only what changed. A 410 (the token expired) drops it and lists everything again.
/// - A listing replaces the calendar's events; a change upserts the event (by UID and
///   RECURRENCE-ID, as imports match) or, cancelled, deletes it (a series with its overrides) or
///   cancels its one occurrence (an instance of a series: an override with `STATUS:CANCELLED`).
/// - Events the recurrence engine cannot expand are left out and reported (`skippedEvents`).
/// - A calendar of more than `--google-max-events` events (listed, or stored after the changes)
///   is not synced: nothing of that sync is stored, and the reason is recorded.
/// - A failure keeps the events, is recorded on the calendar (`lastRefreshError`) and retried with
///   backoff (doubling from the interval, up to a day, at least a `Retry-After`); `invalid_grant`
///   marks the connection revoked and stops the syncs until the user connects again.
extension GoogleCalendarService {
    /// Makes the sync at `due` the calendar's next one and enqueues its job.
    func scheduleSync(of id: String, _ owner: OwnerScope, at due: Date) throws {
        let due = Date(timeIntervalSince1970: (due.timeIntervalSince1970 * 1000).rounded() / 1000)
        try owner.execute("UPDATE imported_calendars SET next_sync_at = ? WHERE id = ? AND user_id = {owner}", [due, id])
        try jobs.enqueue(
            kind: .googleCalendarSync, payload: GoogleCalendarSyncJob.Payload(calendarID: id, userID: owner.key.userID, dueAt: due), dueAt: due,
            dedupeKey: "\(id)@\(Int64((due.timeIntervalSince1970 * 1000).rounded()))", in: owner.database)
    }

    /// What one sync did.
    enum SyncOutcome: String, Sendable {
        /// Nothing: the job was not the calendar's next sync, or the calendar or connection is gone.
        case stale
        /// Every event was listed and stored.
        case full
        /// The changes since the last sync were stored.
        case incremental
        /// The sync failed; it is retried with backoff.
        case failed
    }

    /// Syncs `owner`'s Google calendar `id` if the sync due at `due` is still its next one. Blocking.
    func sync(_ id: String, of owner: Owner, scheduledFor due: Date) throws -> SyncOutcome {
        struct Selected: Decodable {
            var googleCalendarID: String
            var syncToken: String?
            var nextSyncAt: Date?
        }
        guard let selected = try pool.read({ database in
            try OwnerScope(owner, database).decodeOne(
                Selected.self,
                """
                SELECT google_calendar_id AS googleCalendarID, google_sync_token AS syncToken, next_sync_at AS nextSyncAt
                FROM imported_calendars WHERE id = ? AND user_id = {owner} AND google_calendar_id IS NOT NULL
                """, [id])
        }), ImportedCalendarService.sameMillisecond(selected.nextSyncAt, due) else { return .stale }
        let now = households.clock.storedNow
        let listing = Result { () throws(GoogleFailure) in try list(selected.googleCalendarID, from: selected.syncToken, of: owner, at: now) }
        if case .failure(let failure) = listing, failure.kind == .invalidGrant { return .stale }
        return try pool.write { [self] database in
            let scope = OwnerScope(owner, database)
            guard let current = try scope.scalar(Date.self, "SELECT next_sync_at FROM imported_calendars WHERE id = ? AND user_id = {owner}", [id]),
                ImportedCalendarService.sameMillisecond(current, due)
            else { return .stale }
            var stored = listing
            if case .success(let listed) = listing {
                do {
                    // Stored whole or not at all: a calendar grown past the limit keeps the events it had.
                    try database.savepoint { try store(listed, into: id, scope, at: now) }
                } catch let failure as GoogleFailure {
                    stored = .failure(failure)
                }
            }
            let outcome: SyncOutcome
            switch stored {
            case .success(let listed):
                try scheduleSync(of: id, scope, at: now.addingTimeInterval(Double(configuration!.syncInterval.components.seconds)))
                outcome = listed.isFull ? .full : .incremental
            case .failure(let failure):
                let failures = (try scope.scalar(Int.self, "SELECT refresh_failures FROM imported_calendars WHERE id = ? AND user_id = {owner}", [id]) ?? 0) + 1
                try scope.execute(
                    "UPDATE imported_calendars SET last_refresh_error = ?, refresh_failures = ? WHERE id = ? AND user_id = {owner}",
                    [failure.message, failures, id])
                try scheduleSync(of: id, scope, at: now.addingTimeInterval(retryDelay(afterFailures: failures, failure)))
                outcome = .failed
            }
            try households.changeLog.record(
                topic: .user(owner.userID), kind: .importedCalendarRefreshed, payload: ImportedCalendarChange(calendarID: id, userID: owner.userID),
                in: database)
            return outcome
        }
    }

    /// The wait before the next sync after `failures` failures in a row: the interval doubled per
    /// failure, up to a day (or the interval, if longer), and at least Google's `Retry-After`.
    func retryDelay(afterFailures failures: Int, _ failure: GoogleFailure) -> TimeInterval {
        let interval = Double(configuration!.syncInterval.components.seconds)
        var delay = min(interval * Double(1 << min(failures - 1, 20)), max(86_400, interval))
        if case .rateLimited(let retryAfter?) = failure.kind {
            delay = max(delay, Double(min(retryAfter, configuration!.maximumRetryAfter).components.seconds))
        }
        return delay
    }

    /// Why a calendar past `--google-max-events` is not synced.
    static func tooManyEvents(_ maximum: Int) -> String {
        "the Google calendar has more than \(maximum) events (--google-max-events); it is not synced"
    }

    /// What a listing brought.
    struct Listing: Sendable {
        /// Whether it is every event (the first sync, or after a 410), rather than the changes.
        var isFull: Bool
        var events: [GoogleCalendarEvent]
        var nextSyncToken: String?
    }

    /// Lists the events of Google calendar `googleID`: the changes since `syncToken`, or every event
    /// (without one, or when Google answers 410 to it).
    private func list(_ googleID: String, from syncToken: String?, of owner: Owner, at now: Date) throws(GoogleFailure) -> Listing {
        struct Page: Decodable {
            var items: [GoogleCalendarEvent]?
            var nextPageToken: String?
            var nextSyncToken: String?
        }
        let (configuration, api) = try enabledForJobs()
        return try withAccessToken(of: owner) { (token) throws(GoogleFailure) in
            var syncToken = syncToken
            while true {
                var listing = Listing(isFull: syncToken == nil, events: [], nextSyncToken: nil)
                var pageToken: String?
                do throws(GoogleFailure) {
                    repeat {
                        var query: [(String, String)] = [("maxResults", "250")]
                        if let syncToken { query.append(("syncToken", syncToken)) } else { query += [("showDeleted", "true"), ("singleEvents", "false")] }
                        if let pageToken { query.append(("pageToken", pageToken)) }
                        let response = try api.calendar(
                            "GET", "/calendars/\(GoogleAPIClient.segment(googleID))/events", query: query, accessToken: token, at: now)
                        guard let page = try? JSONDecoder().decode(Page.self, from: Data(response.body)) else {
                            throw GoogleFailure(kind: .network, message: "Google's events of the calendar could not be read")
                        }
                        listing.events += page.items ?? []
                        guard listing.events.count <= configuration.maximumEvents else {
                            throw GoogleFailure(kind: .status(413), message: Self.tooManyEvents(configuration.maximumEvents))
                        }
                        pageToken = page.nextPageToken
                        listing.nextSyncToken = page.nextSyncToken ?? listing.nextSyncToken
                    } while pageToken != nil
                    return listing
                } catch where error.kind == .gone && syncToken != nil {
                    // The sync token expired: list everything again.
                    syncToken = nil
                }
            }
        }
    }

    /// Stores `listed` into the imported calendar `id`: every event (replacing) or the changes.
    private func store(_ listed: Listing, into id: String, _ owner: OwnerScope, at now: Date) throws {
        var skipped: [SkippedCalendarEvent] = []
        var events: [CalendarEvent] = []
        var removed: [String] = []
        for event in listed.events {
            if event.isCancelled && !event.isOverride {
                removed.append(event.id)
                continue
            }
            do {
                guard let parsed = try CalendarFile.parse(stored: "", events: [try event.vevent(timeZones: TimeZoneRules.named)]).events.first else {
                    skipped.append(SkippedCalendarEvent(uid: event.uid, line: 0, reason: "The event uses a recurrence Hearth does not expand."))
                    continue
                }
                events.append(parsed)
            } catch {
                skipped.append(SkippedCalendarEvent(uid: event.uid, line: 0, reason: "\(error)"))
            }
        }
        if listed.isFull {
            // Keyed by UID and RECURRENCE-ID: Google lists each once, the last of a repeat wins.
            var unique: [String: CalendarEvent] = [:]
            for event in events { unique[event.uid + "\n" + event.recurrenceKey] = event }
            let file = try CalendarFile.parse(stored: "", events: unique.values.sorted { $0.uid + $0.recurrenceKey < $1.uid + $1.recurrenceKey }.map(\.text))
            try ImportedCalendarService.storeEvents(of: file, into: id, owner, at: now)
        } else {
            for uid in removed {
                try owner.execute("DELETE FROM imported_events WHERE calendar_id = ? AND uid = ? AND user_id = {owner}", [id, uid])
            }
            for event in events {
                try owner.execute(
                    """
                    INSERT INTO imported_events (id, calendar_id, user_id, uid, recurrence_key, summary, content) VALUES (?, ?, {owner}, ?, ?, ?, ?)
                    ON CONFLICT (calendar_id, uid, recurrence_key) DO UPDATE SET summary = excluded.summary, content = excluded.content
                    """, [GlobalID.make(.importedEvent, now: now).rawValue, id, event.uid, event.recurrenceKey, event.summary, event.text])
            }
            let count = try owner.scalar(Int.self, "SELECT count(*) FROM imported_events WHERE calendar_id = ? AND user_id = {owner}", [id]) ?? 0
            try owner.execute(
                "UPDATE imported_calendars SET event_count = ?, imported_at = ? WHERE id = ? AND user_id = {owner}",
                [count, now, id])
        }
        let maximum = configuration!.maximumEvents
        guard try owner.scalar(Int.self, "SELECT count(*) FROM imported_events WHERE calendar_id = ? AND user_id = {owner}", [id]) ?? 0 <= maximum else {
            throw GoogleFailure(kind: .status(413), message: Self.tooManyEvents(maximum))
        }
        let skippedText = String(decoding: try JSONEncoder().encode(skipped), as: UTF8.self)
        try owner.execute(
            """
            UPDATE imported_calendars SET google_sync_token = ?, skipped_events = ?, last_refreshed_at = ?, last_refresh_error = NULL,
                refresh_failures = 0 WHERE id = ? AND user_id = {owner}
            """, [listed.nextSyncToken, skippedText, now, id])
    }
}
