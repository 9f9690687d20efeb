import Foundation
import GraphQL
import Testing

/// Habits through the binary (issue 16, US 01.01 – 01.06), named by user story: adding a habit
/// with its plan, viewing, editing and deleting it, the lengths counted as people see characters,
/// and who else may see it (an accepted follower, never a private habit, never a stranger).
@Suite struct HabitTests {
    /// A family: seven Unicode scalars joined by zero-width joiners, one character.
    static let family = "👨‍👩‍👧‍👦"

    private static func server() throws -> ServerProcess {
        try ServerProcess(ServerProcess.householdArguments)
    }

    @Test func US_01_01_01_aParticipantAddsAHabitWithATitleAReasonAndADayToStart() throws {
        let server = try Self.server()
        defer { server.remove() }
        let ana = try server.person("ana")
        let created = try server.createHabit(["title": "  Run  ", "reason": "Feel better", "startsOn": "2026-01-05", "clientMutationId": "c1"], as: ana)
        let habit = try #require(created.data?["createHabit"]?["habit"], "\(created.json)")
        #expect(habit["title"] == "Run" && habit["reason"] == "Feel better" && habit["startsOn"] == "2026-01-05")
        #expect(habit["visibility"] == "FOLLOWERS" && habit["owner"]?["id"]?.stringValue == ana.userID)
        #expect(habit["id"]?.stringValue?.hasPrefix("hab_") == true)
        #expect(created.data?["createHabit"]?["clientMutationId"] == "c1")
        // A replay returns the first habit and adds none.
        let replayed = try server.createHabit(["title": "Run", "clientMutationId": "c1"], as: ana)
        #expect(replayed.data?["createHabit"]?["habit"]?["id"] == habit["id"])
        let mine = try server.graphQL("{ myHabits { totalCount edges { node { id } } } }", token: ana.token)
        #expect(mine.data?["myHabits"]?["totalCount"] == 1)
        // A start that is no calendar day is refused by the Date scalar.
        #expect(try server.createHabit(["startsOn": "2026-02-30"], as: ana).errorCode == "BAD_USER_INPUT")
        #expect(try server.createHabit([:], as: ServerProcess.Person(username: "x", userID: "x", token: "bad")).errorCode == "UNAUTHENTICATED")
    }

    @Test func US_01_02_01_aHabitHasAPlanOfWeekdaysAtLeastOne() throws {
        let server = try Self.server()
        defer { server.remove() }
        let ana = try server.person("ana")
        let created = try server.createHabit(["plan": ["SUNDAY", "MONDAY", "WEDNESDAY", "MONDAY"]], as: ana)
        #expect(created.data?["createHabit"]?["habit"]?["plan"] == ["MONDAY", "WEDNESDAY", "SUNDAY"])
        let empty = try server.createHabit(["plan": []], as: ana)
        #expect(empty.errorCode == "BAD_USER_INPUT" && empty.errorReason == "REQUIRED" && empty.errorExtensions?["field"] == "input.plan")
    }

