import Foundation
import GraphQL
import Testing

/// The chore export to Google Calendar (FR-62) beyond its basics (``GoogleCalendarTests``): a
/// change of an exported chore is exported `--google-export-delay` later, a burst of changes as one
/// export, and with `includeHouseholdChores` the household chores assigned to the user reach their
/// calendar while those of other members do not. The test clock moves the scheduler; nothing sleeps.
@Suite struct GoogleCalendarExportTests {
    /// The events exported to `calendar` at the stand-in, by event id.
    private static func exports(_ google: LoopbackGoogleCalendar, _ calendar: String = LoopbackGoogleCalendar.family) throws -> [String: [String: Any]] {
        let exports = try #require(try google.state()["exports"] as? [String: [String: [String: Any]]])
        return exports[calendar] ?? [:]
    }

    /// The titles exported to the family calendar, sorted.
    private static func titles(_ google: LoopbackGoogleCalendar) throws -> [String] {
        try exports(google).values.compactMap { $0["summary"] as? String }.sorted()
    }

    /// The export requests (`PUT`/`POST` of events) the stand-in answered.
    private static func writes(_ google: LoopbackGoogleCalendar) throws -> Int {
        try #require(try google.state()["log"] as? [[String: Any]]).filter {
            ["PUT", "POST"].contains($0["method"] as? String) && ($0["path"] as? String)?.contains("/events") == true
        }.count
    }

    @Test func FR62_aChangedChoreIsExportedAfterTheExportDelayAndABurstOfEditsMakesOneExport() throws {
        let google = try LoopbackGoogleCalendar()
        defer { google.stop() }
        let server = try ServerProcess(GoogleCalendarTests.arguments(google) + ["--google-export-delay", "60s"])
        defer { server.remove() }
        let ana = try server.person("ana")
        try server.connectGoogle(google, as: ana)
        let choreID = try #require(try server.chore("Water plants", in: nil, as: ana)["id"]?.stringValue)
        #expect(try server.exportChoresToGoogleCalendar(LoopbackGoogleCalendar.family, as: ana).errorCode == nil)
        try server.waitForDueJobs()
        #expect(try Self.titles(google) == ["Water plants"])
        let writesBefore = try Self.writes(google)

        // Three edits within the delay; the sync interval (15 minutes) is far away.
        let start = try server.moveClock(to: Date().addingTimeInterval(60))
        for title in ["Water the plants", "Water all plants", "Water every plant"] {
            #expect(try server.updateChore(["choreId": .string(choreID), "title": .string(title)], as: ana).errorCode == nil)
        }
        try server.moveClock(to: start.addingTimeInterval(55))
        try server.waitForDueJobs()
        #expect(try Self.titles(google) == ["Water plants"], "not before the delay")
        try server.moveClock(to: start.addingTimeInterval(65))
        try server.waitForDueJobs()
        #expect(try Self.titles(google) == ["Water every plant"], "the delay after the first edit")
        #expect(try Self.writes(google) == writesBefore + 1, "one export for the burst")

        // Deleted: its event goes from Google a delay later too.
        let deleted = try server.graphQL(
            "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { clientMutationId } }",
            variables: ServerProcess.input(["choreId": .string(choreID)]), token: ana.token)
        #expect(deleted.errorCode == nil, "\(deleted.json)")
        try server.moveClock(to: start.addingTimeInterval(130))
        try server.waitForDueJobs()
        #expect(try Self.titles(google).isEmpty, "deleted at Google a delay after the chore")
    }

    @Test func FR62_householdChoresAssignedToTheUserAreExportedAndOthersAreNot() throws {
        let google = try LoopbackGoogleCalendar()
        defer { google.stop() }
        let server = try ServerProcess(GoogleCalendarTests.arguments(google))
        defer { server.remove() }
        let f = try server.choreFamily()
        try server.connectGoogle(google, as: f.ana)
        let individual = { (memberID: String) -> [String: JSON] in ["assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(memberID)]] }
        _ = try server.chore("Dishes", in: f.householdID, as: f.ana, individual(f.anaMemberID))
        let bins = try #require(try server.chore("Bins", in: f.householdID, as: f.ana, individual(f.benMemberID))["id"]?.stringValue)
        _ = try server.chore("Cara's plants", in: f.caraHouseholdID, as: f.cara)
        _ = try server.chore("Stretch", in: nil, as: f.ana)

        #expect(try server.exportChoresToGoogleCalendar(LoopbackGoogleCalendar.family, as: f.ana).errorCode == nil)
        try server.waitForDueJobs()
        #expect(try Self.titles(google) == ["Stretch"], "personal chores only, unless asked")

        let both = try server.exportChoresToGoogleCalendar(LoopbackGoogleCalendar.family, includeHouseholdChores: true, as: f.ana)
        #expect(both.data?["exportChoresToGoogleCalendar"]?["connection"]?["exportsHouseholdChores"] == true, "\(both.json)")
        try server.waitForDueJobs()
        #expect(try Self.titles(google) == ["Dishes", "Stretch"], "Ben's bins stay out")

        // The bins handed to Ana: they join her calendar a delay (30 s by default) later, without waiting for the sync interval.
        let start = try server.moveClock(to: Date().addingTimeInterval(60))
        #expect(try server.updateChore(["choreId": .string(bins), "assigneeIds": [.string(f.anaMemberID)]], as: f.ana).errorCode == nil)
        try server.moveClock(to: start.addingTimeInterval(35))
        try server.waitForDueJobs()
        #expect(try Self.titles(google) == ["Bins", "Dishes", "Stretch"])

        // And leave it the same way when handed back to Ben.
        #expect(try server.updateChore(["choreId": .string(bins), "assigneeIds": [.string(f.benMemberID)]], as: f.ana).errorCode == nil)
        try server.moveClock(to: start.addingTimeInterval(70))
        try server.waitForDueJobs()
        #expect(try Self.titles(google) == ["Dishes", "Stretch"])
    }
}
