import Foundation
import GraphQL
import HearthStore
import Testing

/// Google Calendar through the binary (issue 18, FR-62), against a loopback stand-in of Google's
/// documented OAuth 2.0 and Calendar API v3 (``LoopbackGoogleCalendar``) that checks the PKCE
/// verifier and the client's secret itself: connecting through the redirect page and by mutation,
/// states single-use and expiring, tokens sealed in the database, the calendar list and selection,
/// the first (paged) sync and incremental ones with sync tokens (an event added, changed, cancelled;
/// a series with an override and a cancelled occurrence), a full resync on 410, Google events as busy
/// time for reminders, access tokens refreshed on expiry and on 401, `invalid_grant` asking the user
/// to connect again, the chore export (created, updated in place, deleted), and disconnecting
/// (revoked at Google, events gone). The test clock moves the scheduler; nothing sleeps.
@Suite struct GoogleCalendarTests {
    static func arguments(_ google: LoopbackGoogleCalendar) -> [String] {
        ServerProcess.householdArguments + ["--test-endpoints", "--job-lease", "1s", "--access-token-ttl", "1d"] + google.arguments
    }

    /// Runs `body` with a stand-in, a server connected to it, and Ana signed up.
    private static func withGoogle(_ body: (LoopbackGoogleCalendar, ServerProcess, ServerProcess.Person) throws -> Void) throws {
        let google = try LoopbackGoogleCalendar()
        defer { google.stop() }
        let server = try ServerProcess(arguments(google))
        defer { server.remove() }
        try body(google, server, try server.person("ana"))
    }

    /// A timed Google event of `calendar`'s in Berlin time (`+01:00` in January).
    static func event(_ id: String, _ summary: String, start: String, end: String, extra: [String: Any] = [:]) -> [String: Any] {
        var event: [String: Any] = [
            "id": id, "status": "confirmed", "summary": summary,
            "start": ["dateTime": start, "timeZone": "Europe/Berlin"], "end": ["dateTime": end, "timeZone": "Europe/Berlin"],
        ]
        event.merge(extra) { _, new in new }
        return event
    }

    /// `person`'s imported events in January 2027 as `summary start`.
    static func january(_ server: ServerProcess, _ person: ServerProcess.Person) throws -> [String] {
        let answer = try server.importedCalendarEvents(from: "2027-01-01T00:00:00Z", to: "2027-02-01T00:00:00Z", as: person)
        let events = try #require(answer.data?["importedCalendarEvents"]?.elements, "\(answer.json)")
        return events.map { "\($0["summary"]?.stringValue ?? "?") \($0["startsAt"]?.stringValue ?? "?")\($0["busy"] == false ? " free" : "")" }
    }

    /// The Calendar API requests of the stand-in's log for events, as `status query-keys`.
    static func eventListings(_ google: LoopbackGoogleCalendar) throws -> [(status: Int, query: [String: String])] {
        let log = try #require(try google.state()["log"] as? [[String: Any]])
        return log.filter { ($0["path"] as? String)?.hasSuffix("/events") == true && $0["method"] as? String == "GET" }.map {
            ($0["status"] as? Int ?? 0, $0["query"] as? [String: String] ?? [:])
        }
    }

