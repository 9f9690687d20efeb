import FoundationEssentials
import GraphQL
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// The chores API in process: the household chores view shows every chore with its assignees'
/// names and pictures at a constant number of statements (FR-55), and the inputs of
/// `schema.graphql` reach the service as written.
@Suite struct ChoresAPITests {
    /// A chore of every kind of related row, as the household chores screen asks for them, with
    /// the next due time (which an `afterCompletion` chore takes from its latest completion).
    static let listQuery = """
        query($id: ID!) { householdChores(householdId: $id) { totalCount edges { node {
          title household { name } assignees { displayName avatarUrl member { id } }
          steps { title assignee { displayName } } tags { name } completers { roles members { displayName } } viewerCanEdit
          occurrences(after: "2020-01-01T00:00:00Z", first: 1)
        } } } }
        """

    /// Statements the store's connections ran while `body` runs.
    private static func statements(_ pool: any DatabaseWriter, _ body: () async throws -> Void) async throws -> Int {
        let before = try StoreStatistics.statements(of: pool)
        try await body()
        return try StoreStatistics.statements(of: pool) - before
    }

    @Test func householdChoresShowsEveryChoresAssigneesWithNamesAndPicturesInAConstantNumberOfStatements() async throws {
        try await HouseholdsAPIFixture.with(readerCount: 1, instances: true) { fixture in
            let h = fixture.harness
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let avatar = try #require(try await h.accounts.service.setAvatar(viewer: ben, bytes: AccountsAPITests.png).avatarId)
            let (flat, anaMember) = try await fixture.household("Flat", by: ana)
            let benMember = try await fixture.join(flat, ben, as: "Ben")
            let tag = try await h.chores.createTag(householdID: flat, name: "Kitchen", viewer: ana).tag
            func addChores(_ count: Int) async throws {
                for index in 0..<count {
                    _ = try await h.chores.createChore(
                        .init(householdID: flat, .init(
                            title: "Chore \(index)", assignmentMode: .group, assigneeIDs: [benMember, anaMember],
                            schedule: index.isMultiple(of: 2) ? .once(h.clock.now) : .afterCompletion(every: 2, unit: .days, firstDueAt: h.clock.now),
                            steps: [.init(title: "One", assigneeID: benMember, completers: PermissionRule(memberIDs: [benMember]))],
                            tagIDs: [tag.id], completers: PermissionRule(roles: [.member], memberIDs: [benMember]))),
                        viewer: ana)
                }
            }
            var result: ExecutionResult?
            func list() async throws -> Int {
                // A commit to the accounts first: the viewer's account is read afresh for each count.
                try await h.pool.write { try $0.execute("UPDATE users SET username = username") }
                return try await Self.statements(h.pool) { result = try await fixture.execute(Self.listQuery, ["id": .string(flat)], as: ben) }
            }
            try await addChores(3)
            let few = try await list()
            let first = try #require(result?.data?["householdChores"]?["edges"]?[0]?["node"], "\(String(describing: result?.errors))")
            #expect(first["assignees"]?[0]?["displayName"] == "Ben")
            #expect(first["assignees"]?[0]?["avatarUrl"] == .string(h.accounts.service.avatarURL(id: avatar)))
            #expect(first["assignees"]?[1]?["member"]?["id"] == .string(anaMember) && first["assignees"]?[1]?["avatarUrl"] == .null)
            #expect(first["steps"]?[0]?["assignee"]?["displayName"] == "Ben" && first["completers"]?["members"]?[0]?["displayName"] == "Ben")
            #expect(first["tags"] == [["name": "Kitchen"]] && first["household"]?["name"] == "Flat")
            #expect(first["completers"]?["roles"] == ["MEMBER"] && first["viewerCanEdit"] == false)
            try await addChores(27)
            let many = try await list()
            #expect(result?.data?["householdChores"]?["totalCount"] == 30 && result?.errors.isEmpty == true, "\(String(describing: result?.errors))")
            // The access check, the page and its count, then one statement per kind of related row (household,
            // assignees, steps, tags, rules, the latest completions of `afterCompletion` chores), all in one read
            // transaction: the same for 3 chores or 30.
            #expect(many == few, "statements for 3 chores: \(few), for 30: \(many)")
            // Ten queries in three read transactions (the viewer, the page, the related rows), each opened and
            // closed by a statement, and on SQLite pinned to its snapshot by one more.
            let perTransaction = TestDatabaseStore.isSQLite ? 3 : 2
            #expect(many == 10 + 3 * perTransaction, "one read transaction for the related rows of every kind")
        }
    }

