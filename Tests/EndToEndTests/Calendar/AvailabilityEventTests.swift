import Foundation
import GraphQL
import Testing

/// Availability events (FR-64) through the binary: busy and free time, timed or all-day, once or
/// recurring, made with client ids, edited (SEQUENCE), deleted (tombstones), carried by offline
/// sync, and nobody else's.
@Suite struct AvailabilityEventTests {
    @Test func FR_64_aTimedRecurringEventIsCreatedEditedAndDeletedAndOnlyItsOwnerSeesIt() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        try server.setTimeZone("Europe/Berlin", of: ana)
        let created = try server.availabilityEvent([
            "title": "  Evening class ", "startsAt": "2027-03-01T17:00:00Z", "endsAt": "2027-03-01T19:00:00Z",
            "recurrence": "RRULE:FREQ=WEEKLY;BYDAY=MO;COUNT=10",
        ], as: ana)
        let id = try #require(created["id"]?.stringValue)
        #expect(id.hasPrefix("avl_"))
        #expect(created["title"] == "Evening class" && created["availability"] == "BUSY" && created["isAllDay"] == false)
        #expect(created["timeZone"] == "Europe/Berlin" && created["recurrence"] == "RRULE:FREQ=WEEKLY;COUNT=10;BYDAY=MO" && created["sequence"] == 0)
        #expect(created["startsOn"] == .null && created["startsAt"] == "2027-03-01T17:00:00.000Z")

        let read = try server.graphQL("query($id: ID!) { node(id: $id) { ... on AvailabilityEvent { title } } }", variables: ["id": .string(id)], token: ana.token)
        #expect(read.data?["node"]?["title"] == "Evening class")
        let foreign = try server.graphQL("query($id: ID!) { availabilityEvent(id: $id) { title } }", variables: ["id": .string(id)], token: ben.token)
        #expect(foreign.errorCode == "NOT_FOUND")
        #expect(try server.updateAvailabilityEvent(["availabilityEventId": .string(id), "title": "Mine now"], as: ben).errorCode == "NOT_FOUND")
        #expect(try server.deleteAvailabilityEvent(id, as: ben).errorCode == "NOT_FOUND")

        let updated = try server.updateAvailabilityEvent(["availabilityEventId": .string(id), "availability": "FREE", "recurrence": .null], as: ana)
        let event = try #require(updated.data?["updateAvailabilityEvent"]?["availabilityEvent"], "\(updated.json)")
        #expect(event["availability"] == "FREE" && event["recurrence"] == .null && event["sequence"] == 1 && event["title"] == "Evening class")
        let allDay = try server.updateAvailabilityEvent(
            ["availabilityEventId": .string(id), "startsOn": "2027-03-05", "endsOn": "2027-03-06"], as: ana)
        let whole = try #require(allDay.data?["updateAvailabilityEvent"]?["availabilityEvent"], "\(allDay.json)")
        // Whole days in Berlin (UTC+1 in March): midnight to the midnight after the last day.
        #expect(whole["isAllDay"] == true && whole["startsAt"] == "2027-03-04T23:00:00.000Z" && whole["endsAt"] == "2027-03-06T23:00:00.000Z")
        #expect(whole["sequence"] == 2)