    @Test func FR62_connectsThroughTheRedirectPageSealsTheTokensAndSyncsASelectedCalendarIncrementally() throws {
        try Self.withGoogle { google, server, ana in
            let started = try server.startGoogleCalendarConnection(as: ana)
            let url = try #require(started.data?["startGoogleCalendarConnection"]?["authorizationUrl"]?.stringValue, "\(started.json)")
            let query = Dictionary(
                (URLComponents(string: url)?.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
            #expect(query["client_id"] == LoopbackGoogleCalendar.clientID && query["response_type"] == "code", "\(url)")
            #expect(query["code_challenge_method"] == "S256" && query["code_challenge"]?.count == 43 && query["state"]?.isEmpty == false)
            #expect(query["access_type"] == "offline" && query["prompt"] == "consent")
            #expect(query["scope"]?.contains("https://www.googleapis.com/auth/calendar.readonly") == true)
            #expect(query["redirect_uri"]?.hasSuffix("/oauth/google/callback") == true)

            // Ana agrees at Google, which sends her browser back to the redirect page.
            let (code, state, location) = try google.consent(to: url)
            #expect(location.hasPrefix(query["redirect_uri"] ?? "-"))
            let page = try server.get("/oauth/google/callback?code=\(ServerProcess.queryValue(code))&state=\(ServerProcess.queryValue(state))")
            #expect(page.status == 200 && page.text.contains("Google Calendar connected"), "\(page.text)")
            let again = try server.get("/oauth/google/callback?code=\(ServerProcess.queryValue(code))&state=\(ServerProcess.queryValue(state))")
            #expect(again.status == 400 && again.text.contains("already used"), "a state works once: \(again.text)")
            let connection = try #require(try server.googleCalendarConnection(of: ana))
            #expect(connection["status"] == "ACTIVE" && connection["exportCalendarId"] == .null, "\(connection)")

            // The tokens Google issued are nowhere in the database's files, as bytes (SQLite's files:
            // on PostgreSQL the cluster's; the sealed column below stands on both).
            let issued = try #require(try google.state()["issued"] as? [String])
            #expect(issued.count == 2, "a refresh token and an access token: \(issued)")
            for token in issued where TestDatabaseStore.isSQLite {
                #expect(try server.databaseFilesContaining(Array(token.utf8)).isEmpty, "\(token) is stored sealed")
            }
            let sealed = try #require(try server.databaseText("SELECT refresh_token FROM google_connections"))
            #expect(sealed.hasPrefix("v1."), "\(sealed)")

            // A weekly series with its second occurrence moved, a dentist appointment, and a free all-day event.
            try google.put(Self.event(
                "standup", "Standup", start: "2027-01-04T09:00:00+01:00", end: "2027-01-04T09:15:00+01:00",
                extra: ["recurrence": ["RRULE:FREQ=WEEKLY;COUNT=4"]]))
            try google.put(Self.event(
                "standup_20270111T080000Z", "Standup (late)", start: "2027-01-11T10:00:00+01:00", end: "2027-01-11T10:15:00+01:00",
                extra: ["recurringEventId": "standup", "originalStartTime": ["dateTime": "2027-01-11T09:00:00+01:00", "timeZone": "Europe/Berlin"]]))
            try google.put(["id": "dentist", "status": "confirmed", "summary": "Dentist",
                            "start": ["dateTime": "2027-01-06T14:00:00Z"], "end": ["dateTime": "2027-01-06T15:00:00Z"]])
            try google.put(["id": "holiday", "status": "confirmed", "summary": "Holiday", "transparency": "transparent",
                            "start": ["date": "2027-01-08"], "end": ["date": "2027-01-09"]])

            let calendars = try #require(try server.googleCalendars(as: ana).data?["googleCalendars"]?.elements)
            #expect(calendars.map { $0["id"]?.stringValue ?? "?" } == [LoopbackGoogleCalendar.primary, LoopbackGoogleCalendar.family, LoopbackGoogleCalendar.holidays])
            #expect(calendars.first?["primary"] == true && calendars.allSatisfy { $0["selected"] == false }, "\(calendars)")
            let unknown = try server.selectGoogleCalendars(["nobody@example.com"], as: ana)
            #expect(unknown.errorCode == "BAD_USER_INPUT" && unknown.errorField == "input.calendarIds" && unknown.errorReason == "UNKNOWN_VALUE", "\(unknown.json)")
            let selected = try server.selectGoogleCalendars([LoopbackGoogleCalendar.primary], as: ana)
            let primary = try #require(selected.data?["selectGoogleCalendars"]?["calendars"]?.elements?.first, "\(selected.json)")
            #expect(primary["selected"] == true && primary["importedCalendar"]?["googleCalendarId"]?.stringValue == LoopbackGoogleCalendar.primary)
            #expect(primary["importedCalendar"]?["name"] == "ana@example.com")

            // The first sync lists everything, two events a page, right after the selection.
            try server.waitForDueJobs()
            #expect(try Self.january(server, ana) == [
                "Standup 2027-01-04T08:00:00.000Z", "Dentist 2027-01-06T14:00:00.000Z", "Holiday 2027-01-08T00:00:00.000Z free",
                "Standup (late) 2027-01-11T09:00:00.000Z", "Standup 2027-01-18T08:00:00.000Z", "Standup 2027-01-25T08:00:00.000Z",
            ])
            let first = try Self.eventListings(google)
            #expect(first.count == 2 && first.allSatisfy { $0.query["showDeleted"] == "true" && $0.query["syncToken"] == nil }, "\(first)")
            #expect(first.last?.query["pageToken"] == "2")
            let lines = try server.calendarLines(from: "2027-01-06", to: "2027-01-07", as: ana)
            #expect(lines.contains("2027-01-06 Dentist 2027-01-06T14:00:00.000Z"), "Google's events are in the calendar view: \(lines)")

            // Changes at Google: the dentist moves, piano is added, the third standup is cancelled, the holiday deleted.
            try google.put(["id": "dentist", "status": "confirmed", "summary": "Dentist",
                            "start": ["dateTime": "2027-01-07T14:00:00Z"], "end": ["dateTime": "2027-01-07T15:00:00Z"]])
            try google.put(["id": "piano", "status": "confirmed", "summary": "Piano",
                            "start": ["dateTime": "2027-01-05T17:00:00Z"], "end": ["dateTime": "2027-01-05T18:00:00Z"]])
            try google.put(["id": "standup_20270118T080000Z", "status": "cancelled", "recurringEventId": "standup",
                            "originalStartTime": ["dateTime": "2027-01-18T09:00:00+01:00", "timeZone": "Europe/Berlin"]])
            try google.put(["id": "holiday", "status": "cancelled"])
            let start = Date()
            try server.moveClock(to: start.addingTimeInterval(16 * 60))
            try server.waitForDueJobs()
            let expected = [
                "Standup 2027-01-04T08:00:00.000Z", "Piano 2027-01-05T17:00:00.000Z", "Dentist 2027-01-07T14:00:00.000Z",
                "Standup (late) 2027-01-11T09:00:00.000Z", "Standup 2027-01-25T08:00:00.000Z",
            ]
            #expect(try Self.january(server, ana) == expected)
            let incremental = try #require(try Self.eventListings(google).last)
            #expect(incremental.status == 200 && incremental.query["syncToken"] == "st-4", "only the changes since the first sync: \(incremental)")

            // The sync token expires at Google: 410, and the next sync lists everything again.
            try google.control("POST", "/expire-sync-tokens")
            try google.put(["id": "yoga", "status": "confirmed", "summary": "Yoga",
                            "start": ["dateTime": "2027-01-12T07:00:00Z"], "end": ["dateTime": "2027-01-12T08:00:00Z"]])
            try server.moveClock(to: start.addingTimeInterval(32 * 60))
            try server.waitForDueJobs()
            let resync = try Self.eventListings(google).suffix(5)
            #expect(resync.first?.status == 410 && resync.first?.query["syncToken"] == "st-8", "\(resync)")
            #expect(resync.dropFirst().allSatisfy { $0.status == 200 && $0.query["syncToken"] == nil }, "a full listing after the 410: \(resync)")
            #expect(try Self.january(server, ana) == [
                "Standup 2027-01-04T08:00:00.000Z", "Piano 2027-01-05T17:00:00.000Z", "Dentist 2027-01-07T14:00:00.000Z",
                "Standup (late) 2027-01-11T09:00:00.000Z", "Yoga 2027-01-12T07:00:00.000Z", "Standup 2027-01-25T08:00:00.000Z",
            ])

