import Foundation
import GraphQL
import Testing

/// Chore definitions through the binary (issue 14, FR-25 – FR-38), named by requirement, with
/// every refusal: the rule that refused, another household's ids answering like unknown ones.
@Suite struct ChoreDefinitionTests {
    @Test func FR32_FR33_FR34_anAdminCreatesEditsAndDeletesAChoreAndItsRowStaysForHistory() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let created = try server.createChore([
            "householdId": .string(f.householdID), "title": "Dishes", "description": "Plates first", "assignmentMode": "INDIVIDUAL",
            "assigneeIds": [.string(f.benMemberID)], "schedule": ["once": "2026-03-01T18:00:00+01:00"], "tokens": 3,
            "clientMutationId": "create-1",
        ], as: f.ana)
        let chore = try #require(created.data?["createChore"]?["chore"], "\(created.json)")
        let id = try #require(chore["id"]?.stringValue)
        #expect(id.hasPrefix("chr_") && created.data?["createChore"]?["clientMutationId"] == "create-1")
        #expect(chore["schedule"] == ["__typename": "OnceSchedule", "dueAt": "2026-03-01T17:00:00.000Z"])
        #expect(chore["assignees"] == [["displayName": "ben", "member": ["id": .string(f.benMemberID)]]])
        #expect(chore["requiresApproval"] == false && chore["viewerCanEdit"] == true && chore["isPersonal"] == false)
        let replay = try server.createChore(["householdId": .string(f.householdID), "title": "Other", "clientMutationId": "create-1"], as: f.ana)
        #expect(replay.data?["createChore"]?["chore"]?["id"]?.stringValue == id, "a replay returns the first chore: \(replay.json)")

        let edited = try server.updateChore(["choreId": .string(id), "title": "Dishes!", "description": .null, "tokens": 4], as: f.ana)
        #expect(edited.data?["updateChore"]?["chore"]?["title"] == "Dishes!", "\(edited.json)")
        #expect(edited.data?["updateChore"]?["chore"]?["description"] == .null && edited.data?["updateChore"]?["chore"]?["tokens"] == 4)

