import FoundationEssentials
import HearthDomain
@testable import HearthServices
import Support
import Testing
import TestFixtures

/// FR-37: a one-off chore is archived once its occurrence is done or its due day has passed, by the
/// completion path and by the `chore.plan` job; archived chores leave the lists unless asked for.
@Suite struct ChoreArchiveTests {
    /// The chore `id` as `viewer` reads it now.
    private static func read(_ id: String, _ harness: InstancesHarness, as viewer: Viewer) async throws -> ChoreRecord {
        try await harness.chores.chore(id: id, viewer: viewer).record
    }

    /// The titles of the household's chores in `statuses`.
    private static func titles(_ harness: InstancesHarness, _ family: ChoreFamily, _ statuses: [ChoreStatus] = []) async throws -> [String] {
        try await harness.chores.chores(householdID: family.householdID, filter: ChoreFilter(statuses: statuses), viewer: family.admin)
            .edges.map(\.chore.title)
    }

    @Test func completingAOneOffChoreArchivesItAndUndoingMakesItActiveAgain() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (chore, instanceID) = try await harness.oneOffChore(family)
            #expect(try await Self.read(chore.id, harness, as: family.admin).status == .active)
            try await harness.complete(instanceID, as: family.member)
            let archived = try await Self.read(chore.id, harness, as: family.admin)
            #expect(archived.status == .archived && archived.archivedAt == harness.clock.storedNow)
            #expect(try await Self.titles(harness, family) == [])
            #expect(try await Self.titles(harness, family, [.archived]) == ["Laundry"])
            #expect(try await Self.titles(harness, family, [.active, .archived]) == ["Laundry"])
            _ = try await harness.instances.uncompleteChore(instanceID: instanceID, viewer: family.member)
            #expect(try await Self.read(chore.id, harness, as: family.admin).status == .active)
            #expect(try await Self.titles(harness, family) == ["Laundry"])
        }
    }

    @Test func theScheduledRunArchivesAOneOffChoreAtTheEndOfItsDueDayAndNotBefore() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (chore, _) = try await harness.oneOffChore(family)
            let endOfDay = ChoreTimeline.endOfDay(of: harness.clock.now.addingTimeInterval(3600), in: .utc)
            try await harness.advance(seconds: endOfDay.timeIntervalSince(harness.clock.now) - 1)
            #expect(try await Self.read(chore.id, harness, as: family.admin).status == .active, "still due that day")
            try await harness.advance(seconds: 1)
            let archived = try await Self.read(chore.id, harness, as: family.admin)
            #expect(archived.status == .archived && archived.archivedAt == endOfDay)
            #expect(try harness.storedInstances(of: chore.id).map { $0.hasSuffix("archived") } == [true], "kept in history")
        }
    }

    @Test func aOneOffChoreBeyondTheHorizonIsActiveUntilItsOccurrenceIsDone() async throws {
        try await InstancesHarness.with(configure: { $0.horizon = .seconds(86_400) }) { harness in
            let family = try await harness.households.choreFamily()
            let due = harness.clock.now.addingTimeInterval(3 * 86_400)
            let (chore, _) = try await harness.oneOffChore(family) { $0.schedule = .once(due) }
            #expect(try harness.storedCount(of: chore.id) == 0)
            #expect(try await Self.read(chore.id, harness, as: family.admin).status == .active)
            try await harness.complete(harness.instanceID(chore, at: due), as: family.member)
            #expect(try await Self.read(chore.id, harness, as: family.admin).status == .archived)
        }
    }

    @Test func aCompletionWaitingForApprovalKeepsTheChoreActiveUntilApproved() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (chore, instanceID) = try await harness.oneOffChore(family) { $0.requiresApproval = true }
            let completionID = try #require(try await harness.complete(instanceID, as: family.member).completion?.id)
            #expect(try await Self.read(chore.id, harness, as: family.admin).status == .active)
            let admin = try await harness.households.service.access(viewer: family.admin, householdID: family.householdID)
            let now = harness.clock.storedNow
            _ = try await harness.pool.write { database in
                try harness.instances.settleApproval(completionID: completionID, approve: true, by: admin, in: database, at: now)
            }
            #expect(try await Self.read(chore.id, harness, as: family.admin).status == .archived)
        }
    }

    @Test func movingTheDueTimeOfAnArchivedChoreLaterMakesItActiveAgain() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (chore, instanceID) = try await harness.oneOffChore(family)
            try await harness.complete(instanceID, as: family.member)
            #expect(try await Self.read(chore.id, harness, as: family.admin).status == .archived)
            let later = harness.clock.now.addingTimeInterval(2 * 86_400)
            _ = try await harness.chores.updateChore(id: chore.id, ChoreFields(schedule: .once(later)), viewer: family.admin)
            #expect(try await Self.read(chore.id, harness, as: family.admin).status == .active)
        }
    }
}
