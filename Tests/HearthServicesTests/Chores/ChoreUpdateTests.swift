import FoundationEssentials
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-33, FR-38: editing chores; steps keep their ids, lists are replaced, nothing changes twice.
struct ChoreUpdateTests {
    @Test func stepsGivenWithTheirIDKeepItOthersAreNewAndMissingOnesGo() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let chore = try await h.chore("Laundry", in: f.householdID, by: f.admin) {
                $0.steps = ["Load", "Hang", "Fold"].map { .init(title: $0) }
            }
            let access = try await h.chores.chore(id: chore.id, viewer: f.admin).access
            let before = try #require(try await h.chores.steps(of: [chore.id], access: access)[chore.id])
            _ = try await h.chores.updateChore(
                id: chore.id,
                .init(steps: [.init(id: before[2].id, title: "Fold neatly"), .init(title: "Put away"), .init(id: before[0].id, title: "Load")]),
                viewer: f.admin)
            let after = try #require(try await h.chores.steps(of: [chore.id], access: access)[chore.id])
            #expect(after.map(\.title) == ["Fold neatly", "Put away", "Load"] && after.map(\.position) == [0, 1, 2])
            #expect(after[0].id == before[2].id && after[2].id == before[0].id && !before.map(\.id).contains(after[1].id))
            #expect(try h.sqlText("SELECT count(*) FROM chore_steps WHERE id = '\(before[1].id)'") == "0")
        }
    }

    @Test func aStepIDOfAnotherChoreIsRefusedLikeAnUnknownOne() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let one = try await h.chore("One", in: f.householdID, by: f.admin) { $0.steps = [.init(title: "A")] }
            let two = try await h.chore("Two", in: f.householdID, by: f.admin)
            let stepID = try #require(try await h.chores.steps(of: [one.id], access: try await h.chores.chore(id: one.id, viewer: f.admin).access)[one.id]?.first?.id)
            let foreign = await h.refusal { try await h.chores.updateChore(id: two.id, .init(steps: [.init(id: stepID, title: "B")]), viewer: f.admin) }
            let unknown = await h.refusal {
                try await h.chores.updateChore(id: two.id, .init(steps: [.init(id: "stp_01900000-0000-7000-8000-000000000000", title: "B")]), viewer: f.admin)
            }
            #expect(foreign == unknown && foreign?.problems.first?.field == "input.steps[0].id" && foreign?.problems.first?.reason == .unknownValue)
            let twice = await h.refusal {
                try await h.chores.updateChore(id: one.id, .init(steps: [.init(id: stepID, title: "A"), .init(id: stepID, title: "B")]), viewer: f.admin)
            }
            #expect(twice?.problems.first?.field == "input.steps[1].id" && twice?.problems.first?.reason == .notAllowed)
        }
    }

    @Test func changingTheModeDropsAssigneesItCannotHaveAndChecksTheNewOnes() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [f.memberID]
            }
            _ = try await h.chores.updateChore(id: chore.id, .init(assignmentMode: .allMembers), viewer: f.admin)
            #expect(try h.sqlText("SELECT count(*) FROM chore_assignees") == "0")
            let group = await h.refusal { try await h.chores.updateChore(id: chore.id, .init(assignmentMode: .group), viewer: f.admin) }
            #expect(group?.problems.first?.field == "input.assigneeIds")
            let updated = try await h.chores.updateChore(
                id: chore.id, .init(assignmentMode: .group, assigneeIDs: [f.childMemberID, f.memberID]), viewer: f.admin).record
            #expect(updated.assignmentMode == .group)
            #expect(try h.sqlText("SELECT count(*) FROM chore_assignees WHERE chore_id = '\(chore.id)'") == "2")
        }
    }

    @Test func everyFieldChangesAndAbsentOnesStay() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin) {
                $0.description = "Plates"
                $0.tokens = 2
            }
            h.clock.advance(seconds: 60)
            let rule = "DTSTART:20260301T090000\nRRULE:FREQ=DAILY"
            let updated = try await h.chores.updateChore(
                id: chore.id, .init(title: "Dishes!", description: .some(nil), schedule: .recurrence(rule), requiresApproval: true), viewer: f.admin
            ).record
            #expect(updated.title == "Dishes!" && updated.description == nil && updated.tokens == 2 && updated.requiresApproval)
            #expect(updated.schedule == .recurrence(rule) && updated.updatedAt == h.clock.now && updated.createdAt == chore.createdAt)
        }
    }

    @Test func anEditThatChangesNothingRecordsNoEvent() async throws {
        try await HouseholdsHarness.with { h in
            let f = try await h.choreFamily()
            let chore = try await h.chore("Dishes", in: f.householdID, by: f.admin) {
                $0.steps = [.init(title: "Wash")]
                $0.completers = PermissionRule(roles: [.member])
            }
            h.clock.advance(seconds: 60)
            let same = try await h.chores.updateChore(id: chore.id, .init(title: "Dishes", tokens: 0), viewer: f.admin).record
            #expect(same.updatedAt == chore.updatedAt)
            #expect(try h.sqlText("SELECT count(*) FROM change_log WHERE kind = 'chore.updated'") == "0")
            _ = try await h.chores.updateChore(id: chore.id, .init(tokens: 1), viewer: f.admin)
            #expect(try h.sqlText("SELECT count(*) FROM change_log WHERE kind = 'chore.updated'") == "1")
        }
    }
}