        let member = try server.graphQL("query($id: ID!) { chore(id: $id) { title } }", variables: ["id": .string(id)], token: f.kim.token)
        #expect(member.data?["chore"]?["title"] == "Dishes!", "every member sees the household's chores")
        let deleted = try server.graphQL(
            "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { deletedChoreId } }",
            variables: ServerProcess.input(["choreId": .string(id)]), token: f.ana.token)
        #expect(deleted.data?["deleteChore"]?["deletedChoreId"]?.stringValue == id, "\(deleted.json)")
        let gone = try server.graphQL("query($id: ID!) { chore(id: $id) { id } }", variables: ["id": .string(id)], token: f.ana.token)
        #expect(gone.errorCode == "NOT_FOUND")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM chores WHERE id = '\(id)' AND deleted_at IS NOT NULL") == "1")
        let kinds = try server.databaseColumn("SELECT kind FROM change_log WHERE kind LIKE 'chore.%' ORDER BY sequence")
        #expect(kinds == ["chore.created", "chore.updated", "chore.deleted"])
    }

    @Test func FR25_FR26_thePolicyAndEachChoresRulesAreEnforcedAndEveryRefusalNamesItsRule() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        for person in [f.ben, f.kim] {
            let refused = try server.createChore(["householdId": .string(f.householdID), "title": "Mine", "schedule": ["once": "2026-03-01T09:00:00Z"]], as: person)
            #expect(refused.errorCode == "FORBIDDEN" && refused.errorReason == "CHORE_CREATION_POLICY", "\(refused.json)")
            #expect(refused.json["errors"]?[0]?["message"] == "This household's chore-creation policy lets only admins create chores.")
        }
        let policy = """
            mutation($input: UpdateChoreCreationPolicyInput!) { updateChoreCreationPolicy(input: $input) { choreCreationPolicy { roles kinds members { id } } } }
            """
        let byBen = try server.graphQL(policy, variables: ServerProcess.input([
            "householdId": .string(f.householdID), "creators": ["roles": ["MEMBER"]],
        ]), token: f.ben.token)
        #expect(byBen.errorCode == "FORBIDDEN" && byBen.errorReason == "ADMINS_ONLY", "\(byBen.json)")
        let set = try server.graphQL(policy, variables: ServerProcess.input([
            "householdId": .string(f.householdID), "creators": ["roles": ["MEMBER"]],
        ]), token: f.ana.token)
        #expect(set.data?["updateChoreCreationPolicy"]?["choreCreationPolicy"] == ["roles": ["MEMBER"], "kinds": [], "members": []], "\(set.json)")
        let bens = try server.chore("Ben's", in: f.householdID, as: f.ben)
        #expect(bens["editors"]?["members"] == [["id": .string(f.benMemberID)]], "the creator may edit what they made")
        let kims = try server.createChore(["householdId": .string(f.householdID), "title": "Kim's", "schedule": ["once": "2026-03-01T09:00:00Z"]], as: f.kim)
        #expect(kims.errorReason == "CHORE_CREATION_POLICY", "a role admits adults only")
        #expect(kims.json["errors"]?[0]?["message"] == "This household's chore-creation policy lets only admins and adults with the member role create chores.")

        let anas = try server.chore("Ana's", in: f.householdID, as: f.ana, ["completers": ["kinds": ["CHILD"]]])
        let anasID = try #require(anas["id"]?.stringValue)
        #expect(anas["completers"]?["kinds"] == ["CHILD"] && anas["requiresApproval"] == false)
        for person in [f.ben, f.kim] {
            let edit = try server.updateChore(["choreId": .string(anasID), "tokens": 5], as: person)
            #expect(edit.errorCode == "FORBIDDEN" && edit.errorReason == "CHORE_EDITORS", "\(edit.json)")
            #expect(edit.json["errors"]?[0]?["message"] == "This chore's editors rule lets only admins edit it.")
        }
        let rules = try server.updateChore(["choreId": .string(try #require(bens["id"]?.stringValue)), "completers": ["roles": ["MEMBER"]]], as: f.ben)
        #expect(rules.errorCode == "FORBIDDEN" && rules.errorReason == "ADMINS_ONLY", "\(rules.json)")
        let delete = try server.graphQL(
            "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { deletedChoreId } }",
            variables: ServerProcess.input(["choreId": .string(anasID)]), token: f.ben.token)
        #expect(delete.errorCode == "FORBIDDEN" && delete.errorReason == "ADMINS_ONLY")
        let opened = try server.updateChore(["choreId": .string(anasID), "editors": ["memberIds": [.string(f.kimMemberID)]]], as: f.ana)
        #expect(opened.data?["updateChore"]?["chore"]?["editors"]?["members"] == [["id": .string(f.kimMemberID)]], "\(opened.json)")
        #expect(try server.updateChore(["choreId": .string(anasID), "tokens": 5], as: f.kim).data?["updateChore"]?["chore"]?["tokens"] == 5)
        #expect(try server.updateChore(["choreId": .string(anasID), "tokens": 6], as: f.ben).errorReason == "CHORE_EDITORS")
    }

    @Test func choresTagsAndPresetsBeyondTheHouseholdsLimitsAreRefusedWithReasonLimitReached() throws {
        let server = try ServerProcess(
            ServerProcess.householdArguments + ["--max-chores-per-household", "1", "--max-tags-per-household", "1", "--max-presets-per-household", "1"])
        defer { server.remove() }
        let f = try server.choreFamily()
        let dishes = try #require(try server.chore("Dishes", in: f.householdID, as: f.ana)["id"])
        let chore = try server.createChore(["householdId": .string(f.householdID), "title": "Oven", "schedule": ["once": "2036-03-01T09:00:00Z"]], as: f.ana)
        #expect(chore.errorCode == "CONFLICT" && chore.errorReason == "LIMIT_REACHED", "\(chore.json)")
        #expect(chore.json["errors"]?[0]?["message"] == "There are 1 chores here, the most allowed. Delete one first.")
        _ = try server.tag("Kitchen", in: f.householdID, as: f.ana)
        let tag = try server.graphQL(
            "mutation($input: CreateTagInput!) { createTag(input: $input) { tag { id } } }",
            variables: ServerProcess.input(["householdId": .string(f.householdID), "name": "Daily"]), token: f.ana.token)
        #expect(tag.errorCode == "CONFLICT" && tag.errorReason == "LIMIT_REACHED", "\(tag.json)")
        let save = "mutation($input: SaveChorePresetInput!) { saveChorePreset(input: $input) { preset { id } } }"
        let first = try server.graphQL(save, variables: ServerProcess.input(["choreId": dishes, "title": "Dishes"]), token: f.ana.token)
        #expect(first.data?["saveChorePreset"]?["preset"]?["id"] != nil, "\(first.json)")
        let preset = try server.graphQL(save, variables: ServerProcess.input(["choreId": dishes, "title": "Dishes again"]), token: f.ana.token)
        #expect(preset.errorCode == "CONFLICT" && preset.errorReason == "LIMIT_REACHED", "\(preset.json)")
    }

    @Test func FR27_FR28_FR29_FR30_eachModeTakesItsAssigneesAndAnotherHouseholdsMemberIsNotFoundLikeAnUnknownOne() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let modes: [(String, [String], [String])] = [
            ("INDIVIDUAL", [f.benMemberID], [f.benMemberID]),
            ("GROUP", [f.benMemberID, f.kimMemberID], [f.benMemberID, f.kimMemberID]),
            ("ALL_MEMBERS", [], [f.anaMemberID, f.benMemberID, f.kimMemberID]),
            ("SINGLE_ACTION", [f.kimMemberID], [f.kimMemberID]),
            ("SINGLE_ACTION", [], []),
        ]
        for (mode, given, listed) in modes {
            let chore = try server.chore(mode, in: f.householdID, as: f.ana, ["assignmentMode": .string(mode), "assigneeIds": .array(given.map { .string($0) })])
            let ids = (0..<3).compactMap { chore["assignees"]?[$0]?["member"]?["id"]?.stringValue }
            #expect(Set(ids) == Set(listed) && ids.count == listed.count, "\(mode): \(chore)")
            #expect(chore["requiresApproval"] == .bool(listed.contains(f.kimMemberID)), "approval is on by default for chores of children")
        }
        let refusals: [(String, [String], String)] = [
            ("INDIVIDUAL", [], "REQUIRED"), ("INDIVIDUAL", [f.benMemberID, f.kimMemberID], "REQUIRED"), ("GROUP", [], "REQUIRED"),
            ("ALL_MEMBERS", [f.benMemberID], "NOT_ALLOWED"), ("SINGLE_ACTION", [f.benMemberID, f.kimMemberID], "NOT_ALLOWED"),
        ]
        for (mode, given, reason) in refusals {
            let refused = try server.createChore([
                "householdId": .string(f.householdID), "title": "X", "schedule": ["once": "2026-03-01T09:00:00Z"], "assignmentMode": .string(mode),
                "assigneeIds": .array(given.map { .string($0) }),
            ], as: f.ana)
            #expect(refused.errorCode == "BAD_USER_INPUT" && refused.errorReason == reason, "\(mode) \(given.count): \(refused.json)")
            #expect(refused.errorExtensions?["field"] == "input.assigneeIds")
        }
        var answers: [JSON] = []
        for id in [f.caraMemberID, "mem_01900000-0000-7000-8000-000000000000", f.householdID] {
            let refused = try server.createChore([
                "householdId": .string(f.householdID), "title": "X", "schedule": ["once": "2026-03-01T09:00:00Z"], "assignmentMode": "INDIVIDUAL",
                "assigneeIds": [.string(id)],
            ], as: f.ana)
            #expect(refused.errorCode == "NOT_FOUND")
            answers.append(refused.json["errors"] ?? .null)
        }
        #expect(answers.allSatisfy { $0 == answers[0] }, "another household's member answers exactly like an unknown id: \(answers)")
        let foreignTag = try server.tag("Cara's", in: f.caraHouseholdID, as: f.cara)
        let tagged = try server.createChore([
            "householdId": .string(f.householdID), "title": "X", "schedule": ["once": "2026-03-01T09:00:00Z"], "tagIds": [.string(foreignTag)],
        ], as: f.ana)
        let unknownTag = try server.createChore([
            "householdId": .string(f.householdID), "title": "X", "schedule": ["once": "2026-03-01T09:00:00Z"],
            "tagIds": ["tag_01900000-0000-7000-8000-000000000000"],
        ], as: f.ana)
        #expect(tagged.errorCode == "NOT_FOUND" && tagged.json["errors"] == unknownTag.json["errors"], "\(tagged.json)")
        let outsider = try server.createChore(["householdId": .string(f.householdID), "title": "X", "schedule": ["once": "2026-03-01T09:00:00Z"]], as: f.cara)
        let unknownHousehold = try server.createChore(
            ["householdId": "hh_01900000-0000-7000-8000-000000000000", "title": "X", "schedule": ["once": "2026-03-01T09:00:00Z"]], as: f.cara)
        #expect(outsider.errorCode == "NOT_FOUND" && outsider.json["errors"] == unknownHousehold.json["errors"])
    }

    @Test func FR31_aPersonalChoreIsVisibleOnlyToItsOwner() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let mine = try server.chore("Run 5k", in: nil, as: f.ben, ["tokens": 2])
        let id = try #require(mine["id"]?.stringValue)
        #expect(mine["isPersonal"] == true && mine["household"] == .null && mine["assignmentMode"] == "INDIVIDUAL" && mine["assignees"] == [])
        let listed = try server.graphQL("{ personalChores { totalCount edges { node { id } } } }", token: f.ben.token)
        #expect(listed.data?["personalChores"]?["edges"]?[0]?["node"]?["id"]?.stringValue == id)
        for person in [f.ana, f.kim, f.cara] {
            let read = try server.graphQL("query($id: ID!) { chore(id: $id) { id } node(id: $id) { id } }", variables: ["id": .string(id)], token: person.token)
            #expect(read.errorCode == "NOT_FOUND", "\(read.json)")
            #expect(try server.graphQL("{ personalChores { totalCount } }", token: person.token).data?["personalChores"]?["totalCount"] == 0)
            #expect(try server.updateChore(["choreId": .string(id), "tokens": 9], as: person).errorCode == "NOT_FOUND")
        }
        let household = try server.graphQL(
            "query($id: ID!) { householdChores(householdId: $id) { totalCount } }", variables: ["id": .string(f.householdID)], token: f.ana.token)
        #expect(household.data?["householdChores"]?["totalCount"] == 0)
        let assigned = try server.createChore([
            "title": "X", "schedule": ["once": "2026-03-01T09:00:00Z"], "assignmentMode": "GROUP", "assigneeIds": [.string(f.benMemberID)],
        ], as: f.ben)
        #expect(assigned.errorCode == "BAD_USER_INPUT" && assigned.errorExtensions?["field"] == "input.assignmentMode")
    }

    @Test func FR36_FR37_aScheduleIsExactlyOneOfThreeAndAnUnsupportedRecurrencePartIsNamed() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let recurrence = "DTSTART;TZID=Europe/Berlin:20260329T023000\nRRULE:FREQ=MONTHLY;BYDAY=-1FR"
        let recurring = try server.chore("Monthly", in: f.householdID, as: f.ana, ["schedule": ["recurrence": .string(recurrence)]])
        #expect(recurring["schedule"] == ["__typename": "RecurringSchedule", "recurrence": .string(recurrence)])
        let interval = try server.chore("Litter", in: f.householdID, as: f.ana, [
            "schedule": ["afterCompletion": ["every": 2, "unit": "DAYS", "firstDueAt": "2026-03-02T08:00:00Z"]],
        ])
        #expect(interval["schedule"] == ["__typename": "AfterCompletionSchedule", "every": 2, "unit": "DAYS", "firstDueAt": "2026-03-02T08:00:00.000Z"])
        let hourly = try server.createChore([
            "householdId": .string(f.householdID), "title": "X", "schedule": ["recurrence": "DTSTART:20260301T090000\nRRULE:FREQ=HOURLY"],
        ], as: f.ana)
        #expect(hourly.errorCode == "BAD_USER_INPUT" && hourly.errorExtensions?["field"] == "input.schedule.recurrence", "\(hourly.json)")
        #expect(hourly.json["errors"]?[0]?["message"]?.stringValue?.contains("FREQ") == true)
        let byHour = try server.createChore([
            "householdId": .string(f.householdID), "title": "X", "schedule": ["recurrence": "DTSTART:20260301T090000\nRRULE:FREQ=DAILY;BYHOUR=9"],
        ], as: f.ana)
        #expect(byHour.json["errors"]?[0]?["message"]?.stringValue?.contains("BYHOUR") == true, "\(byHour.json)")
        let both = try server.createChore([
            "householdId": .string(f.householdID), "title": "X", "schedule": ["once": "2026-03-01T09:00:00Z", "recurrence": .string(recurrence)],
        ], as: f.ana)
        let none = try server.createChore(["householdId": .string(f.householdID), "title": "X", "schedule": [:]], as: f.ana)
        for refused in [both, none] {
            #expect(refused.json["errors"]?[0]?["message"]?.stringValue?.contains("Exactly one key must be specified for OneOf type \"ChoreScheduleInput\"") == true,
                    "\(refused.json)")
        }
        let year = try server.createChore([
            "householdId": .string(f.householdID), "title": "X", "schedule": ["afterCompletion": ["every": 53, "unit": "WEEKS"]],
        ], as: f.ana)
        #expect(year.errorExtensions?["field"] == "input.schedule.afterCompletion.every" && year.errorReason == "OUT_OF_RANGE")
        #expect(try server.databaseText("SELECT CAST(count(*) AS TEXT) FROM chores") == "2")
    }

    @Test func FR38_stepsAreOrderedKeepTheirIDsAcrossEditsAndMayHaveTheirOwnAssigneeAndCompleters() throws {
        let server = try ServerProcess(ServerProcess.householdArguments)
        defer { server.remove() }
        let f = try server.choreFamily()
        let chore = try server.chore("Laundry", in: f.householdID, as: f.ana, [
            "steps": [["title": "Load"], ["title": "Hang", "assigneeId": .string(f.kimMemberID), "completers": ["kinds": ["CHILD"]]], ["title": "Fold"]],
        ])
        let choreID = try #require(chore["id"]?.stringValue)
        let steps = (0..<3).compactMap { chore["steps"]?[$0] }
        #expect(steps.map { $0["title"] } == ["Load", "Hang", "Fold"] && chore["hasSteps"] == true)
        #expect(steps[1]["assignee"]?["member"]?["id"]?.stringValue == f.kimMemberID && steps[1]["completers"]?["kinds"] == ["CHILD"])
        #expect(steps[0]["completers"] == .null)
        let loadID = try #require(steps[0]["id"]?.stringValue)
        let foldID = try #require(steps[2]["id"]?.stringValue)
        let edited = try server.updateChore(["choreId": .string(choreID), "steps": [["id": .string(foldID), "title": "Fold"], ["id": .string(loadID), "title": "Load it"]]], as: f.ana)
        let after = try #require(edited.data?["updateChore"]?["chore"]?["steps"], "\(edited.json)")
        #expect(after[0]?["id"]?.stringValue == foldID && after[1]?["id"]?.stringValue == loadID && after[1]?["title"] == "Load it" && after[2] == nil)
        let other = try server.chore("Other", in: f.householdID, as: f.ana)
        let foreign = try server.updateChore(["choreId": other["id"] ?? .null, "steps": [["id": .string(loadID), "title": "Stolen"]]], as: f.ana)
        #expect(foreign.errorReason == "UNKNOWN_VALUE" && foreign.errorExtensions?["field"] == "input.steps[0].id", "\(foreign.json)")
    }
}
