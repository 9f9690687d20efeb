import Foundation
import GraphQL
import Testing

/// Schedules through the binary (issue 14: FR-36, FR-37, FR-43): which time zone a recurrence is
/// read in, what happens when it changes, unknown zones, and the configurable recurrence limits.
@Suite struct ScheduleZonesAndLimitsTests {
    /// `date` as an iCalendar date, `YYYYMMDD`, in `zone`.
    private static func icalendarDay(_ date: Date, in zone: String) throws -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d%02d%02d", parts.year!, parts.month!, parts.day!)
    }

    /// The first message of a refusal.
    private static func message(_ response: ServerProcess.GraphQLResponse) -> String {
        response.json["errors"]?[0]?["message"]?.stringValue ?? ""
    }

    @Test func FR36_aRecurrenceLongerThanTheLimitOrWithMoreExdatesIsRefusedNamingTheLimitAndBothAreConfigurable() throws {
        let server = try ServerProcess(
            ServerProcess.householdArguments + ["--max-recurrence-length", "120"], environment: ["HEARTH_MAX_RECURRENCE_EXDATES": "2"])
        defer { server.remove() }
        let f = try server.choreFamily()
        func create(_ recurrence: String) throws -> ServerProcess.GraphQLResponse {
            try server.createChore(["householdId": .string(f.householdID), "title": "X", "schedule": ["recurrence": .string(recurrence)]], as: f.ana)
        }
        let rule = "DTSTART:20370105T090000\nRRULE:FREQ=DAILY\n"
        let atLimit = rule + String(repeating: "\n", count: 120 - rule.utf8.count)
        #expect(try create(atLimit).data?["createChore"]?["chore"]?["id"] != nil, "120 bytes")
        let tooLong = try create(atLimit + "\n")
        #expect(tooLong.errorCode == "BAD_USER_INPUT" && tooLong.errorReason == "TOO_LONG", "\(tooLong.json)")
        #expect(tooLong.errorExtensions?["field"] == "input.schedule.recurrence" && Self.message(tooLong).contains("120 bytes"), "\(tooLong.json)")
        let two = rule + "EXDATE:20370106T090000,20370107T090000"
        #expect(try create(two).data?["createChore"]?["chore"]?["id"] != nil, "two EXDATE values")
        let three = try create(two + ",20370108T090000")
        #expect(three.errorCode == "BAD_USER_INPUT" && three.errorReason == "TOO_LONG" && Self.message(three).contains("at most 2 EXDATE"), "\(three.json)")
    }

    @Test func FR36_anUnknownTimeZoneIsRefusedByNameAndNeverReadAsUTC() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let unknownTZID = try server.createChore([
            "householdId": .string(f.householdID), "title": "X", "schedule": ["recurrence": "DTSTART;TZID=Mars/Olympus_Mons:20370105T090000\nRRULE:FREQ=DAILY"],
        ], as: f.ana)
        #expect(unknownTZID.errorCode == "BAD_USER_INPUT" && unknownTZID.errorReason == "UNKNOWN_VALUE", "\(unknownTZID.json)")
        #expect(unknownTZID.errorExtensions?["field"] == "input.schedule.recurrence" && Self.message(unknownTZID).contains("Mars/Olympus_Mons"))
        // A zone the system's database dropped since the household chose it.
        try server.databaseWrite("UPDATE households SET time_zone = 'Atlantis/Poseidonia' WHERE id = '\(f.householdID)'")
        let floating = try server.createChore([
            "householdId": .string(f.householdID), "title": "X", "schedule": ["recurrence": "DTSTART:20370105T090000\nRRULE:FREQ=DAILY"],
        ], as: f.ana)
        #expect(floating.errorCode == "BAD_USER_INPUT" && Self.message(floating).contains("Atlantis/Poseidonia"), "\(floating.json)")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM chores") == "0")
    }

    @Test func FR36_changingTheHouseholdsTimeZoneMovesWhatHasNotStartedOfChoresWithoutTZIDAndNotWhatIsDone() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let tomorrow = try Self.icalendarDay(Date().addingTimeInterval(86_400), in: "UTC")
        let chore = try server.chore("Plants", in: f.householdID, as: f.ana, [
            "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "requiresApproval": false,
            "schedule": ["recurrence": .string("DTSTART:\(tomorrow)T090000\nRRULE:FREQ=DAILY")],
        ])
        let choreID = try #require(chore["id"]?.stringValue)
        let before = try server.myInstances(as: f.ben).filter { $0["chore"]?["id"]?.stringValue == choreID }
        #expect(!before.isEmpty && before.allSatisfy { $0["dueAt"]?.stringValue?.hasSuffix("T09:00:00.000Z") == true }, "UTC: \(before)")
        let first = try #require(before.first?["id"]?.stringValue)
        #expect(try server.completeChore(first, as: f.ben).data?["completeChore"]?["outcome"] == "COMPLETED")
        let updated = try server.graphQL(
            "mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { household { timeZone } } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "timeZone": "Asia/Kathmandu"]), token: f.ana.token)
        #expect(updated.data?["updateHousehold"]?["household"]?["timeZone"] == "Asia/Kathmandu", "\(updated.json)")
        let after = try server.myInstances(as: f.ben).filter { $0["chore"]?["id"]?.stringValue == choreID }
        #expect(!after.isEmpty && after.allSatisfy { $0["dueAt"]?.stringValue?.hasSuffix("T03:15:00.000Z") == true }, "09:00 in Kathmandu: \(after)")
        let done = try server.myInstances(as: f.ben, filter: ["statuses": ["COMPLETED"]]).filter { $0["chore"]?["id"]?.stringValue == choreID }
        #expect(done.map { $0["id"] } == [.string(first)] && done.first?["dueAt"]?.stringValue?.hasSuffix("T09:00:00.000Z") == true, "\(done)")
    }

    @Test func FR43_aChoreFromAPresetStartsOnItsFirstDueDayInTheHouseholdsZoneNotOnUTCsDate() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        // A zone whose date differs from UTC's now: 11 hours behind before 11:00 UTC, 14 ahead after.
        let hour = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour!
        let zone = hour < 11 ? "Pacific/Pago_Pago" : "Pacific/Kiritimati"
        let updated = try server.graphQL(
            "mutation($input: UpdateHouseholdInput!) { updateHousehold(input: $input) { household { timeZone } } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "timeZone": .string(zone)]), token: f.ana.token)
        #expect(updated.errorCode == nil, "\(updated.json)")
        let before = Date()
        // "Feed the pet", daily at 08:00: the first 08:00 at or after now in the household's zone.
        let created = try server.createChore(["householdId": .string(f.householdID), "presetId": "prs_00000000-0000-4000-8000-000000000004"], as: f.ana)
        let after = Date()
        let recurrence = try #require(created.data?["createChore"]?["chore"]?["schedule"]?["recurrence"]?.stringValue, "\(created.json)")
        let expected = try [before, after].map { "DTSTART;TZID=\(zone):\(try Self.icalendarDay(Self.nextEight(after: $0, in: zone), in: zone))T080000" }
        #expect(expected.contains { recurrence.hasPrefix($0) }, "\(recurrence), expected \(expected)")
        // "Tidy your room", Saturdays at 10:00: whatever the day today, the chore's first two
        // occurrences are a week apart (no extra one on the day it was made).
        let tidy = try server.createChore(["householdId": .string(f.householdID), "presetId": "prs_00000000-0000-4000-8000-000000000002"], as: f.ana)
        let tidyID = try #require(tidy.data?["createChore"]?["chore"]?["id"]?.stringValue, "\(tidy.json)")
        let next = try server.graphQL(
            "query($id: ID!, $after: DateTime!) { chore(id: $id) { occurrences(after: $after, first: 2) } }",
            variables: ["id": .string(tidyID), "after": .string(ISO8601DateFormatter().string(from: before))], token: f.ana.token)
        guard case .array(let times)? = next.data?["chore"]?["occurrences"] else { Issue.record("\(next.json)"); return }
        let dates = times.compactMap { $0.stringValue }.compactMap { try? Date($0, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) }
        #expect(dates.count == 2 && dates[1].timeIntervalSince(dates[0]) == 7 * 86_400, "\(dates)")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        #expect(dates.first.map { calendar.component(.weekday, from: $0) } == 7, "a Saturday in \(zone): \(dates)")
    }

    /// The first 08:00 in `zone` at or after `date`.
    private static func nextEight(after date: Date, in zone: String) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: zone))
        let eight = try #require(calendar.date(bySettingHour: 8, minute: 0, second: 0, of: date))
        return eight >= date ? eight : try #require(calendar.date(byAdding: .day, value: 1, to: eight))
    }
}
