import Foundation
import GraphQL
import Testing

/// The `calendar` query (FR-59) through the binary: personal chores, the household's instances
/// (planned ones beyond the horizon included) and availability events, grouped by day in the
/// caller's time zone, across a daylight saving change, within its limits, and nobody else's.
@Suite struct CalendarTests {
    @Test func FR_59_entriesAreGroupedByDayInTheCallersZoneAcrossASpringForward() throws {
        let server = try ServerProcess(ServerProcess.adherenceArguments)
        defer { server.remove() }
        try server.moveClock(to: "2027-03-01T08:00:00Z")
        let ana = try server.person("ana")
        try server.setTimeZone("Europe/Berlin", of: ana)  // summer time from Sunday 2027-03-28, 02:00
        // Daily at 00:30 in Berlin: late the evening before in UTC, one hour earlier after the change.
        // Weeks beyond the 14-day horizon: computed, not stored.
        _ = try server.chore("Feed the cat", in: nil, as: ana, [
            "schedule": ["recurrence": "DTSTART;TZID=Europe/Berlin:20270326T003000\nRRULE:FREQ=DAILY;COUNT=4"],
        ])
        _ = try server.availabilityEvent([
            "title": "Choir", "startsAt": "2027-03-21T08:00:00Z", "endsAt": "2027-03-21T09:30:00Z", "recurrence": "RRULE:FREQ=WEEKLY;COUNT=3",
        ], as: ana)
        _ = try server.availabilityEvent(["title": "Night shift", "startsAt": "2027-03-27T22:00:00Z", "endsAt": "2027-03-28T01:00:00Z"], as: ana)
        _ = try server.availabilityEvent(["title": "Holiday", "startsOn": "2027-03-29", "endsOn": "2027-03-29", "availability": "FREE"], as: ana)

        #expect(try server.calendarLines(from: "2027-03-26", to: "2027-03-29", as: ana) == [
            "2027-03-26 Feed the cat 2027-03-25T23:30:00.000Z",
            "2027-03-27 Feed the cat 2027-03-26T23:30:00.000Z",
            "2027-03-27 Night shift 2027-03-27T22:00:00.000Z",
            "2027-03-28 Night shift 2027-03-27T22:00:00.000Z",
            "2027-03-28 Feed the cat 2027-03-27T23:30:00.000Z",
            "2027-03-28 Choir 2027-03-28T07:00:00.000Z",  // 09:00 in Berlin, now UTC+2
            "2027-03-29 Holiday 2027-03-28T22:00:00.000Z",
            "2027-03-29 Feed the cat 2027-03-28T22:30:00.000Z",
        ])
        let calendar = try server.calendarResponse(from: "2027-03-21", to: "2027-03-21", as: ana)
        #expect(calendar.data?["calendar"]?["timeZone"] == "Europe/Berlin", "\(calendar.json)")
        #expect(try server.calendarLines(from: "2027-03-21", to: "2027-03-21", as: ana) == ["2027-03-21 Choir 2027-03-21T08:00:00.000Z"])
    }

    @Test func FR_59_theViewedHouseholdsInstancesShowForEveryMemberAndNothingOfAnotherAccount() throws {
        try ServerProcess.withChoreFamily { server, f in
            _ = try server.chore("Dishes", in: f.householdID, as: f.ana, [
                "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "schedule": ["once": "2036-03-01T09:00:00Z"],
            ])
            _ = try server.chore("Ben's own", in: nil, as: f.ben, ["schedule": ["once": "2036-03-01T10:00:00Z"]])
            _ = try server.availabilityEvent(["title": "Ben busy", "startsAt": "2036-03-01T11:00:00Z", "endsAt": "2036-03-01T12:00:00Z"], as: f.ben)
            _ = try server.chore("Cara's chore", in: f.caraHouseholdID, as: f.cara, ["schedule": ["once": "2036-03-01T08:00:00Z"]])

            // Ana's active household is the family's: Ben's chore there shows, nothing of Ben's own.
            #expect(try server.calendarLines(from: "2036-03-01", to: "2036-03-01", as: f.ana) == ["2036-03-01 Dishes 2036-03-01T09:00:00.000Z"])
            #expect(try server.calendarLines(from: "2036-03-01", to: "2036-03-01", householdID: f.householdID, as: f.ben) == [
                "2036-03-01 Dishes 2036-03-01T09:00:00.000Z", "2036-03-01 Ben's own 2036-03-01T10:00:00.000Z",
                "2036-03-01 Ben busy 2036-03-01T11:00:00.000Z",
            ])
            let foreign = try server.calendarResponse(from: "2036-03-01", to: "2036-03-01", householdID: f.householdID, as: f.cara)
            #expect(foreign.errorCode == "NOT_FOUND", "\(foreign.json)")
            #expect(try server.calendarLines(from: "2036-03-01", to: "2036-03-01", as: f.cara) == ["2036-03-01 Cara's chore 2036-03-01T08:00:00.000Z"])
        }
    }

    @Test func FR_59_theRangeAndTheNumberOfEntriesAreBoundedAtTheirEdges() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--max-calendar-days", "31", "--max-calendar-entries", "3"])
        defer { server.remove() }
        let ana = try server.person("ana")
        #expect(try server.calendarResponse(from: "2036-03-01", to: "2036-03-31", as: ana).data?["calendar"]?["days"] == [])
        let long = try server.calendarResponse(from: "2036-03-01", to: "2036-04-01", as: ana)
        #expect(long.errorCode == "BAD_USER_INPUT" && long.errorExtensions?["field"] == "to" && long.errorExtensions?["fieldErrors"]?[0]?["reason"] == "OUT_OF_RANGE")
        let backwards = try server.calendarResponse(from: "2036-03-02", to: "2036-03-01", as: ana)
        #expect(backwards.errorCode == "BAD_USER_INPUT")
        _ = try server.availabilityEvent([
            "title": "Daily", "startsAt": "2036-03-01T08:00:00Z", "endsAt": "2036-03-01T09:00:00Z", "recurrence": "RRULE:FREQ=DAILY",
        ], as: ana)
        #expect(try server.calendarLines(from: "2036-03-01", to: "2036-03-03", as: ana).count == 3)
        let tooMany = try server.calendarResponse(from: "2036-03-01", to: "2036-03-04", as: ana)
        #expect(tooMany.errorCode == "BAD_USER_INPUT" && tooMany.errorExtensions?["fieldErrors"]?[0]?["reason"] == "TOO_LARGE", "\(tooMany.json)")
    }
}
