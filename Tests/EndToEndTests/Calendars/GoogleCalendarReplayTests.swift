import Foundation
import GraphQL
import Testing

/// Replays of the Google Calendar mutations (FR-62; docs/api-conventions.md, "Mutations"): sent
/// again with the same `clientMutationId`, each answers its first result and changes nothing, as
/// an offline queue that cannot tell whether a mutation arrived needs.
@Suite struct GoogleCalendarReplayTests {
    @Test func FR62_aReplayedGoogleMutationAnswersTheFirstResultAndChangesNothing() throws {
        let google = try LoopbackGoogleCalendar()
        defer { google.stop() }
        let server = try ServerProcess(GoogleCalendarTests.arguments(google))
        defer { server.remove() }
        let ana = try server.person("ana")

        // Starting: the same URL again, one attempt, and the record keeps the URL (its state is a secret) sealed.
        let started = try server.startGoogleCalendarConnection(as: ana, replayID: "start-1")
        let url = try #require(started.data?["startGoogleCalendarConnection"]?["authorizationUrl"]?.stringValue, "\(started.json)")
        let restarted = try server.startGoogleCalendarConnection(as: ana, replayID: "start-1")
        #expect(restarted.data?["startGoogleCalendarConnection"]?["authorizationUrl"]?.stringValue == url, "\(restarted.json)")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM google_authorizations") == "1")
        let consent = try google.consent(to: url)
        let record = try #require(try server.databaseText("SELECT result FROM mutation_replays WHERE client_mutation_id = 'start-1'"))
        #expect(!record.contains(consent.state) && !record.contains("state="), "\(record)")

        // Completing: the connection again, though the state is spent, and one code exchange at Google.
        let completed = try server.completeGoogleCalendarConnection(code: consent.code, state: consent.state, as: ana, replayID: "complete-1")
        let connectionID = try #require(completed.data?["completeGoogleCalendarConnection"]?["connection"]?["id"]?.stringValue, "\(completed.json)")
        let issued = try #require(try google.state()["issued"] as? [String])
        let recompleted = try server.completeGoogleCalendarConnection(code: consent.code, state: consent.state, as: ana, replayID: "complete-1")
        #expect(recompleted.data?["completeGoogleCalendarConnection"]?["connection"]?["id"]?.stringValue == connectionID, "\(recompleted.json)")
        #expect(try google.state()["issued"] as? [String] == issued, "no second code exchange")

        // Selecting: a replay after a newer selection does not select again.
        #expect(try server.selectGoogleCalendars([LoopbackGoogleCalendar.primary], as: ana, replayID: "select-1").errorCode == nil)
        #expect(try server.selectGoogleCalendars([], as: ana).errorCode == nil)
        let reselected = try server.selectGoogleCalendars([LoopbackGoogleCalendar.primary], as: ana, replayID: "select-1")
        #expect(reselected.errorCode == nil, "\(reselected.json)")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM imported_calendars WHERE google_calendar_id IS NOT NULL") == "0")

        // Exporting: a replay after the export was stopped answers the connection as it is, and does not export again.
        #expect(try server.exportChoresToGoogleCalendar(LoopbackGoogleCalendar.family, as: ana, replayID: "export-1").errorCode == nil)
        #expect(try server.exportChoresToGoogleCalendar(nil, as: ana).errorCode == nil)
        let reexported = try server.exportChoresToGoogleCalendar(LoopbackGoogleCalendar.family, as: ana, replayID: "export-1")
        #expect(reexported.errorCode == nil && reexported.data?["exportChoresToGoogleCalendar"]?["connection"]?["exportCalendarId"] == .null, "\(reexported.json)")
        #expect(try server.databaseText("SELECT export_calendar_id FROM google_connections") == nil)

        // An id used for another mutation is refused.
        let reused = try server.disconnectGoogleCalendar(as: ana, replayID: "export-1")
        #expect(reused.errorCode == "CONFLICT" && reused.errorReason == "CLIENT_MUTATION_ID_REUSED", "\(reused.json)")

        // Disconnecting: true again (without the id, a second disconnect answers false), and one revocation.
        #expect(try server.disconnectGoogleCalendar(as: ana, replayID: "disconnect-1").data?["disconnectGoogleCalendar"]?["disconnected"] == true)
        let redisconnected = try server.disconnectGoogleCalendar(as: ana, replayID: "disconnect-1")
        #expect(redisconnected.data?["disconnectGoogleCalendar"]?["disconnected"] == true, "\(redisconnected.json)")
        #expect(try server.disconnectGoogleCalendar(as: ana).data?["disconnectGoogleCalendar"]?["disconnected"] == false)
        try server.waitForDueJobs()
        #expect((try google.state()["revoked"] as? [String])?.count == 1)
    }
}