    @Test func US_01_03_01_aParticipantViewsAHabitAndOnlyWhoMaySeeItDoes() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, cara) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        let diaryID = try server.habit("Diary", as: ana, ["visibility": "PRIVATE"])
        let query = "query($id: ID!) { habit(id: $id) { \(ServerProcess.habitFields) } }"
        let viewed = try server.graphQL(query, variables: ["id": .string(runID)], token: ana.token)
        #expect(viewed.data?["habit"]?["title"] == "Run" && viewed.data?["habit"]?["owner"]?["email"] == "ana@example.com")
        // Ben does not follow Ana yet: her habits do not exist for him.
        #expect(try server.graphQL(query, variables: ["id": .string(runID)], token: ben.token).errorCode == "NOT_FOUND")
        try server.acceptedFollow(of: ana, by: ben)
        let followed = try server.graphQL(query, variables: ["id": .string(runID)], token: ben.token)
        #expect(followed.data?["habit"]?["title"] == "Run")
        #expect(followed.data?["habit"]?["owner"]?["username"] == "ana" && followed.data?["habit"]?["owner"]?["email"] == .null, "nothing else of her account")
        // A private habit stays invisible to an accepted follower; strangers see nothing.
        #expect(try server.graphQL(query, variables: ["id": .string(diaryID)], token: ben.token).errorCode == "NOT_FOUND")
        #expect(try server.graphQL(query, variables: ["id": .string(runID)], token: cara.token).errorCode == "NOT_FOUND")
        // `node` answers by the same rule.
        let nodes = try server.graphQL(
            "query($ids: [ID!]!) { nodes(ids: $ids) { id ... on Habit { title } } }", variables: ["ids": [.string(runID), .string(diaryID)]],
            token: ben.token)
        #expect(nodes.data?["nodes"] == [["id": .string(runID), "title": "Run"], .null])
    }

    @Test func US_01_04_01_aParticipantEditsTheDetailsOfTheirHabit() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        let mutation = "mutation($input: UpdateHabitInput!) { updateHabit(input: $input) { habit { \(ServerProcess.habitFields) } } }"
        let updated = try server.graphQL(
            mutation,
            variables: ServerProcess.input([
                "habitId": .string(runID), "title": "Run 5 km", "reason": .null, "startsOn": "2026-02-01", "plan": ["SATURDAY"],
                "visibility": "PRIVATE",
            ]),
            token: ana.token)
        let habit = try #require(updated.data?["updateHabit"]?["habit"], "\(updated.json)")
        #expect(habit["title"] == "Run 5 km" && habit["reason"] == .null && habit["startsOn"] == "2026-02-01")
        #expect(habit["plan"] == ["SATURDAY"] && habit["visibility"] == "PRIVATE")
        // Absent fields stay.
        let titled = try server.graphQL(mutation, variables: ServerProcess.input(["habitId": .string(runID), "title": "Run"]), token: ana.token)
        #expect(titled.data?["updateHabit"]?["habit"]?["plan"] == ["SATURDAY"])
        // Only the owner writes; even a follower gets NOT_FOUND.
        try server.acceptedFollow(of: ana, by: ben)
        #expect(try server.graphQL(mutation, variables: ServerProcess.input(["habitId": .string(runID), "title": "Mine"]), token: ben.token).errorCode == "NOT_FOUND")
        let tooLong = try server.graphQL(
            mutation, variables: ServerProcess.input(["habitId": .string(runID), "title": .string(String(repeating: "a", count: 21))]), token: ana.token)
        #expect(tooLong.errorReason == "TOO_LONG" && tooLong.errorExtensions?["field"] == "input.title")
    }

    @Test func US_01_05_01_deletingAHabitDeletesItsEventsAndTheirPhotos() throws {
        let server = try Self.server()
        defer { server.remove() }
        let (ana, ben, _) = try server.habitPeople()
        let runID = try server.habit("Run", as: ana)
        let keptID = try server.habit("Read", as: ana)
        let eventID = try server.habitEvent(of: runID, as: ana, ["comment": "fast"])
        _ = try server.habitEvent(of: keptID, as: ana, ["comment": "kept"])
        let photo = try server.graphQLUpload(
            "mutation($input: UpdateHabitEventInput!) { updateHabitEvent(input: $input) { habitEvent { photo { url } } } }",
            input: ["habitEventId": .string(eventID)], file: HabitEventTests.png, token: ana.token)
        #expect(photo.data?["updateHabitEvent"]?["habitEvent"]?["photo"]?["url"] != .null, "\(photo.json)")
        let mutation = "mutation($input: DeleteHabitInput!) { deleteHabit(input: $input) { deletedHabitId } }"
        #expect(try server.graphQL(mutation, variables: ServerProcess.input(["habitId": .string(runID)]), token: ben.token).errorCode == "NOT_FOUND")
        let deleted = try server.graphQL(mutation, variables: ServerProcess.input(["habitId": .string(runID)]), token: ana.token)
        #expect(deleted.data?["deleteHabit"]?["deletedHabitId"]?.stringValue == runID)
        #expect(try server.historyComments(as: ana) == ["kept"])
        #expect(try server.historyComments(["commentContains": "fast"], as: ana) == [], "its words left the search index")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM habit_photos") == "0")
        #expect(try server.graphQL(mutation, variables: ServerProcess.input(["habitId": .string(runID)]), token: ana.token).errorCode == "NOT_FOUND")
        #expect(try server.graphQL("query($id: ID!) { habitEvent(id: $id) { id } }", variables: ["id": .string(eventID)], token: ana.token).errorCode == "NOT_FOUND")
    }

    @Test func US_01_06_01_aTitleHasAtMostTwentyAndAReasonThirtyCharactersAsPeopleSeeThem() throws {
        let server = try Self.server()
        defer { server.remove() }
        let ana = try server.person("ana")
        let twenty = String(repeating: Self.family, count: 20)
        let accepted = try server.createHabit(["title": .string(twenty), "reason": .string(String(repeating: "é", count: 30))], as: ana)
        #expect(accepted.data?["createHabit"]?["habit"]?["title"]?.stringValue == twenty, "\(accepted.json)")
        let emoji = try server.createHabit(["title": .string(twenty + Self.family)], as: ana)
        #expect(emoji.errorCode == "BAD_USER_INPUT" && emoji.errorReason == "TOO_LONG" && emoji.errorExtensions?["field"] == "input.title")
        let reason = try server.createHabit(["reason": .string(String(repeating: "é", count: 31))], as: ana)
        #expect(reason.errorReason == "TOO_LONG" && reason.errorExtensions?["field"] == "input.reason")
        let empty = try server.createHabit(["title": "   "], as: ana)
        #expect(empty.errorReason == "REQUIRED" && empty.errorExtensions?["field"] == "input.title")
        let lines = try server.createHabit(["title": "Run\nfast", "reason": "why\u{0}"], as: ana)
        #expect(lines.errorReason == "INVALID_FORMAT")
        #expect(lines.json["errors"]?[0]?["extensions"]?["fieldErrors"]?[1]?["field"] == "input.reason", "every problem is listed")
        #expect(try server.graphQL("{ myHabits { totalCount } }", token: ana.token).data?["myHabits"]?["totalCount"] == 1, "nothing refused was stored")
    }
}
