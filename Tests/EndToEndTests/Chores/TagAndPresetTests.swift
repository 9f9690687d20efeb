import Foundation
import GraphQL
import Testing

/// Tags (FR-46 – FR-48), presets (FR-43 – FR-45) and the wizard's first chore (FR-ONBOARD-6,
/// D-ONBOARD-2) through the binary.
@Suite struct TagAndPresetTests {
    static let createTag = "mutation($input: CreateTagInput!) { createTag(input: $input) { tag { id name color household { id } } } }"
    static let updateTag = "mutation($input: UpdateTagInput!) { updateTag(input: $input) { tag { id name color } } }"
    static let deleteTag = "mutation($input: DeleteTagInput!) { deleteTag(input: $input) { deletedTagId } }"

    @Test func FR46_FR47_FR48_tagNamesAreOneToThirtyTwoCharactersTagsAreRenamedDeletedFromChoresAndFilterByAll() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let longest = try server.graphQL(Self.createTag, variables: ServerProcess.input([
            "householdId": .string(f.householdID), "name": .string(String(repeating: "k", count: 32)), "color": "#3F8CFF",
        ]), token: f.ana.token)
        #expect(longest.data?["createTag"]?["tag"]?["color"] == "#3f8cff", "\(longest.json)")
        for (name, reason) in [("", "REQUIRED"), (String(repeating: "k", count: 33), "TOO_LONG"), ("two\nlines", "INVALID_FORMAT")] {
            let refused = try server.graphQL(Self.createTag, variables: ServerProcess.input(["householdId": .string(f.householdID), "name": .string(name)]), token: f.ana.token)
            #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorReason == reason && refused.errorExtensions?["field"] == "input.name", "\(refused.json)")
        }
        let member = try server.graphQL(Self.createTag, variables: ServerProcess.input(["householdId": .string(f.householdID), "name": "Ben's"]), token: f.ben.token)
        #expect(member.errorCode == "FORBIDDEN" && member.errorReason == "ADMINS_ONLY")
        let kitchen = try server.tag("Kitchen", in: f.householdID, as: f.ana)
        let daily = try server.tag("Daily", in: f.householdID, as: f.ana)
        let taken = try server.graphQL(Self.createTag, variables: ServerProcess.input(["householdId": .string(f.householdID), "name": "kitchen"]), token: f.ana.token)
        #expect(taken.errorCode == "CONFLICT" && taken.errorReason == "TAKEN")
        let personal = try server.graphQL(Self.createTag, variables: ServerProcess.input(["name": "Kitchen"]), token: f.ben.token)
        #expect(personal.data?["createTag"]?["tag"]?["household"] == .null, "\(personal.json)")

        try server.chore("Dishes", in: f.householdID, as: f.ana, ["tagIds": [.string(kitchen), .string(daily)]])
        try server.chore("Oven", in: f.householdID, as: f.ana, ["tagIds": [.string(kitchen)]])
        try server.chore("Bed", in: f.householdID, as: f.ana, ["tagIds": [.string(daily)]])
        func titles(_ tags: [String]) throws -> [JSON] {
            let listed = try server.graphQL(
                "query($id: ID!, $filter: ChoreFilter) { householdChores(householdId: $id, filter: $filter) { edges { node { title } } } }",
                variables: ["id": .string(f.householdID), "filter": ["tagIds": .array(tags.map { .string($0) })]], token: f.kim.token)
            return (0..<5).compactMap { listed.data?["householdChores"]?["edges"]?[$0]?["node"]?["title"] }
        }
        #expect(try titles([kitchen, daily]) == ["Dishes"])
        #expect(try titles([kitchen]) == ["Dishes", "Oven"])