            // Deselected, the calendar goes with its events.
            #expect(try server.selectGoogleCalendars([], as: ana).errorCode == nil)
            #expect(try Self.january(server, ana).isEmpty)
        }
    }

    @Test func FR62_completesByMutationAndRefusesReusedExpiredOrDeclinedAttempts() throws {
        try Self.withGoogle { google, server, ana in
            // Ana declines at Google: nothing is stored.
            let declined = try server.get("/oauth/google/callback?error=access_denied&state=whatever")
            #expect(declined.status == 400 && declined.text.contains("did not allow"), "\(declined.text)")
            #expect(try server.googleCalendarConnection(of: ana) == .null)

            // An attempt past its lifetime (10 minutes) is refused, and stores nothing.
            let start = Date()
            let late = try #require(try server.startGoogleCalendarConnection(as: ana).data?["startGoogleCalendarConnection"]?["authorizationUrl"]?.stringValue)
            let lateConsent = try google.consent(to: late)
            try server.moveClock(to: start.addingTimeInterval(11 * 60))
            let expired = try server.completeGoogleCalendarConnection(code: lateConsent.code, state: lateConsent.state, as: ana)
            #expect(expired.errorCode == "BAD_USER_INPUT" && expired.errorReason == "LINK_INVALID" && expired.errorField == "input.state", "\(expired.json)")
            #expect(expired.json["errors"]?[0]?["extensions"]?["fieldErrors"]?[0]?["reason"] == "OUT_OF_RANGE", "\(expired.json)")
            #expect(try server.googleCalendarConnection(of: ana) == .null)

            // Another account cannot complete Ana's attempt; Ana's app can, once.
            let ben = try server.person("ben")
            let url = try #require(try server.startGoogleCalendarConnection(as: ana).data?["startGoogleCalendarConnection"]?["authorizationUrl"]?.stringValue)
            let consent = try google.consent(to: url)
            let stolen = try server.completeGoogleCalendarConnection(code: consent.code, state: consent.state, as: ben)
            #expect(stolen.errorField == "input.state", "\(stolen.json)")
            let completed = try server.completeGoogleCalendarConnection(code: consent.code, state: consent.state, as: ana)
            let connection = try #require(completed.data?["completeGoogleCalendarConnection"]?["connection"], "\(completed.json)")
            #expect(connection["status"] == "ACTIVE" && connection["id"]?.stringValue?.hasPrefix("gco_") == true, "\(connection)")
            let node = try server.graphQL(
                "query($id: ID!) { node(id: $id) { __typename ... on GoogleCalendarConnection { status } } }",
                variables: ["id": connection["id"]!], token: ana.token)
            #expect(node.data?["node"]?["status"] == "ACTIVE", "\(node.json)")
            let replayed = try server.completeGoogleCalendarConnection(code: consent.code, state: consent.state, as: ana)
            #expect(replayed.errorField == "input.state" && replayed.json["errors"]?[0]?["extensions"]?["fieldErrors"]?[0]?["reason"] == "UNKNOWN_VALUE")

            // Of more than --google-max-open-attempts (5) open attempts, the oldest stops working.
            var consents: [(code: String, state: String, location: String)] = []
            for _ in 0..<6 {
                let url = try #require(try server.startGoogleCalendarConnection(as: ana).data?["startGoogleCalendarConnection"]?["authorizationUrl"]?.stringValue)
                consents.append(try google.consent(to: url))
            }
            let evicted = try server.completeGoogleCalendarConnection(code: consents[0].code, state: consents[0].state, as: ana)
            #expect(evicted.errorField == "input.state", "the sixth attempt ended the first: \(evicted.json)")
            let kept = try server.completeGoogleCalendarConnection(code: consents[1].code, state: consents[1].state, as: ana)
            #expect(kept.errorCode == nil, "the second is among the five newest: \(kept.json)")

            // A code Google does not know (PKCE checked by the stand-in) is refused on input.code.
            let other = try #require(try server.startGoogleCalendarConnection(as: ana).data?["startGoogleCalendarConnection"]?["authorizationUrl"]?.stringValue)
            let otherConsent = try google.consent(to: other)
            let forged = try server.completeGoogleCalendarConnection(code: "4/forged", state: otherConsent.state, as: ana)
            #expect(forged.errorField == "input.code", "\(forged.json)")
        }
    }

    @Test func FR62_withoutAClientIdTheFeatureIsUnavailable() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let started = try server.startGoogleCalendarConnection(as: ana)
        #expect(started.errorCode == "UNAVAILABLE" && started.json["errors"]?[0]?["message"]?.stringValue?.contains("--google-client-id") == true, "\(started.json)")
        #expect(try server.googleCalendars(as: ana).errorCode == "UNAVAILABLE")
        #expect(try server.get("/oauth/google/callback?code=x&state=y").status == 503)
        // A client id without its secret stops the start.
        #expect(throws: ServerProcess.Failure.self) {
            try ServerProcess(ServerProcess.householdArguments + ["--google-client-id", "x.apps.googleusercontent.com"])
        }
    }

    @Test func FR62_theLimitsHoldAtTheirEdgesAndRateLimitsDelayTheNextSync() throws {
        let google = try LoopbackGoogleCalendar()
        defer { google.stop() }
        let server = try ServerProcess(Self.arguments(google) + ["--google-max-calendars", "2", "--google-max-events", "3"])
        defer { server.remove() }
        let ana = try server.person("ana")
        try server.connectGoogle(google, as: ana)
        let three = [LoopbackGoogleCalendar.primary, LoopbackGoogleCalendar.family, LoopbackGoogleCalendar.holidays]
        let tooMany = try server.selectGoogleCalendars(three, as: ana)
        #expect(tooMany.errorField == "input.calendarIds" && tooMany.errorReason == "TOO_LARGE", "\(tooMany.json)")
        #expect(tooMany.json["errors"]?[0]?["extensions"]?["limit"] == 2)
        for day in 4...6 {
            try google.put(["id": "e\(day)", "status": "confirmed", "summary": "E\(day)",
                            "start": ["dateTime": "2027-01-0\(day)T10:00:00Z"], "end": ["dateTime": "2027-01-0\(day)T11:00:00Z"]])
        }
        let two = try server.selectGoogleCalendars(Array(three.prefix(2)), as: ana)
        #expect(two.errorCode == nil, "exactly the limit: \(two.json)")
        try server.waitForDueJobs()
        #expect(try Self.january(server, ana).count == 3, "exactly --google-max-events events sync")
        #expect(try server.selectGoogleCalendars([LoopbackGoogleCalendar.primary], as: ana).errorCode == nil)

        // Google answers 403 rateLimitExceeded with Retry-After: the failure is recorded and the next sync waits an hour.
        try google.control("POST", "/fail-next/403")
        let start = Date()
        try server.moveClock(to: start.addingTimeInterval(16 * 60))
        try server.waitForDueJobs()
        let primaryID = try #require(try server.databaseText(
            "SELECT id FROM imported_calendars WHERE google_calendar_id = '\(LoopbackGoogleCalendar.primary)'"))
        let limited = try #require(try server.importedCalendar(primaryID, as: ana))
        #expect(limited["lastRefreshError"]?.stringValue?.contains("403") == true, "\(limited)")
        let next = try #require(try server.databaseText("SELECT next_sync_at FROM imported_calendars WHERE id = '\(primaryID)'"))
        let nextSync = try #require(ISO8601DateFormatter().date(from: String(next.prefix(19)) + "Z"), "\(next)")
        #expect(nextSync.timeIntervalSince(start) > 16 * 60 + 3500, "Retry-After (an hour) outweighs the backoff: \(next)")

        // A fourth event makes the calendar bigger than --google-max-events: nothing of the sync is stored, and it says so.
        try google.put(["id": "e7", "status": "confirmed", "summary": "E7",
                        "start": ["dateTime": "2027-01-07T10:00:00Z"], "end": ["dateTime": "2027-01-07T11:00:00Z"]])
        try server.moveClock(to: nextSync.addingTimeInterval(1))
        try server.waitForDueJobs()
        let tooBig = try #require(try server.importedCalendar(primaryID, as: ana))
        #expect(tooBig["lastRefreshError"]?.stringValue?.contains("--google-max-events") == true, "\(tooBig)")
        #expect(try Self.january(server, ana).count == 3, "the events of the last sync stay")
        let byHand = try server.refreshImportedCalendar(primaryID, as: ana)
        #expect(byHand.errorReason == "NOT_ALLOWED" && byHand.json["errors"]?[0]?["message"]?.stringValue?.contains("Google") == true, "\(byHand.json)")
    }

    @Test func FR62_accessTokensAreRefreshedOnExpiryAndOn401AndInvalidGrantAsksToConnectAgain() throws {
        try Self.withGoogle { google, server, ana in
            try google.control("POST", "/expires-in/60")
            try server.connectGoogle(google, as: ana)
            try google.control("POST", "/expires-in/3600")
            try google.put(["id": "dentist", "status": "confirmed", "summary": "Dentist",
                            "start": ["dateTime": "2027-01-06T14:00:00Z"], "end": ["dateTime": "2027-01-06T15:00:00Z"]])
            // The access token expires within a minute: the calendar list already needs a refresh.
            #expect(try server.selectGoogleCalendars([LoopbackGoogleCalendar.primary], as: ana).errorCode == nil)
            try server.waitForDueJobs()
            #expect(try google.state()["refreshes"] as? Int == 1)
            #expect(try Self.january(server, ana) == ["Dentist 2027-01-06T14:00:00.000Z"])

            // Google stops accepting the access token before its expiry: 401, one refresh, the sync goes on.
            try google.control("POST", "/invalidate-access")
            let start = Date()
            try server.moveClock(to: start.addingTimeInterval(16 * 60))
            try server.waitForDueJobs()
            #expect(try google.state()["refreshes"] as? Int == 2)
            let listings = try Self.eventListings(google)
            #expect(listings.suffix(2).map(\.status) == [401, 200], "\(listings)")
            let calendar = try #require(try server.importedCalendars(as: ana)?.elements?.first)
            #expect(try server.importedCalendar(calendar["id"]?.stringValue ?? "", as: ana)?["lastRefreshError"] == .null)

            // Ana revokes Hearth's access at Google: invalid_grant, the connection needs her, and she is told.
            try google.control("POST", "/revoke-grants")
            try google.control("POST", "/invalidate-access")
            try server.moveClock(to: start.addingTimeInterval(32 * 60))
            try server.waitForDueJobs()
            let revoked = try #require(try server.googleCalendarConnection(of: ana))
            #expect(revoked["status"] == "REVOKED" && revoked["lastError"]?.stringValue?.contains("invalid_grant") == true, "\(revoked)")
            let notices = try server.notifications(of: ana)
            #expect(notices.first?["kind"] == "GOOGLE_CALENDAR_RECONNECT", "\(notices)")
            #expect(try server.googleCalendars(as: ana).errorCode == "NOT_FOUND")
            #expect(try Self.january(server, ana) == ["Dentist 2027-01-06T14:00:00.000Z"], "the synced events are kept")
            #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM jobs WHERE kind = 'google.calendar_sync' AND state = 'pending'") == "0", "no syncs until Ana connects again")

            // Connecting again revives it, and the sync resumes at once.
            try google.put(["id": "piano", "status": "confirmed", "summary": "Piano",
                            "start": ["dateTime": "2027-01-05T17:00:00Z"], "end": ["dateTime": "2027-01-05T18:00:00Z"]])
            #expect(try server.connectGoogle(google, as: ana).status == 200)
            try server.waitForDueJobs()
            #expect(try server.googleCalendarConnection(of: ana)?["status"] == "ACTIVE")
            #expect(try Self.january(server, ana) == ["Piano 2027-01-05T17:00:00.000Z", "Dentist 2027-01-06T14:00:00.000Z"])
        }
    }

    @Test func FR62_FR50A_aBusyGoogleEventDelaysAReminderToTheFreeSlot() throws {
        let google = try LoopbackGoogleCalendar()
        defer { google.stop() }
        let server = try ServerProcess(Self.arguments(google))
        defer { server.remove() }
        let f = try server.choreFamily()
        let due = BusyReminderTests.minute(5 * 3600, after: Date())
        let firesAt = due.addingTimeInterval(-2 * 3600)
        try BusyReminderTests.sharedChore(server, f, "Bins", due: due, reminders: ["PT2H"])
        #expect(try server.updateNotificationPreferences(["avoidBusyTimes": true], as: f.ana).errorCode == nil)
        try server.connectGoogle(google, as: f.ana)
        try google.put(["id": "meeting", "status": "confirmed", "summary": "Meeting",
                        "start": ["dateTime": BusyReminderTests.text(firesAt.addingTimeInterval(-600))],
                        "end": ["dateTime": BusyReminderTests.text(due.addingTimeInterval(-3600))]])
        #expect(try server.selectGoogleCalendars([LoopbackGoogleCalendar.primary], as: f.ana).errorCode == nil)
        try server.waitForDueJobs()

        try server.moveClock(to: firesAt.addingTimeInterval(1))
        try server.waitForDueJobs()
        #expect(try BusyReminderTests.outcomes(server, of: f.ana).isEmpty, "held back while Ana is in her Google meeting")
        try server.moveClock(to: due.addingTimeInterval(-3600 + 1))
        try server.waitForDueJobs()
        let original = String(BusyReminderTests.text(firesAt).prefix(16))
        #expect(try BusyReminderTests.outcomes(server, of: f.ana) == ["Bins DELAYED BUSY \(original)"])
    }

    @Test func FR62_choresAreExportedUpdatedInPlaceAndDeletedAndDisconnectingRevokes() throws {
        try Self.withGoogle { google, server, ana in
            try server.connectGoogle(google, as: ana)
            let chore = try server.chore("Water plants", in: nil, as: ana)
            let choreID = try #require(chore["id"]?.stringValue)
            let reader = try server.exportChoresToGoogleCalendar(LoopbackGoogleCalendar.holidays, as: ana)
            #expect(reader.errorField == "input.calendarId" && reader.errorReason == "UNKNOWN_VALUE", "a calendar Ana only reads: \(reader.json)")
            let exported = try server.exportChoresToGoogleCalendar(LoopbackGoogleCalendar.family, as: ana)
            #expect(exported.data?["exportChoresToGoogleCalendar"]?["connection"]?["exportCalendarId"]?.stringValue == LoopbackGoogleCalendar.family, "\(exported.json)")
            try server.waitForDueJobs()
            func family() throws -> [String: [String: Any]] {
                let exports = try #require(try google.state()["exports"] as? [String: [String: [String: Any]]])
                return exports[LoopbackGoogleCalendar.family] ?? [:]
            }
            let first = try family()
            #expect(first.count == 1 && first.values.first?["summary"] as? String == "Water plants", "\(first)")
            let eventID = try #require(first.keys.first)
            #expect(eventID.hasPrefix("hearth") && eventID.allSatisfy { "0123456789abcdefghijklmnopqrstuv".contains($0) }, "\(eventID)")
            #expect((first.values.first?["start"] as? [String: Any])?["dateTime"] as? String == "2036-03-01T09:00:00Z")

            // The chore is renamed: the next export updates the same event.
            #expect(try server.updateChore(["choreId": .string(choreID), "title": "Water all plants"], as: ana).errorCode == nil)
            let start = Date()
            try server.moveClock(to: start.addingTimeInterval(16 * 60))
            try server.waitForDueJobs()
            let second = try family()
            #expect(second.count == 1 && second[eventID]?["summary"] as? String == "Water all plants", "updated, not duplicated: \(second)")

            // Exported again from scratch (Hearth's record lost), Google's 409 turns the insert into an update.
            try server.databaseWrite("DELETE FROM google_exported_events")
            try server.moveClock(to: start.addingTimeInterval(32 * 60))
            try server.waitForDueJobs()
            #expect(try family().count == 1)
            let conflicts = try #require(try google.state()["log"] as? [[String: Any]]).filter { $0["status"] as? Int == 409 }
            #expect(conflicts.count == 1, "\(conflicts)")

            // The chore is deleted: so is its event.
            let deleted = try server.graphQL(
                "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { clientMutationId } }",
                variables: ServerProcess.input(["choreId": .string(choreID)]), token: ana.token)
            #expect(deleted.errorCode == nil, "\(deleted.json)")
            try server.moveClock(to: start.addingTimeInterval(48 * 60))
            try server.waitForDueJobs()
            #expect(try family().isEmpty)

            // Disconnecting removes the calendars and events at once, then the exported events at Google, and revokes the refresh token there.
            _ = try server.chore("Feed the cat", in: nil, as: ana)
            try server.moveClock(to: start.addingTimeInterval(64 * 60))
            try server.waitForDueJobs()
            #expect(try family().values.map { $0["summary"] as? String } == ["Feed the cat"])
            try google.put(["id": "dentist", "status": "confirmed", "summary": "Dentist",
                            "start": ["dateTime": "2027-01-06T14:00:00Z"], "end": ["dateTime": "2027-01-06T15:00:00Z"]])
            #expect(try server.selectGoogleCalendars([LoopbackGoogleCalendar.primary], as: ana).errorCode == nil)
            try server.waitForDueJobs()
            #expect(try Self.january(server, ana).count == 1)
            let disconnected = try server.disconnectGoogleCalendar(as: ana)
            #expect(disconnected.data?["disconnectGoogleCalendar"]?["disconnected"] == true, "\(disconnected.json)")
            try server.waitForDueJobs()
            let state = try google.state()
            let refreshToken = try #require((state["issued"] as? [String])?.first)
            #expect((state["revoked"] as? [String]) == [refreshToken])
            #expect(try family().isEmpty, "the exported events went before the token was revoked")
            #expect(try server.googleCalendarConnection(of: ana) == .null)
            #expect(try Self.january(server, ana).isEmpty && (try server.importedCalendars(as: ana)?.elements?.isEmpty ?? false))
        }
    }
}