    @Test func aChoreIsCreatedEditedAndDeletedThroughTheAPIWithTheScheduleOneOf() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let create = try await fixture.execute(
                """
                mutation($input: CreateChoreInput!) { createChore(input: $input) { clientMutationId chore {
                  id title isPersonal assignmentMode tokens requiresApproval steps { title } presetId
                  schedule { __typename ... on AfterCompletionSchedule { every unit } }
                } } }
                """,
                ["input": [
                    "householdId": .string(flat), "title": "Laundry", "assignmentMode": "ALL_MEMBERS", "tokens": 4,
                    "schedule": ["afterCompletion": ["every": 2, "unit": "WEEKS"]], "steps": [["title": "Load"], ["title": "Fold"]],
                    "clientMutationId": "c1",
                ]], as: ana)
            let chore = try #require(create.data?["createChore"]?["chore"], "\(create.errors)")
            #expect(chore["schedule"] == ["__typename": "AfterCompletionSchedule", "every": 2, "unit": "WEEKS"])
            #expect(chore["assignmentMode"] == "ALL_MEMBERS" && chore["isPersonal"] == false && chore["steps"] == [["title": "Load"], ["title": "Fold"]])
            #expect(create.data?["createChore"]?["clientMutationId"] == "c1")
            guard case .string(let id)? = chore["id"] else { Issue.record("no id: \(chore)"); return }
            let twoSchedules = try await fixture.execute(
                "mutation($input: UpdateChoreInput!) { updateChore(input: $input) { chore { id } } }",
                ["input": ["choreId": .string(id), "schedule": ["once": "2026-03-01T10:00:00Z", "recurrence": "RRULE:FREQ=DAILY"]]], as: ana)
            #expect(twoSchedules.errors.first?.message.contains("Exactly one key must be specified for OneOf type \"ChoreScheduleInput\"") == true)
            let update = try await fixture.execute(
                """
                mutation($input: UpdateChoreInput!) { updateChore(input: $input) { chore { description schedule { ... on OnceSchedule { dueAt } } } } }
                """,
                ["input": ["choreId": .string(id), "description": "Sort colours", "schedule": ["once": "2026-03-01T10:00:00+01:00"]]], as: ana)
            #expect(update.data?["updateChore"]?["chore"] == ["description": "Sort colours", "schedule": ["dueAt": "2026-03-01T09:00:00.000Z"]], "\(update.errors)")
            let delete = try await fixture.execute(
                "mutation($input: DeleteChoreInput!) { deleteChore(input: $input) { deletedChoreId } }", ["input": ["choreId": .string(id)]], as: ana)
            #expect(delete.data?["deleteChore"]?["deletedChoreId"] == .string(id))
            let gone = try await fixture.execute("query($id: ID!) { chore(id: $id) { id } node(id: $id) { id } }", ["id": .string(id)], as: ana)
            #expect(gone.errors.first?.extensions["code"] == "NOT_FOUND")
        }
    }

    @Test func nodeFindsChoresTagsAndPresetsTheViewerMaySeeAndNothingElse() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let h = fixture.harness
            let ana = try await fixture.person("ana")
            let eve = try await fixture.person("eve")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let chore = try await h.chores.createChore(.init(householdID: flat, .init(title: "Dishes", schedule: .once(h.clock.now))), viewer: ana).record
            let personal = try await h.chores.createChore(.init(.init(title: "Run", schedule: .once(h.clock.now))), viewer: ana).record
            let tag = try await h.chores.createTag(householdID: flat, name: "Kitchen", viewer: ana).tag
            let saved = try await h.chores.saveChorePreset(choreID: chore.id, viewer: ana)
            let ids: [JSON] = [.string(chore.id), .string(personal.id), .string(tag.id), .string(saved.id), .string(ChorePreset.builtInID(2)), "chr_01900000-0000-7000-8000-000000000000"]
            let query = "query($ids: [ID!]!) { nodes(ids: $ids) { __typename id ... on ChorePreset { title } } }"
            let mine = try await fixture.execute(query, ["ids": .array(ids)], as: ana)
            #expect((0..<ids.count).map { mine.data?["nodes"]?[$0]?["__typename"] ?? .null } == ["Chore", "Chore", "Tag", "ChorePreset", "ChorePreset", .null], "\(mine.errors)")
            let theirs = try await fixture.execute(query, ["ids": .array(ids)], as: eve)
            #expect(theirs.data?["nodes"] == [.null, .null, .null, .null, ["__typename": "ChorePreset", "id": .string(ChorePreset.builtInID(2)), "title": "Tidy your room"], .null])
        }
    }

    @Test func membersFollowChoreTagAndPresetChangesOnTheHouseholdsEvents() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let h = fixture.harness
            let ana = try await fixture.person("ana")
            let ben = try await fixture.person("ben")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            _ = try await fixture.join(flat, ben, as: "Ben")
            let stream = try await fixture.events(
                "subscription($id: ID!) { householdEvents(householdId: $id) { kind choreId tagId presetId chore { title } } }", flat, as: ben)
            let chore = try await h.chores.createChore(.init(householdID: flat, .init(title: "Dishes", schedule: .once(h.clock.now))), viewer: ana).record
            var iterator = stream.makeAsyncIterator()
            let created = try #require(try await iterator.next()).data?["householdEvents"]
            #expect(created == ["kind": "CHORE_CREATED", "choreId": .string(chore.id), "tagId": .null, "presetId": .null, "chore": ["title": "Dishes"]])
            _ = try await h.chores.createChore(.init(.init(title: "Ana's run", schedule: .once(h.clock.now))), viewer: ana)
            let tag = try await h.chores.createTag(householdID: flat, name: "Kitchen", viewer: ana).tag
            let preset = try await h.chores.saveChorePreset(choreID: chore.id, viewer: ana)
            _ = try await h.chores.deleteChore(id: chore.id, viewer: ana)
            var events: [JSON?] = []
            for _ in 0..<3 { events.append(try #require(try await iterator.next()).data?["householdEvents"]) }
            // A personal chore is its owner's: nothing on the household's stream. The chore reads as it is when
            // delivered: gone once deleted.
            #expect(events == [
                ["kind": "TAG_CREATED", "choreId": .null, "tagId": .string(tag.id), "presetId": .null, "chore": .null],
                ["kind": "CHORE_PRESET_SAVED", "choreId": .null, "tagId": .null, "presetId": .string(preset.id), "chore": .null],
                ["kind": "CHORE_DELETED", "choreId": .string(chore.id), "tagId": .null, "presetId": .null, "chore": .null],
            ])
        }
    }
}
