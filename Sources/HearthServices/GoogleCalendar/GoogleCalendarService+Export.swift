import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Exporting chores to a Google calendar of the user's choice (optional, per user): the same events
/// the ICS feed carries (``CalendarFeedService/choreEvents(_:includesHouseholdChores:)``: personal
/// chores and, when asked, the household chores assigned to them), each with an id Hearth chose
/// (``ICalendarEvent/googleEventID``), so an export updates what the last one made instead of
/// adding copies: an insert answered 409 becomes an update, an update answered 404 an insert.
/// What was sent is recorded with a digest of its content (`google_exported_events`), so an
/// unchanged chore sends nothing; the events of chores that are gone (or of the calendar exported
/// to before) are deleted at Google. The `google.calendar_export` job runs when the export is set,
/// `--google-export-delay` after a chore of the user's changes (`+ExportSoon`), and every
/// `--google-sync-interval` while it is on.
extension GoogleCalendarService {
    /// Sets where `viewer`'s chores are exported: Google calendar `calendarID` (nil: no export; what
    /// was exported is deleted there), with the household chores assigned to them when asked. A
    /// replay with the same `clientMutationID` answers the connection as it is now and changes nothing.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `input.calendarId` (`UNKNOWN_VALUE`) for a
    ///   calendar of the account the user cannot write to, or none of theirs; `NOT_FOUND` without a
    ///   working connection; `UNAVAILABLE`.
    public func exportChores(
        to calendarID: String?, includeHouseholdChores: Bool, for viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> GoogleConnection {
        _ = try enabled()
        let mutation = "exportChoresToGoogleCalendar"
        if let id: String = try await replayed(mutation, clientMutationID, for: viewer) { return try await replayedConnection(id, for: viewer) }
        if let calendarID {
            let listed = try await calendarList(of: Owner(viewer))
            guard let calendar = listed.first(where: { $0.id == calendarID }), calendar.accessRole == "owner" || calendar.accessRole == "writer" else {
                throw ServiceError.invalid(InputProblems([FieldProblem(
                    field: "input.calendarId", reason: .unknownValue, message: "Choose a calendar of your Google account you may add events to.")]))
            }
        }
        let now = households.clock.storedNow
        return try await pool.write { [households, self] database in
            let owner = OwnerScope(Owner(viewer), database)
            guard let before = try Self.connection(owner), before.status == .active else { throw Self.notConnected }
            _ = try MutationReplay.run(clientMutationID: clientMutationID, mutation: mutation, at: now, owner) {
                try owner.execute(
                    "UPDATE google_connections SET export_calendar_id = ?, export_household_chores = ?, updated_at = ? WHERE user_id = {owner}",
                    [calendarID, includeHouseholdChores ? 1 : 0, now])
                let exported = try owner.scalar(Bool.self, "SELECT EXISTS (SELECT 1 FROM google_exported_events WHERE user_id = {owner})") ?? false
                if calendarID != nil || exported { try scheduleExport(owner, at: now) }
                try households.changeLog.record(
                    topic: .user(viewer.userID), kind: .googleCalendarConnected, payload: GoogleConnectionChange(connectionID: before.id, userID: viewer.userID),
                    in: database)
                return before.id
            }
            return try Self.connection(owner)!
        }
    }

    /// Makes the export at `due` the next one and enqueues its job.
    func scheduleExport(_ owner: OwnerScope, at due: Date) throws {
        let due = Date(timeIntervalSince1970: (due.timeIntervalSince1970 * 1000).rounded() / 1000)
        try owner.execute("UPDATE google_connections SET next_export_at = ? WHERE user_id = {owner}", [due])
        try jobs.enqueue(
            kind: .googleCalendarExport, payload: GoogleCalendarExportJob.Payload(userID: owner.key.userID, dueAt: due), dueAt: due,
            dedupeKey: "\(owner.key.userID)@\(Int64((due.timeIntervalSince1970 * 1000).rounded()))", in: owner.database)
    }

    /// What one export did.
    struct ExportResult: Sendable {
        /// Events inserted or updated.
        var sent = 0
        /// Events deleted.
        var deleted = 0
        /// Why it stopped early, if it did (retried at the next interval).
        var failure: String?
    }

    /// One event exported before.
    private struct Exported: Decodable, Hashable {
        var calendarID: String
        var eventID: String
        var contentHash: String
    }

    /// Exports `owner`'s chores if the export due at `due` is still the next one; nil when stale. Blocking.
    func export(of owner: Owner, scheduledFor due: Date) throws -> ExportResult? {
        struct Setting: Decodable {
            var status: GoogleConnectionStatus
            var calendarID: String?
            var includesHouseholdChores: Bool
            var nextExportAt: Date?
        }
        let read = try pool.read { database -> (Setting, [ICalendarEvent], [Exported])? in
            let scope = OwnerScope(owner, database)
            guard let setting = try scope.decodeOne(
                Setting.self,
                """
                SELECT status, export_calendar_id AS calendarID, export_household_chores AS includesHouseholdChores, next_export_at AS nextExportAt
                FROM google_connections WHERE user_id = {owner}
                """)
            else { return nil }
            let events = setting.calendarID == nil ? [] : try CalendarFeedService.choreEvents(scope, includesHouseholdChores: setting.includesHouseholdChores)
            let exported = try scope.decode(
                Exported.self,
                "SELECT calendar_id AS calendarID, event_id AS eventID, content_hash AS contentHash FROM google_exported_events WHERE user_id = {owner}")
            return (setting, events, exported)
        }
        guard let read, read.0.status == .active, ImportedCalendarService.sameMillisecond(read.0.nextExportAt, due) else { return nil }
        let (setting, events, exported) = read
        let now = households.clock.storedNow
        var result = ExportResult()
        var kept: [Exported] = []
        var gone = Set(exported)
        do throws(GoogleFailure) {
            try withAccessToken(of: owner) { (token) throws(GoogleFailure) in
                let (_, api) = try enabledForJobs()
                if let calendarID = setting.calendarID {
                    let path = "/calendars/\(GoogleAPIClient.segment(calendarID))/events"
                    for event in events {
                        let body = event.googleEventJSON
                        let record = Exported(calendarID: calendarID, eventID: event.googleEventID, contentHash: SHA256.hexDigest(of: body))
                        let before = exported.first { $0.calendarID == calendarID && $0.eventID == record.eventID }
                        if let before { gone.remove(before) }
                        if before != record {
                            try upsert(body, id: record.eventID, at: path, update: before != nil, api: api, token: token, now: now)
                            result.sent += 1
                        }
                        kept.append(record)
                    }
                }
                for old in gone {
                    do throws(GoogleFailure) {
                        _ = try api.calendar(
                            "DELETE", "/calendars/\(GoogleAPIClient.segment(old.calendarID))/events/\(GoogleAPIClient.segment(old.eventID))",
                            accessToken: token, at: now)
                    } catch where error.kind == .notFound || error.kind == .gone {
                        // Deleted at Google already.
                    }
                    result.deleted += 1
                }
                gone = []
            }
        } catch {
            result.failure = error.message
        }
        let finished = result
        let sent = kept
        let undeleted = gone
        try pool.write { [self] database in
            let scope = OwnerScope(owner, database)
            guard let current = try scope.scalar(Date.self, "SELECT next_export_at FROM google_connections WHERE user_id = {owner}"),
                ImportedCalendarService.sameMillisecond(current, due)
            else { return }
            // Recorded as far as it went: what was sent, and what is still to delete.
            try scope.execute("DELETE FROM google_exported_events WHERE user_id = {owner}")
            for record in Set(sent).union(undeleted) {
                try scope.execute(
                    "INSERT INTO google_exported_events (user_id, calendar_id, event_id, content_hash) VALUES ({owner}, ?, ?, ?)",
                    [record.calendarID, record.eventID, record.contentHash])
            }
            try scope.execute("UPDATE google_connections SET last_error = ? WHERE user_id = {owner}", [finished.failure])
            if setting.calendarID != nil || finished.failure != nil {
                try scheduleExport(scope, at: now.addingTimeInterval(Double(configuration!.syncInterval.components.seconds)))
            } else {
                try scope.execute("UPDATE google_connections SET next_export_at = NULL WHERE user_id = {owner}")
            }
        }
        return finished
    }

    /// Inserts event `id` (an update when `update`), falling back to the other when Google says it
    /// exists (409) or not (404).
    private func upsert(
        _ body: [UInt8], id: String, at path: String, update: Bool, api: GoogleAPIClient, token: String, now: Date
    ) throws(GoogleFailure) {
        let eventPath = path + "/" + GoogleAPIClient.segment(id)
        do throws(GoogleFailure) {
            if update {
                _ = try api.calendar("PUT", eventPath, body: body, accessToken: token, at: now)
            } else {
                _ = try api.calendar("POST", path, body: body, accessToken: token, at: now)
            }
        } catch where error.kind == .conflict && !update {
            _ = try api.calendar("PUT", eventPath, body: body, accessToken: token, at: now)
        } catch where error.kind == .notFound && update {
            _ = try api.calendar("POST", path, body: body, accessToken: token, at: now)
        }
    }
}
