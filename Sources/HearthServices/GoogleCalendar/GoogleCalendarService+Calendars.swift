import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// The calendars of the connected account (`users/me/calendarList`) and which of them are synced.
/// Each selected calendar is an imported calendar of the user's, named after it (`(Google)` added
/// when the name is taken by another of their calendars), synced at once and then every
/// `--google-sync-interval`; a calendar no longer selected is deleted with its events.
extension GoogleCalendarService {
    /// The calendars of `viewer`'s Google account, with those selected.
    /// - Throws: ``ServiceError`` `NOT_FOUND` without a working connection, `UNAVAILABLE` without
    ///   an OAuth client or when Google cannot be reached.
    public func googleCalendars(for viewer: Viewer) async throws -> [GoogleCalendarListEntry] {
        _ = try enabled()
        let listed = try await calendarList(of: Owner(viewer))
        return try await entries(listed, for: viewer)
    }

    /// Selects `ids` (Google's calendar ids) as `viewer`'s synced calendars, exactly: those not
    /// selected before are added and synced at once, those selected before and not now are deleted
    /// with their events. A replay with the same `clientMutationID` selects nothing and answers the
    /// calendars as they are now.
    /// - Throws: ``ServiceError`` `BAD_USER_INPUT` on `input.calendarIds`: `TOO_LARGE` (with
    ///   `extensions.limit`) past `--google-max-calendars`, `UNKNOWN_VALUE` for an id that is not
    ///   one of the account's calendars; `NOT_FOUND` without a working connection; `UNAVAILABLE`.
    public func selectCalendars(_ ids: [String], for viewer: Viewer, clientMutationID: String? = nil) async throws -> [GoogleCalendarListEntry] {
        let (configuration, _) = try enabled()
        let mutation = "selectGoogleCalendars"
        if let _: [String] = try await replayed(mutation, clientMutationID, for: viewer) {
            return try await entries(try await calendarList(of: Owner(viewer)), for: viewer)
        }
        let wanted = Array(Set(ids)).sorted()
        guard wanted.count <= configuration.maximumCalendars else {
            let message = "Select at most \(configuration.maximumCalendars) Google calendars."
            var error = ServiceError(.badUserInput, message, problems: [FieldProblem(field: "input.calendarIds", reason: .tooLarge, message: message)])
            error.limit = configuration.maximumCalendars
            throw error
        }
        let listed = try await calendarList(of: Owner(viewer))
        let byID = Dictionary(listed.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        if let unknown = wanted.first(where: { byID[$0] == nil }) {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "input.calendarIds", reason: .unknownValue, message: "\(unknown.prefix(100)) is not a calendar of your Google account.")]))
        }
        let now = households.clock.storedNow
        try await pool.write { [households, self] database in
            let owner = OwnerScope(Owner(viewer), database)
            guard try Self.connection(owner)?.status == .active else { throw Self.notConnected }
            _ = try MutationReplay.run(clientMutationID: clientMutationID, mutation: mutation, at: now, owner) {
                var selected: [String: String] = [:]
                try owner.forEachRow("SELECT google_calendar_id, id FROM imported_calendars WHERE user_id = {owner} AND google_calendar_id IS NOT NULL") { row in
                    selected[try row[0]] = try row[1]
                }
                for googleID in wanted where selected[googleID] == nil {
                    let id = GlobalID.make(.importedCalendar, now: now).rawValue
                    let name = try Self.freeName(for: byID[googleID]!.summary, owner)
                    try owner.execute(
                        """
                        INSERT INTO imported_calendars (id, user_id, name, name_key, time_zones, event_count, created_at, imported_at, google_calendar_id)
                        VALUES (?, {owner}, ?, ?, '', 0, ?, ?, ?)
                        """, [id, name, DisplayText.sortKey(name), now, now, googleID])
                    try scheduleSync(of: id, owner, at: now)
                    try households.changeLog.record(
                        topic: .user(viewer.userID), kind: .importedCalendarImported, payload: ImportedCalendarChange(calendarID: id, userID: viewer.userID),
                        in: database)
                }
                for (googleID, id) in selected where !wanted.contains(googleID) {
                    try owner.execute("DELETE FROM imported_calendars WHERE id = ? AND user_id = {owner}", [id])
                    try Tombstones.record([id], .importedCalendar, scope: .user(viewer.userID), at: now, in: database)
                    try households.changeLog.record(
                        topic: .user(viewer.userID), kind: .importedCalendarDeleted, payload: ImportedCalendarChange(calendarID: id, userID: viewer.userID),
                        in: database)
                }
                return wanted
            }
        }
        return try await entries(listed, for: viewer)
    }

    /// A name for a calendar titled `summary` that none of `owner`'s calendars has (regardless of case).
    private static func freeName(for summary: String, _ owner: OwnerScope) throws -> String {
        let base = String(summary.trimmingWhitespace().prefix(DisplayText.maximumLength - 20))
        for candidate in [base, "\(base) (Google)"] + (2...50).map({ "\(base) (Google \($0))" }) where !candidate.trimmingWhitespace().isEmpty {
            let taken = try owner.scalar(
                Bool.self, "SELECT EXISTS (SELECT 1 FROM imported_calendars WHERE user_id = {owner} AND name_key = ?)", [DisplayText.sortKey(candidate)])
            if taken != true { return candidate }
        }
        return "Google " + Base64URL.encode(SecureRandom.bytes(6))
    }

    /// `listed` with the imported calendars `viewer` has for them.
    private func entries(_ listed: [ListedCalendar], for viewer: Viewer) async throws -> [GoogleCalendarListEntry] {
        let imported = try await pool.readPreferringCallingThread { database in
            try OwnerScope(Owner(viewer), database).decode(
                ImportedCalendar.self,
                "SELECT \(ImportedCalendar.columns) FROM imported_calendars WHERE user_id = {owner} AND google_calendar_id IS NOT NULL")
        }
        let byGoogleID = Dictionary(imported.compactMap { calendar in calendar.googleCalendarID.map { ($0, calendar) } }, uniquingKeysWith: { first, _ in first })
        return listed.map { calendar in
            GoogleCalendarListEntry(
                id: calendar.id, summary: calendar.summary, isPrimary: calendar.primary, accessRole: calendar.accessRole,
                importedCalendar: byGoogleID[calendar.id])
        }
    }

    /// One calendar of `calendarList.list`.
    struct ListedCalendar: Sendable {
        let id: String
        let summary: String
        let primary: Bool
        let accessRole: String
    }

    /// The calendars of `owner`'s account, every page.
    /// - Throws: ``ServiceError`` `NOT_FOUND` without a working connection; `UNAVAILABLE` when Google fails.
    func calendarList(of owner: Owner) async throws -> [ListedCalendar] {
        struct Page: Decodable {
            struct Item: Decodable {
                var id: String
                var summary: String?
                var summaryOverride: String?
                var primary: Bool?
                var accessRole: String?
            }
            var items: [Item]?
            var nextPageToken: String?
        }
        let now = households.clock.storedNow
        do {
            return try await offLoop { [self] in
                try withAccessToken(of: owner) { (token) throws(GoogleFailure) in
                    let (configuration, api) = try enabledForJobs()
                    var found: [ListedCalendar] = []
                    var pageToken: String?
                    repeat {
                        let response = try api.calendar(
                            "GET", "/users/me/calendarList", query: [("maxResults", "250")] + (pageToken.map { [("pageToken", $0)] } ?? []),
                            accessToken: token, at: now)
                        guard let page = try? JSONDecoder().decode(Page.self, from: Data(response.body)) else {
                            throw GoogleFailure(kind: .network, message: "Google's calendar list could not be read")
                        }
                        for item in page.items ?? [] {
                            found.append(ListedCalendar(
                                id: item.id, summary: item.summaryOverride ?? item.summary ?? item.id, primary: item.primary ?? false,
                                accessRole: item.accessRole ?? "reader"))
                        }
                        pageToken = page.nextPageToken
                    } while pageToken != nil && found.count <= configuration.maximumCalendars * 50
                    return found
                }
            }
        } catch let failure as GoogleFailure {
            if failure.kind == .invalidGrant { throw Self.notConnected }
            throw Self.unavailable(failure)
        }
    }
}
