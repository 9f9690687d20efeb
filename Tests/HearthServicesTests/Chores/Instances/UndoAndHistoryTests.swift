import FoundationEssentials
import HearthDomain
@testable import HearthServices
import Testing
import TestFixtures

/// Undoing a completion within the window (admins any time), and history per chore and per
/// member (FR-39).
@Suite struct UndoAndHistoryTests {
    private static func bensChore(_ harness: InstancesHarness, _ family: ChoreFamily, _ title: String = "Dishes") async throws -> (ChoreRecord, String) {
        let chore = try await harness.households.chore(title, in: family.householdID, by: family.admin) {
            $0.assignmentMode = .individual
            $0.assigneeIDs = [family.memberID]
            $0.requiresApproval = false
            $0.schedule = harness.daily()
        }
        return (chore, harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(3600)))
    }

    @Test func theCompleterMayUndoUntilTheWindowEndsExactlyAndNotAMillisecondLater() async throws {
        try await InstancesHarness.with(configure: { $0.undoWindow = .seconds(300) }) { harness in
            let family = try await harness.households.choreFamily()
            let (_, first) = try await Self.bensChore(harness, family)
            try await harness.complete(first, as: family.member)
            harness.clock.advance(seconds: 300)
            let undone = try await harness.instances.uncompleteChore(instanceID: first, viewer: family.member)
            #expect(undone.instance.instance.status == .pending && undone.completion.status == .undone)
            let (_, second) = try await Self.bensChore(harness, family, "Bins")
            try await harness.complete(second, as: family.member)
            harness.clock.advance(seconds: 300.001)
            let late = await harness.households.refusal { try await harness.instances.uncompleteChore(instanceID: second, viewer: family.member) }
            #expect(late?.code == .forbidden && late?.reason == .undoWindowPassed)
            #expect(late?.message.contains("5 minutes") == true)
            // An admin may any time.
            harness.clock.advance(seconds: 86_400)
            #expect(try await harness.instances.uncompleteChore(instanceID: second, viewer: family.admin).instance.instance.status == .pending)
        }
    }

    @Test func someoneElsesCompletionIsTheAdminsToUndoAndNothingCompletedIsAConflict() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await Self.bensChore(harness, family)
            let nothing = await harness.households.refusal { try await harness.instances.uncompleteChore(instanceID: id, viewer: family.member) }
            #expect(nothing?.code == .conflict && nothing?.reason == .notCompleted)
            try await harness.complete(id, as: family.admin)
            let others = await harness.households.refusal { try await harness.instances.uncompleteChore(instanceID: id, viewer: family.member) }
            #expect(others?.code == .forbidden && others?.reason == .adminsOnly)
        }
    }

    @Test func undoingAStepReopensOnlyThatStepAndUndoneCompletionsLeaveHistory() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let chore = try await harness.households.chore("Laundry", in: family.householdID, by: family.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [family.memberID]
                $0.requiresApproval = false
                $0.steps = [.init(title: "Load"), .init(title: "Hang")]
                $0.schedule = .once(harness.clock.now.addingTimeInterval(3600))
            }
            let id = harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(3600))
            try await harness.complete(id, as: family.member)
            try await harness.complete(id, as: family.member)
            let undone = try await harness.instances.uncompleteChore(instanceID: id, viewer: family.member)
            #expect(undone.completion.step?.title == "Hang" && undone.instance.instance.status == .pending)
            let history = try await harness.instances.history(ofChore: chore.id, access: undone.instance.access)
            #expect(history.edges.map { $0.node.completion.step?.title } == ["Load"])
        }
    }

    @Test func historyIsNewestFirstPagedAndAMemberWhoLeftKeepsTheirName() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (chore, _) = try await Self.bensChore(harness, family)
            let first = harness.clock.now.addingTimeInterval(3600)
            for day in 0..<3 {
                try await harness.complete(harness.instanceID(chore, at: first.addingTimeInterval(Double(day) * 86_400)), as: family.member)
                harness.clock.advance(seconds: 60)
            }
            let access = ChoreAccess(try await harness.households.service.access(viewer: family.admin, householdID: family.householdID))
            let firstPage = try await harness.instances.history(ofChore: chore.id, access: access, first: 2)
            #expect(firstPage.edges.count == 2 && firstPage.hasNextPage)
            let secondPage = try await harness.instances.history(ofChore: chore.id, access: access, first: 2, after: firstPage.endCursor)
            #expect(secondPage.edges.count == 1 && !secondPage.hasNextPage && secondPage.hasPreviousPage)
            let times = (firstPage.edges + secondPage.edges).map(\.node.completion.completedAt)
            #expect(times == times.sorted(by: >))
            _ = try await harness.households.service.leaveHousehold(id: family.householdID, incompleteTasks: .unassign, viewer: family.member)
            let household = try await harness.households.service.access(viewer: family.admin, householdID: family.householdID)
            let bens = try await harness.instances.history(ofMember: family.memberID, access: household)
            #expect(bens.edges.count == 3)
            let names = try await harness.instances.members(ids: [family.memberID], access: household)
            #expect(names[family.memberID]?.status == .departed && names[family.memberID]?.displayName.isEmpty == false)
            let foreign = await harness.households.refusal { try await harness.instances.history(ofChore: chore.id, access: access, after: "nope") }
            #expect(foreign?.problems.first?.field == "after")
        }
    }
}
