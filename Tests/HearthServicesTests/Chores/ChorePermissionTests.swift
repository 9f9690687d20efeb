import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-25, FR-26, FR-31, FR-34: who may create, edit and delete chores, enforced in the service, and
/// what a refusal says.
struct ChorePermissionTests {
    @Test func byDefaultOnlyAdminsCreateHouseholdChoresAndTheRefusalNamesThePolicy() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            for viewer in [f.member, f.child] {
                let refused = await h.refusal { try await h.chore("Dishes", in: f.householdID, by: viewer) }
                #expect(refused?.code == .forbidden && refused?.reason == .choreCreationPolicy)
                #expect(refused?.message == "This household's chore-creation policy lets only admins create chores.")
            }
            // Anyone creates personal chores.
            try await h.chore("Run", in: nil, by: f.child)
            #expect(try h.sqlText("SELECT count(*) FROM chores") == "1")
        }
    }

    @Test func thePolicyAdmitsAdultsByRoleChildrenByKindAndMembersByName() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let byRole = try await h.chores.updateChoreCreationPolicy(
                householdID: f.householdID, creators: PermissionRule(roles: [.member]), viewer: f.admin)
            #expect(byRole.rule.roles == [.member])
            try await h.chore("By Ben", in: f.householdID, by: f.member)
            let child = await h.refusal { try await h.chore("By Kim", in: f.householdID, by: f.child) }
            #expect(child?.reason == .choreCreationPolicy)
            #expect(child?.message == "This household's chore-creation policy lets only admins and adults with the member role create chores.")

            _ = try await h.chores.updateChoreCreationPolicy(
                householdID: f.householdID, creators: PermissionRule(memberIDs: [f.childMemberID]), viewer: f.admin)
            try await h.chore("By Kim", in: f.householdID, by: f.child)
            let ben = await h.refusal { try await h.chore("By Ben again", in: f.householdID, by: f.member) }
            #expect(ben?.message == "This household's chore-creation policy lets only admins and Kim create chores.")

            _ = try await h.chores.updateChoreCreationPolicy(householdID: f.householdID, creators: PermissionRule(kinds: [.child]), viewer: f.admin)
            try await h.chore("By Kim again", in: f.householdID, by: f.child)
            let policy = try await h.chores.choreCreationPolicy(try await h.service.access(viewer: f.member, householdID: f.householdID))
            #expect(policy.rule == PermissionRule(kinds: [.child]))
        }
    }

    @Test func onlyAdminsSetThePolicyAndItNamesMembersOfTheHouseholdOnly() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let member = await h.refusal {
                try await h.chores.updateChoreCreationPolicy(householdID: f.householdID, creators: PermissionRule(roles: [.member]), viewer: f.member)
            }
            #expect(member?.code == .forbidden)
            let outsider = await h.refusal {
                try await h.chores.updateChoreCreationPolicy(householdID: f.householdID, creators: .nobody, viewer: f.outsider)
            }
            #expect(outsider?.code == .notFound)
            let foreign = await h.refusal {
                try await h.chores.updateChoreCreationPolicy(
                    householdID: f.householdID, creators: PermissionRule(memberIDs: [f.outsiderMemberID]), viewer: f.admin)
            }
            #expect(foreign?.code == .notFound && foreign?.problems.first?.field == "input.creators.memberIds[0]")
        }
    }

    @Test func aMemberEditsWhatTheyCreatedButNotOthersChoresUnlessTheEditorsRuleSaysSo() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            _ = try await h.chores.updateChoreCreationPolicy(householdID: f.householdID, creators: PermissionRule(roles: [.member]), viewer: f.admin)
            let bens = try await h.chore("Ben's", in: f.householdID, by: f.member)
            #expect(try await h.chores.updateChore(id: bens.id, .init(title: "Ben's chore"), viewer: f.member).record.title == "Ben's chore")
            let anas = try await h.chore("Ana's", in: f.householdID, by: f.admin)
            let refused = await h.refusal { try await h.chores.updateChore(id: anas.id, .init(tokens: 9), viewer: f.member) }
            #expect(refused?.code == .forbidden && refused?.reason == .choreEditors)
            #expect(refused?.message == "This chore's editors rule lets only admins edit it.")
            _ = try await h.chores.updateChore(id: anas.id, .init(editors: PermissionRule(roles: [.member])), viewer: f.admin)
            #expect(try await h.chores.updateChore(id: anas.id, .init(tokens: 9), viewer: f.member).record.tokens == 9)
            let child = await h.refusal { try await h.chores.updateChore(id: anas.id, .init(tokens: 1), viewer: f.child) }
            #expect(child?.reason == .choreEditors, "a role admits adults only")
            #expect(try await h.chores.updateChore(id: bens.id, .init(tokens: 2), viewer: f.admin).record.tokens == 2, "admins edit everything")
        }
    }

    @Test func onlyAdminsSetPermissionRules() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            _ = try await h.chores.updateChoreCreationPolicy(householdID: f.householdID, creators: PermissionRule(roles: [.member]), viewer: f.admin)
            let create = await h.refusal { try await h.chore("Mine", in: f.householdID, by: f.member) { $0.completers = PermissionRule(kinds: [.child]) } }
            #expect(create?.code == .forbidden && create?.reason == .adminsOnly)
            let step = await h.refusal {
                try await h.chore("Steps", in: f.householdID, by: f.member) { $0.steps = [.init(title: "A", completers: PermissionRule(roles: [.member]))] }
            }
            #expect(step?.reason == .adminsOnly)
            let bens = try await h.chore("Ben's", in: f.householdID, by: f.member)
            let update = await h.refusal { try await h.chores.updateChore(id: bens.id, .init(editors: PermissionRule(roles: [.member])), viewer: f.member) }
            #expect(update?.reason == .adminsOnly)
            #expect(try h.sqlText("SELECT count(*) FROM chores") == "1")
        }
    }

    @Test func onlyAdminsDeleteHouseholdChoresWhichLeaveEveryReadButKeepTheirRow() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin) { $0.editors = PermissionRule(roles: [.member]) }
            let member = await h.refusal { try await h.chores.deleteChore(id: chore.id, viewer: f.member) }
            #expect(member?.code == .forbidden && member?.reason == .adminsOnly)
            #expect(try await h.chores.deleteChore(id: chore.id, viewer: f.admin) == chore.id)
            #expect(await h.refusal { try await h.chores.chore(id: chore.id, viewer: f.admin) } == .choreNotFound)
            // Deletes win over later changes (issue 17): NOT_FOUND, with reason DELETED for those who saw it.
            #expect(await h.refusal { try await h.chores.deleteChore(id: chore.id, viewer: f.admin) }?.reason == .deleted)
            #expect(await h.refusal { try await h.chores.updateChore(id: chore.id, .init(tokens: 1), viewer: f.admin) }?.reason == .deleted)
            #expect(try await h.chores.chores(householdID: f.householdID, viewer: f.admin).totalCount == 0)
            #expect(try h.sqlText("SELECT count(*) FROM chores WHERE id = '\(chore.id)' AND deleted_at IS NOT NULL") == "1", "history keeps its chore")
        }
    }

    @Test func aPersonalChoreIsItsOwnersAloneAndAnyoneElsesLookupIsNotFound() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let mine = try await h.chore("Run", in: nil, by: f.member)
            #expect(mine.isPersonal && mine.ownerID == f.member.userID && mine.assignmentMode == .individual)
            #expect(try await h.chores.chore(id: mine.id, viewer: f.member).record == mine)
            for other in [f.admin, f.child, f.outsider] {
                #expect(await h.refusal { try await h.chores.chore(id: mine.id, viewer: other) } == .choreNotFound)
                #expect(await h.refusal { try await h.chores.updateChore(id: mine.id, .init(tokens: 1), viewer: other) } == .choreNotFound)
                #expect(await h.refusal { try await h.chores.deleteChore(id: mine.id, viewer: other) } == .choreNotFound)
                #expect(try await h.chores.chores(householdID: nil, viewer: other).totalCount == 0)
            }
            #expect(try await h.chores.updateChore(id: mine.id, .init(tokens: 3), viewer: f.member).record.tokens == 3)
            #expect(try await h.chores.deleteChore(id: mine.id, viewer: f.member) == mine.id)
        }
    }

    @Test func aPersonalChoreHasNoAssigneesOtherModesOrRules() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let refused = await h.refusal {
                try await h.chore("Run", in: nil, by: f.member) {
                    $0.assignmentMode = .group
                    $0.assigneeIDs = [f.memberID]
                    $0.completers = PermissionRule(roles: [.member])
                    $0.steps = [.init(title: "Warm up", assigneeID: f.memberID)]
                }
            }
            #expect(refused?.problems.map(\.field) == ["input.assignmentMode", "input.assigneeIds", "input.completers", "input.steps[0].assigneeId"])
            #expect(refused?.problems.allSatisfy { $0.reason == .notAllowed } == true)
        }
    }

    @Test func anOutsiderGetsNotFoundForTheHouseholdAndItsChoresLikeForUnknownIDs() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin)
            let unknown = "chr_01900000-0000-7000-8000-000000000000"
            for id in [chore.id, unknown, f.householdID, "garbage"] {
                #expect(await h.refusal { try await h.chores.chore(id: id, viewer: f.outsider) } == .choreNotFound)
                #expect(await h.refusal { try await h.chores.updateChore(id: id, .init(tokens: 1), viewer: f.outsider) } == .choreNotFound)
            }
            #expect(await h.refusal { try await h.chore("X", in: f.householdID, by: f.outsider) } == .householdNotFound)
            #expect(await h.refusal { try await h.chores.chores(householdID: f.householdID, viewer: f.outsider) } == .householdNotFound)
        }
    }
}