        let deleted = try server.deleteAvailabilityEvent(id, as: ana)
        #expect(deleted.data?["deleteAvailabilityEvent"]?["deletedAvailabilityEventId"]?.stringValue == id)
        let afterDelete = try server.updateAvailabilityEvent(["availabilityEventId": .string(id), "title": "Again"], as: ana)
        #expect(afterDelete.errorCode == "NOT_FOUND" && afterDelete.errorReason == "DELETED")
        #expect(try server.deleteAvailabilityEvent(id, as: ben).errorReason == nil)
    }

    @Test func FR_64_offlineSyncCarriesTheEventsOfTheirOwnerOnlyAndAClientIDMakesOneEvent() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let ben = try server.person("ben")
        let anaCursor = try server.syncCursor(as: ana)
        let benCursor = try server.syncCursor(as: ben)
        let clientID = "avl_0190cccc-0000-7000-8000-000000000001"
        let input: [String: JSON] = [
            "id": .string(clientID), "title": "Shift", "startsAt": "2027-03-01T06:00:00Z", "endsAt": "2027-03-01T14:00:00Z",
        ]
        let first = try server.availabilityEvent(input, as: ana)
        let again = try server.availabilityEvent(input.merging(["title": "Other"]) { _, new in new }, as: ana)
        #expect(first["id"]?.stringValue == clientID && again["id"]?.stringValue == clientID && again["title"] == "Shift")
        #expect(try server.createAvailabilityEvent(input, as: ben).errorReason == "ID_TAKEN")

        let upserts = try server.allChanges(since: anaCursor, node: "id", as: ana).changes
        #expect(upserts.contains { $0.operation == "UPSERT" && $0.id == clientID && $0.typename == "AvailabilityEvent" && $0.nodeID == clientID })
        _ = try server.deleteAvailabilityEvent(clientID, as: ana)
        let afterDelete = try server.allChanges(since: anaCursor, as: ana).changes
        #expect(afterDelete.last?.operation == "DELETE" && afterDelete.last?.id == clientID)
        #expect(try server.allChanges(since: benCursor, as: ben).changes.allSatisfy { $0.id != clientID })
        // Deletes win: the same id is never made again.
        #expect(try server.createAvailabilityEvent(input, as: ana).errorReason == "DELETED")
    }

    @Test func FR_64_badInputIsRefusedFieldByFieldAndTheLimitPerUserHoldsAtItsEdge() throws {
        let server = try ServerProcess(ServerProcess.householdArguments + ["--max-availability-events-per-user", "2"])
        defer { server.remove() }
        let ana = try server.person("ana")
        func problems(_ input: [String: JSON]) throws -> [String] {
            let response = try server.createAvailabilityEvent(input, as: ana)
            #expect(response.errorCode == "BAD_USER_INPUT", "\(response.json)")
            guard case .array(let list)? = response.errorExtensions?["fieldErrors"] else { return [] }
            return list.map { "\($0["field"]?.stringValue ?? "") \($0["reason"]?.stringValue ?? "")" }
        }
        #expect(try problems(["title": " "]) == ["input.title REQUIRED", "input.startsAt REQUIRED"])
        #expect(try problems([
            "title": "Both", "startsAt": "2027-03-01T06:00:00Z", "endsAt": "2027-03-01T07:00:00Z", "startsOn": "2027-03-01", "endsOn": "2027-03-01",
        ]) == ["input.startsAt NOT_ALLOWED"])
        #expect(try problems(["title": "Backwards", "startsAt": "2027-03-01T06:00:00Z", "endsAt": "2027-03-01T06:00:00Z"]) == ["input.endsAt OUT_OF_RANGE"])
        #expect(try problems(["title": "Days", "startsOn": "2027-03-02", "endsOn": "2027-03-01"]) == ["input.endsOn OUT_OF_RANGE"])
        let hourly = try server.createAvailabilityEvent(
            ["title": "Hourly", "startsAt": "2027-03-01T06:00:00Z", "endsAt": "2027-03-01T07:00:00Z", "recurrence": "RRULE:FREQ=HOURLY"], as: ana)
        #expect(hourly.errorCode == "BAD_USER_INPUT" && hourly.errorExtensions?["field"] == "input.recurrence", "\(hourly.json)")
        #expect(hourly.json["errors"]?[0]?["message"]?.stringValue?.contains("HOURLY") == true, "\(hourly.json)")
        let twice = try server.createAvailabilityEvent([
            "title": "Twice", "startsAt": "2027-03-01T06:00:00Z", "endsAt": "2027-03-01T07:00:00Z",
            "recurrence": "DTSTART:20270301T060000Z\nRRULE:FREQ=DAILY",
        ], as: ana)
        #expect(twice.errorExtensions?["field"] == "input.recurrence")

        let day: [String: JSON] = ["title": "Day", "startsOn": "2027-03-01", "endsOn": "2027-03-01"]
        _ = try server.availabilityEvent(day, as: ana)
        _ = try server.availabilityEvent(day, as: ana)
        let third = try server.createAvailabilityEvent(day, as: ana)
        #expect(third.errorCode == "CONFLICT" && third.errorReason == "LIMIT_REACHED", "\(third.json)")
    }
}
