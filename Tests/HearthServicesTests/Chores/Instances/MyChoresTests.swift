import FoundationEssentials
import HearthDomain
@testable import HearthServices
import Testing
import TestFixtures

/// `myChores` (FR-54): personal chores and household instances assigned to (or claimable by) the
/// viewer across their households, by due time, filtered and paged.
@Suite struct MyChoresTests {
    @Test func itListsPersonalAndAssignedAndClaimableInstancesAcrossHouseholdsByDueTime() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let now = harness.clock.now
            func once(_ title: String, in household: String?, after hours: Double, _ configure: @escaping (inout ChoreFields) -> Void = { _ in }) async throws -> ChoreRecord {
                try await harness.households.chore(title, in: household, by: household == nil ? family.member : family.admin) {
                    $0.schedule = .once(now.addingTimeInterval(hours * 3600))
                    configure(&$0)
                }
            }
            try await once("Mine", in: nil, after: 3)
            try await once("Ben's", in: family.householdID, after: 1) { $0.assignmentMode = .individual; $0.assigneeIDs = [family.memberID] }
            try await once("Anyone's", in: family.householdID, after: 2) { $0.assignmentMode = .singleAction }
            try await once("Kim's", in: family.householdID, after: 4) { $0.assignmentMode = .individual; $0.assigneeIDs = [family.childMemberID] }
            try await once("Group", in: family.householdID, after: 5) { $0.assignmentMode = .group; $0.assigneeIDs = [family.memberID, family.childMemberID] }
            // Ben's own household elsewhere.
            let cottage = try await harness.households.service.createHousehold(.init(name: "Cottage"), viewer: family.member)
            try await harness.households.chore("Cottage", in: cottage.household.id, by: family.member) {
                $0.schedule = .once(now.addingTimeInterval(6 * 3600))
            }
            let page = try await harness.instances.myChores(viewer: family.member)
            #expect(page.edges.map(\.node.chore.title) == ["Ben's", "Anyone's", "Mine", "Group", "Cottage"])
            #expect(page.edges.map(\.node.instance.isPersonal) == [false, false, true, false, false])
            let kims = try await harness.instances.myChores(viewer: family.child)
            #expect(kims.edges.map(\.node.chore.title) == ["Kim's", "Group"], "a child claims no chore a rule does not give them")
            let paged = try await harness.instances.myChores(first: 2, viewer: family.member)
            #expect(paged.edges.count == 2 && paged.hasNextPage)
            let rest = try await harness.instances.myChores(first: 10, after: paged.endCursor, viewer: family.member)
            #expect(rest.edges.map(\.node.chore.title) == ["Mine", "Group", "Cottage"])
        }
    }

    @Test func filtersNarrowByTagsStatusHouseholdKindAndDueRange() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let now = harness.clock.now
            let kitchen = try await harness.chores.createTag(householdID: family.householdID, name: "Kitchen", color: nil, viewer: family.admin).tag
            let weekly = try await harness.chores.createTag(householdID: family.householdID, name: "Weekly", color: nil, viewer: family.admin).tag
            func chore(_ title: String, _ tags: [String], after hours: Double) async throws -> ChoreRecord {
                try await harness.households.chore(title, in: family.householdID, by: family.admin) {
                    $0.assignmentMode = .individual
                    $0.assigneeIDs = [family.memberID]
                    $0.requiresApproval = false
                    $0.tagIDs = tags
                    $0.schedule = .once(now.addingTimeInterval(hours * 3600))
                }
            }
            let both = try await chore("Both", [kitchen.id, weekly.id], after: 1)
            try await chore("Kitchen only", [kitchen.id], after: 2)
            try await chore("Late", [], after: 48)
            try await harness.households.chore("Personal", in: nil, by: family.member) { $0.schedule = .once(now.addingTimeInterval(3 * 3600)) }
            func titles(_ filter: MyChoresFilter) async throws -> [String] {
                try await harness.instances.myChores(filter: filter, viewer: family.member).edges.map(\.node.chore.title)
            }
            #expect(try await titles(MyChoresFilter(tagIDs: [kitchen.id, weekly.id])) == ["Both"])
            #expect(try await titles(MyChoresFilter(tagIDs: [kitchen.id])) == ["Both", "Kitchen only"])
            #expect(try await titles(MyChoresFilter(isPersonal: true)) == ["Personal"])
            #expect(try await titles(MyChoresFilter(householdID: family.householdID)) == ["Both", "Kitchen only", "Late"])
            #expect(try await titles(MyChoresFilter(dueAfter: now.addingTimeInterval(1.5 * 3600), dueBefore: now.addingTimeInterval(24 * 3600))) == ["Kitchen only", "Personal"])
            try await harness.complete(harness.instanceID(both, at: now.addingTimeInterval(3600)), as: family.member)
            #expect(try await titles(MyChoresFilter(statuses: [.completed])) == ["Both"])
            #expect(try await !titles(MyChoresFilter()).contains("Both"), "pending by default")
            let outsider = await harness.households.refusal {
                try await harness.instances.myChores(filter: MyChoresFilter(householdID: family.outsiderHouseholdID), viewer: family.member)
            }
            #expect(outsider?.code == .notFound)
            let backwards = await harness.households.refusal {
                try await harness.instances.myChores(filter: MyChoresFilter(dueAfter: now, dueBefore: now.addingTimeInterval(-1)), viewer: family.member)
            }
            #expect(backwards?.code == .badUserInput)
        }
    }
}
