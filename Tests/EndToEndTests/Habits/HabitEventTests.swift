import Foundation
import GraphQL
import Support
import Testing

/// Habit events through the binary (issue 16, US 02.01 – 02.07, US 06.01), named by user story:
/// recording with a comment, a photo and a place, viewing, editing (removing the photo or the
/// place), deleting, and every refusal: long comments, photos of 65,536 bytes, bad coordinates,
/// days after today, other people's events.
@Suite struct HabitEventTests {
    /// A 1×1 PNG written by libpng.
    static let png = Array(Data(base64Encoded: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)
    /// A 1×1 lossless WebP.
    static let webp = Array(Data(base64Encoded: "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==")!)

    /// The PNG padded after its end to exactly `count` bytes: still a valid 1×1 image by content.
    static func png(bytes count: Int) -> [UInt8] {
        png + Array(repeating: 0, count: count - png.count)
    }

    static let recordWithPhoto = "mutation($input: RecordHabitEventInput!) { recordHabitEvent(input: $input) { habitEvent { \(ServerProcess.habitEventFields) } } }"

    private static func server() throws -> ServerProcess {
        try ServerProcess(ServerProcess.householdArguments)
    }

    /// The calendar day of `date` in `zone`, `YYYY-MM-DD`.
    private static func day(_ date: Date, in zone: String) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: zone)!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year!, parts.month!, parts.day!)
    }

    @Test func US_02_01_01_aParticipantRecordsDoingAHabitOnTodayInTheirTimeZoneByDefault() throws {
        let server = try Self.server()
        defer { server.remove() }
        let ana = try server.person("ana")
        let zone = try server.graphQL(
            "mutation { updateProfile(input: { timeZone: \"Pacific/Kiritimati\" }) { user { timeZone } } }", token: ana.token)
        #expect(zone.data?["updateProfile"]?["user"]?["timeZone"] == "Pacific/Kiritimati", "\(zone.json)")
        let runID = try server.habit("Run", as: ana)
        let before = Self.day(Date(), in: "Pacific/Kiritimati")
        let recorded = try server.recordHabitEvent(["habitId": .string(runID), "clientMutationId": "e1"], as: ana)
        let after = Self.day(Date(), in: "Pacific/Kiritimati")
        let event = try #require(recorded.data?["recordHabitEvent"]?["habitEvent"], "\(recorded.json)")
        #expect([before, after].contains(event["occurredOn"]?.stringValue ?? ""), "today at UTC+14")
        #expect(event["habit"]?["id"]?.stringValue == runID && event["comment"] == .null && event["photo"] == .null && event["location"] == .null)
        #expect(event["id"]?.stringValue?.hasPrefix("hev_") == true)
        let replay = try server.recordHabitEvent(["habitId": .string(runID), "clientMutationId": "e1"], as: ana)
        #expect(replay.data?["recordHabitEvent"]?["habitEvent"]?["id"] == event["id"])
        #expect(try server.historyComments(as: ana).count == 1, "a replay records nothing more")
        // A past day is fine; a day after today there is not.
        let past = try server.recordHabitEvent(["habitId": .string(runID), "occurredOn": "2026-01-05"], as: ana)
        #expect(past.data?["recordHabitEvent"]?["habitEvent"]?["occurredOn"] == "2026-01-05")
        let future = try server.recordHabitEvent(["habitId": .string(runID), "occurredOn": .string(Self.day(Date() + 3 * 86_400, in: "UTC"))], as: ana)
        #expect(future.errorCode == "BAD_USER_INPUT" && future.errorReason == "OUT_OF_RANGE" && future.errorExtensions?["field"] == "input.occurredOn")
        // Only the owner records for a habit.
        let ben = try server.person("ben")
        try server.acceptedFollow(of: ana, by: ben)
        #expect(try server.recordHabitEvent(["habitId": .string(runID)], as: ben).errorCode == "NOT_FOUND")
    }

    @Test func US_02_02_01_aCommentIsOptionalWithAtMostTwentyCharacters() throws {
        let server = try Self.server()
        defer { server.remove() }
        let ana = try server.person("ana")
        let runID = try server.habit("Run", as: ana)
        let twenty = String(repeating: HabitTests.family, count: 20)
        let accepted = try server.recordHabitEvent(["habitId": .string(runID), "comment": .string(twenty)], as: ana)
        #expect(accepted.data?["recordHabitEvent"]?["habitEvent"]?["comment"]?.stringValue == twenty, "\(accepted.json)")
        let refused = try server.recordHabitEvent(["habitId": .string(runID), "comment": .string(twenty + "!")], as: ana)
        #expect(refused.errorReason == "TOO_LONG" && refused.errorExtensions?["field"] == "input.comment")
        let twoLines = try server.recordHabitEvent(["habitId": .string(runID), "comment": "a\nb"], as: ana)
        #expect(twoLines.errorReason == "INVALID_FORMAT")
    }

    @Test func US_02_03_01_aPhotoIsServedWithItsETagToWhoeverMaySeeTheEvent() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, cara) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        let recorded = try server.graphQLUpload(
            Self.recordWithPhoto, input: ["habitId": .string(runID)], file: Self.webp,
            token: ana.token)
        let photo = try #require(recorded.data?["recordHabitEvent"]?["habitEvent"]?["photo"], "\(recorded.json)")
        #expect(photo["mediaType"] == "image/webp" && photo["width"] == 1 && photo["height"] == 1 && photo["byteCount"] == .int(Self.webp.count))
        let url = try #require(photo["url"]?.stringValue)
        #expect(url.hasPrefix(ServerProcess.householdBaseURL + "/habit-photos/pho_"))
        let path = String(url.dropFirst(ServerProcess.householdBaseURL.count))
        let served = try server.get(path, headers: "Authorization: Bearer \(ana.token)\r\n")
        let etag = "\"\(SHA256.hexDigest(of: Self.webp))\""
        #expect(served.status == 200 && served.body == Self.webp && served.headers["Content-Type"] == "image/webp")
        #expect(served.headers["ETag"] == etag && served.headers["Cache-Control"] == "private, no-cache")
        #expect(served.headers["X-Content-Type-Options"] == "nosniff")
        let revalidated = try server.get(path, headers: "Authorization: Bearer \(ana.token)\r\nIf-None-Match: \(etag)\r\n")
        #expect(revalidated.status == 304 && revalidated.body.isEmpty)
        // Signed out 401; a stranger 404; an accepted follower sees it; not once the habit is private.
        #expect(try server.get(path).status == 401)
        #expect(try server.get(path, headers: "Authorization: Bearer \(cara.token)\r\n").status == 404)
        try server.acceptedFollow(of: ana, by: ben)
        #expect(try server.get(path, headers: "Authorization: Bearer \(ben.token)\r\n").status == 200)
        _ = try server.graphQL(
            "mutation($input: UpdateHabitInput!) { updateHabit(input: $input) { habit { id } } }",
            variables: ServerProcess.input(["habitId": .string(runID), "visibility": "PRIVATE"]), token: ana.token)
        #expect(try server.get(path, headers: "Authorization: Bearer \(ben.token)\r\n").status == 404)
        // Not an image by content: refused, nothing stored.
        let html = try server.graphQLUpload(
            Self.recordWithPhoto, input: ["habitId": .string(runID)],
            file: Array("<html><script>alert(1)</script></html>".utf8), token: ana.token)
        #expect(html.errorReason == "UNSUPPORTED_FORMAT" && html.errorExtensions?["field"] == "input.photo")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_photos") == "1")
    }

    @Test func US_02_04_01_anEventIsViewedWithAllItsDetailsByWhoeverMaySeeIt() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, cara) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        let diaryID = try server.habit("Diary", as: ana, ["visibility": "PRIVATE"])
        let eventID = try server.habitEvent(
            of: runID, as: ana,
            ["comment": "Park loop", "occurredOn": "2026-01-05", "location": ["latitude": 38.7223, "longitude": -9.1393, "accuracyMeters": 12.5]])
        let secretID = try server.habitEvent(of: diaryID, as: ana, ["comment": "secret"])
        let query = "query($id: ID!) { habitEvent(id: $id) { \(ServerProcess.habitEventFields) } }"
        let viewed = try server.graphQL(query, variables: ["id": .string(eventID)], token: ana.token)
        let event = try #require(viewed.data?["habitEvent"], "\(viewed.json)")
        #expect(event["comment"] == "Park loop" && event["occurredOn"] == "2026-01-05" && event["habit"]?["title"] == "Run")
        #expect(event["location"] == ["latitude": 38.7223, "longitude": -9.1393, "accuracyMeters": 12.5])
        #expect(event["recordedAt"]?.stringValue?.hasSuffix("Z") == true)
        #expect(try server.graphQL(query, variables: ["id": .string(eventID)], token: ben.token).errorCode == "NOT_FOUND", "not followed yet")
        try server.acceptedFollow(of: ana, by: ben)
        #expect(try server.graphQL(query, variables: ["id": .string(eventID)], token: ben.token).data?["habitEvent"]?["comment"] == "Park loop")
        #expect(try server.graphQL(query, variables: ["id": .string(secretID)], token: ben.token).errorCode == "NOT_FOUND", "a private habit's event")
        #expect(try server.graphQL(query, variables: ["id": .string(eventID)], token: cara.token).errorCode == "NOT_FOUND")
        let node = try server.graphQL(
            "query($id: ID!) { node(id: $id) { id ... on HabitEvent { comment } } }", variables: ["id": .string(eventID)], token: ben.token)
        #expect(node.data?["node"]?["comment"] == "Park loop")
        #expect(try server.graphQL("query($id: ID!) { node(id: $id) { id } }", variables: ["id": .string(secretID)], token: ben.token).data?["node"] == .null)
    }

    @Test func US_02_05_01_aParticipantEditsAnEventAndRemovesItsPhotoOrPlaceWithNull() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        let readID = try server.habit("Read", as: ana)
        let eventID = try server.habitEvent(of: runID, as: ana, ["comment": "slow", "location": ["latitude": 1, "longitude": 2]])
        let withPhoto = try server.graphQLUpload(
            "mutation($input: UpdateHabitEventInput!) { updateHabitEvent(input: $input) { habitEvent { \(ServerProcess.habitEventFields) } } }",
            input: ["habitEventId": .string(eventID), "comment": "fast"], file: Self.png,
            token: ana.token)
        let photoed = try #require(withPhoto.data?["updateHabitEvent"]?["habitEvent"], "\(withPhoto.json)")
        #expect(photoed["comment"] == "fast" && photoed["photo"]?["mediaType"] == "image/png" && photoed["location"]?["latitude"] == 1)
        // Absent fields stay; null removes.
        let moved = try server.updateHabitEvent(["habitEventId": .string(eventID), "habitId": .string(readID), "occurredOn": "2026-01-06"], as: ana)
        let movedEvent = try #require(moved.data?["updateHabitEvent"]?["habitEvent"], "\(moved.json)")
        #expect(movedEvent["habit"]?["title"] == "Read" && movedEvent["occurredOn"] == "2026-01-06" && movedEvent["photo"] != .null)
        let removed = try server.updateHabitEvent(["habitEventId": .string(eventID), "photo": .null, "location": .null, "comment": .null], as: ana)
        let bare = try #require(removed.data?["updateHabitEvent"]?["habitEvent"], "\(removed.json)")
        #expect(bare["photo"] == .null && bare["location"] == .null && bare["comment"] == .null)
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_photos") == "0", "the removed photo is deleted")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_events WHERE geohash IS NOT NULL") == "0")
        let placed = try server.updateHabitEvent(["habitEventId": .string(eventID), "location": ["latitude": -33.8688, "longitude": 151.2093]], as: ana)
        #expect(placed.data?["updateHabitEvent"]?["habitEvent"]?["location"]?["longitude"] == 151.2093)
        #expect(try server.databaseText("SELECT geohash FROM habit_events") == "r3gx2f77b", "the grid key follows the place")
        // Only the owner writes.
        try server.acceptedFollow(of: ana, by: ben)
        #expect(try server.updateHabitEvent(["habitEventId": .string(eventID), "comment": "mine"], as: ben).errorCode == "NOT_FOUND")
        let otherHabit = try server.habit("Swim", as: ben)
        #expect(try server.updateHabitEvent(["habitEventId": .string(eventID), "habitId": .string(otherHabit)], as: ana).errorCode == "NOT_FOUND")
    }

    @Test func US_02_06_01_aParticipantDeletesAnEventAndItsPhoto() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        let recorded = try server.graphQLUpload(
            Self.recordWithPhoto, input: ["habitId": .string(runID), "comment": "gone"],
            file: Self.png, token: ana.token)
        let eventID = try #require(recorded.data?["recordHabitEvent"]?["habitEvent"]?["id"]?.stringValue, "\(recorded.json)")
        let mutation = "mutation($input: DeleteHabitEventInput!) { deleteHabitEvent(input: $input) { deletedHabitEventId } }"
        #expect(try server.graphQL(mutation, variables: ServerProcess.input(["habitEventId": .string(eventID)]), token: ben.token).errorCode == "NOT_FOUND")
        let deleted = try server.graphQL(mutation, variables: ServerProcess.input(["habitEventId": .string(eventID)]), token: ana.token)
        #expect(deleted.data?["deleteHabitEvent"]?["deletedHabitEventId"]?.stringValue == eventID)
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_photos") == "0")
        #expect(try server.historyComments(["commentContains": "gone"], as: ana).isEmpty)
        #expect(try server.graphQL(mutation, variables: ServerProcess.input(["habitEventId": .string(eventID)]), token: ana.token).errorCode == "NOT_FOUND")
    }

    @Test func US_02_07_01_aPhotoIsStoredInUnder65536Bytes() throws {
        let server = try Self.server()
        defer { server.remove() }
        let ana = try server.person("ana")
        let runID = try server.habit("Run", as: ana)
        let largest = try server.graphQLUpload(
            Self.recordWithPhoto, input: ["habitId": .string(runID)], file: Self.png(bytes: 65_535),
            token: ana.token)
        #expect(largest.data?["recordHabitEvent"]?["habitEvent"]?["photo"]?["byteCount"] == 65_535, "\(largest.json)")
        let tooLarge = try server.graphQLUpload(
            Self.recordWithPhoto, input: ["habitId": .string(runID), "comment": "big"],
            file: Self.png(bytes: 65_536), token: ana.token)
        #expect(tooLarge.errorCode == "BAD_USER_INPUT" && tooLarge.errorReason == "TOO_LARGE" && tooLarge.errorExtensions?["field"] == "input.photo")
        #expect(tooLarge.errorExtensions?["limit"] == 65_535)
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_photos") == "1" && server.historyComments(as: ana).count == 1, "nothing stored")
    }

    @Test func US_06_01_01_aPlaceIsOptionalAndOutOfRangeCoordinatesAreRefused() throws {
        let server = try Self.server()
        defer { server.remove() }
        let ana = try server.person("ana")
        let runID = try server.habit("Run", as: ana)
        let edge = try server.recordHabitEvent(["habitId": .string(runID), "location": ["latitude": 90, "longitude": -180, "accuracyMeters": 0]], as: ana)
        #expect(edge.data?["recordHabitEvent"]?["habitEvent"]?["location"] == ["latitude": 90, "longitude": -180, "accuracyMeters": 0], "\(edge.json)")
        let refusals: [(JSON, String)] = [
            (["latitude": 90.0000001, "longitude": 0], "input.location.latitude"),
            (["latitude": -90.5, "longitude": 0], "input.location.latitude"),
            (["latitude": 0, "longitude": 180.0000001], "input.location.longitude"),
            (["latitude": 0, "longitude": -181], "input.location.longitude"),
            (["latitude": 0, "longitude": 0, "accuracyMeters": -1], "input.location.accuracyMeters"),
        ]
        for (location, field) in refusals {
            let refused = try server.recordHabitEvent(["habitId": .string(runID), "location": location], as: ana)
            #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorReason == "OUT_OF_RANGE" && refused.errorExtensions?["field"]?.stringValue == field)
        }
        // JSON has no NaN or infinity: such a value is no Float and never reaches the service.
        let notANumber = try server.graphQL(
            "mutation { recordHabitEvent(input: { habitId: \"\(runID)\", location: { latitude: \"NaN\", longitude: 0 } }) { habitEvent { id } } }",
            token: ana.token)
        #expect(notANumber.json["errors"] != nil && notANumber.data?["recordHabitEvent"] == nil)
        #expect(try server.historyComments(as: ana).count == 1, "only the event at the edge was stored")
    }
}
