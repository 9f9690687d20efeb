import Foundation
import GraphQL
import Testing

/// Ids made offline and deletes that win, through the binary (issue 17): the reasons a client
/// branches on (`ID_TAKEN`, `DELETED`) reach it in `extensions.reason`, a stranger learns nothing,
/// and a photo queued with an event is stored once however often the upload is retried.
@Suite struct ClientIDEndToEndTests {
    private static let habitID = "hab_0190cccc-0000-7000-8000-000000000001"
    private static let eventID = "hev_0190cccc-0000-7000-8000-000000000001"

    @Test func takenAndDeletedIDsAnswerWithTheirReasonAndNothingOfWhoseTheyAre() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        #expect(try server.habit("Run", as: ana, ["id": .string(Self.habitID)]) == Self.habitID)
        let taken = try server.createHabit(["id": .string(Self.habitID), "title": "Swim"], as: ben)
        #expect(taken.errorCode == "BAD_USER_INPUT" && taken.errorReason == "ID_TAKEN" && taken.errorField == "input.id", "\(taken.json)")
        #expect(!"\(taken.json)".contains("ana") && !"\(taken.json)".contains("Run"))
        let wrongType = try server.createHabit(["id": .string(Self.eventID)], as: ana)
        #expect(wrongType.errorReason == "ID_TAKEN")
        let malformed = try server.createHabit(["id": "hab_0190CCCC-0000-7000-8000-000000000002"], as: ana)
        #expect(malformed.errorCode == "BAD_USER_INPUT" && malformed.errorReason == "INVALID_FORMAT")

        let deleted = try server.graphQL(
            "mutation($input: DeleteHabitInput!) { deleteHabit(input: $input) { deletedHabitId } }",
            variables: ServerProcess.input(["habitId": .string(Self.habitID)]), token: ana.token)
        #expect(deleted.data?["deleteHabit"]?["deletedHabitId"]?.stringValue == Self.habitID, "\(deleted.json)")
        let update = "mutation($input: UpdateHabitInput!) { updateHabit(input: $input) { habit { id } } }"
        let late = try server.graphQL(update, variables: ServerProcess.input(["habitId": .string(Self.habitID), "title": "Walk"]), token: ana.token)
        #expect(late.errorCode == "NOT_FOUND" && late.errorReason == "DELETED", "\(late.json)")
        let stranger = try server.graphQL(update, variables: ServerProcess.input(["habitId": .string(Self.habitID), "title": "Walk"]), token: ben.token)
        #expect(stranger.errorCode == "NOT_FOUND" && stranger.errorReason == nil, "\(stranger.json)")
        let again = try server.createHabit(["id": .string(Self.habitID)], as: ana)
        #expect(again.errorCode == "NOT_FOUND" && again.errorReason == "DELETED", "never made again")
    }

    @Test func aPhotoQueuedWithAnEventIsStoredOnceHoweverOftenTheUploadIsRetried() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        _ = try server.habit("Run", as: ana, ["id": .string(Self.habitID)])
        let record = "mutation($input: RecordHabitEventInput!) { recordHabitEvent(input: $input) { habitEvent { id photo { url } } } }"
        var urls: [JSON?] = []
        for attempt in 1...3 {
            let sent = try server.graphQLUpload(
                record, input: ["habitId": .string(Self.habitID), "id": .string(Self.eventID), "clientMutationId": .string("upload-\(attempt)")],
                file: HabitEventTests.png, token: ana.token)
            #expect(sent.data?["recordHabitEvent"]?["habitEvent"]?["id"]?.stringValue == Self.eventID, "\(sent.json)")
            urls.append(sent.data?["recordHabitEvent"]?["habitEvent"]?["photo"]?["url"])
        }
        #expect(urls[0] != nil && urls.allSatisfy { $0 == urls[0] })
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_photos") == "1")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_events") == "1")
    }

    @Test func aQueuedPhotoUploadSentAgainUnderItsOwnIDOrAfterPruningAnswersTheSameEventAndPhoto() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        _ = try server.habit("Run", as: ana, ["id": .string(Self.habitID)])
        let fields = "habitEvent { id comment updatedAt photo { url } }"
        let record = "mutation($input: RecordHabitEventInput!) { recordHabitEvent(input: $input) { \(fields) } }"
        let update = "mutation($input: UpdateHabitEventInput!) { updateHabitEvent(input: $input) { \(fields) } }"
        let recordInput: [String: JSON] = ["habitId": .string(Self.habitID), "id": .string(Self.eventID), "clientMutationId": "q-1"]
        let updateInput: [String: JSON] = ["habitEventId": .string(Self.eventID), "comment": "park", "clientMutationId": "q-2"]
        // The queue as a phone uploads it, twice, then once more after the replay records were pruned.
        var answers: [[JSON?]] = []
        for pass in 0..<3 {
            if pass == 2 { try server.databaseWrite("DELETE FROM mutation_replays") }
            let recorded = try server.graphQLUpload(record, input: recordInput, file: HabitEventTests.png, token: ana.token)
            let updated = try server.graphQLUpload(update, input: updateInput, file: HabitEventTests.webp, token: ana.token)
            #expect(recorded.json["errors"] == nil && updated.json["errors"] == nil, "\(recorded.json) \(updated.json)")
            answers.append([recorded.data?["recordHabitEvent"]?["habitEvent"]?["id"], updated.data?["updateHabitEvent"]?["habitEvent"]])
        }
        let first = try #require(answers.first)
        #expect(first[0]?.stringValue == Self.eventID && first[1]?["photo"]?["url"]?.stringValue != nil, "\(first)")
        #expect(answers.allSatisfy { $0 == first }, "the same event, photo and answer each time: \(answers)")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_events") == "1")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_photos") == "1")
        #expect(try server.databaseText("SELECT media_type FROM habit_photos") == "image/webp", "the update's photo replaced the first")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM change_log WHERE kind = 'habit_event.updated'") == "1")
    }
}