        let renamed = try server.graphQL(Self.updateTag, variables: ServerProcess.input(["tagId": .string(kitchen), "name": "Cooking", "color": .null]), token: f.ana.token)
        #expect(renamed.data?["updateTag"]?["tag"] == ["id": .string(kitchen), "name": "Cooking", "color": .null], "\(renamed.json)")
        let deleted = try server.graphQL(Self.deleteTag, variables: ServerProcess.input(["tagId": .string(daily)]), token: f.ana.token)
        #expect(deleted.data?["deleteTag"]?["deletedTagId"]?.stringValue == daily)
        #expect(try titles([kitchen]) == ["Dishes", "Oven"], "the chores stay")
        #expect(try titles([]) == ["Bed", "Dishes", "Oven"])
        let tags = try server.graphQL("query($id: ID!) { household(id: $id) { tags { name } } }", variables: ["id": .string(f.householdID)], token: f.kim.token)
        #expect(tags.data?["household"]?["tags"] == [["name": "Cooking"], ["name": .string(String(repeating: "k", count: 32))]], "by name")
        let outsider = try server.graphQL(Self.deleteTag, variables: ServerProcess.input(["tagId": .string(kitchen)]), token: f.cara.token)
        let unknown = try server.graphQL(Self.deleteTag, variables: ServerProcess.input(["tagId": "tag_01900000-0000-7000-8000-000000000000"]), token: f.cara.token)
        #expect(outsider.errorCode == "NOT_FOUND" && outsider.json["errors"] == unknown.json["errors"])
    }

    @Test func FR43_FR44_FR45_theLibraryIsSearchedAChoreIsMadeFromAPresetAndAdminsSaveTheirOwn() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let library = try server.graphQL("{ chorePresets { totalCount } }", token: f.ben.token)
        #expect((library.data?["chorePresets"]?["totalCount"]).map { if case .int(let count) = $0 { count >= 40 } else { false } } == true, "\(library.json)")
        let search = try server.graphQL(
            #"{ chorePresets(search: "laundry load", tag: "Laundry") { edges { cursor node { id title steps tagNames tokens ageBand isBuiltIn schedule { rule time every unit } } } } }"#,
            token: f.ben.token)
        let laundry = try #require(search.data?["chorePresets"]?["edges"]?[0]?["node"], "\(search.json)")
        #expect(laundry["title"] == "Do a load of laundry" && laundry["isBuiltIn"] == true && laundry["ageBand"] == "TEENS")
        #expect(laundry["schedule"] == ["rule": .null, "time": .null, "every": 3, "unit": "DAYS"])
        let chore = try server.chore("Ben's laundry", in: f.householdID, as: f.ana, [
            "presetId": laundry["id"] ?? .null, "schedule": .null, "assignmentMode": "INDIVIDUAL", "assigneeIds": [.string(f.benMemberID)], "tokens": 6,
        ])
        #expect(chore["title"] == "Ben's laundry" && chore["tokens"] == 6 && chore["presetId"] == laundry["id"])
        #expect((0..<3).map { chore["steps"]?[$0]?["title"] ?? .null } == ["Load the machine", "Hang it up", "Fold it"])
        #expect(chore["tags"]?[0]?["name"] == "Laundry" && chore["schedule"]?["__typename"] == "AfterCompletionSchedule")

        let save = "mutation($input: SaveChorePresetInput!) { saveChorePreset(input: $input) { preset { id title isBuiltIn household { id } steps } } }"
        let byBen = try server.graphQL(save, variables: ServerProcess.input(["choreId": chore["id"] ?? .null]), token: f.ben.token)
        #expect(byBen.errorCode == "FORBIDDEN" && byBen.errorReason == "ADMINS_ONLY")
        let saved = try server.graphQL(save, variables: ServerProcess.input(["choreId": chore["id"] ?? .null, "title": "Laundry, our way"]), token: f.ana.token)
        let preset = try #require(saved.data?["saveChorePreset"]?["preset"], "\(saved.json)")
        #expect(preset["isBuiltIn"] == false && preset["household"]?["id"]?.stringValue == f.householdID)
        let ours = try server.graphQL(
            "query($id: ID) { chorePresets(householdId: $id, first: 1) { edges { node { title } } pageInfo { hasNextPage } } }",
            variables: ["id": .string(f.householdID)], token: f.kim.token)
        #expect(ours.data?["chorePresets"]?["edges"]?[0]?["node"]?["title"] == "Laundry, our way" && ours.data?["chorePresets"]?["pageInfo"]?["hasNextPage"] == true)
        let foreign = try server.graphQL(
            "query($id: ID) { chorePresets(householdId: $id) { totalCount } }", variables: ["id": .string(f.householdID)], token: f.cara.token)
        #expect(foreign.errorCode == "NOT_FOUND")
        let fromTheirs = try server.createChore(["householdId": .string(f.caraHouseholdID), "presetId": preset["id"] ?? .null], as: f.cara)
        #expect(fromTheirs.errorCode == "NOT_FOUND" && fromTheirs.errorExtensions?["field"] == "input.presetId", "another household's preset: \(fromTheirs.json)")
    }

    @Test func FR_ONBOARD_6_D_ONBOARD_2_aQuickStartTemplateMakesTheFirstChoreAndCompletesTheChecklistStep() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let ana = try server.person("ana")
        let (householdID, _) = try server.createHousehold("Flat", as: ana)
        let templates = try server.graphQL("{ quickStartChorePresets { id title tokens quickStartAudience } }", token: ana.token)
        let list = try #require(templates.data?["quickStartChorePresets"], "\(templates.json)")
        #expect((0..<5).compactMap { list[$0]?["quickStartAudience"] } == ["YOUNG_KIDS", "TWEENS", "MIXED_AGES", "SOLO_OR_TEEN"])
        #expect(list[0]?["title"] == "Tidy your room" && list[0]?["tokens"] == 5)
        let pending = try OnboardingTests.checklist(of: householdID, as: ana, on: server)
        #expect(pending["steps"]?[4]?["state"] == "PENDING")
        let created = try server.createChore(["householdId": .string(householdID), "presetId": list[0]?["id"] ?? .null], as: ana)
        let chore = try #require(created.data?["createChore"]?["chore"], "\(created.json)")
        #expect(chore["title"] == "Tidy your room" && chore["assignmentMode"] == "ALL_MEMBERS")
        #expect(chore["schedule"]?["recurrence"]?.stringValue?.hasSuffix("T100000\nRRULE:FREQ=WEEKLY;BYDAY=SA") == true)
        let done = try OnboardingTests.checklist(of: householdID, as: ana, on: server)
        #expect(done["steps"]?[4]?["step"] == "CHORE" && done["steps"]?[4]?["state"] == "DONE", "\(done)")
    }
}
