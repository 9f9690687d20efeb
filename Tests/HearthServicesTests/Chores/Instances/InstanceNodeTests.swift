import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// `node`/`nodes` for chore instances and completions (``ChoreInstanceService/nodes(ids:viewer:)``):
/// stored and computed instances of the viewer's chores, completions of their households' and
/// their own chores, and nothing of others'.
struct InstanceNodeTests {
    private static let day = 86_400.0

    @Test func theViewerFindsStoredAndComputedInstancesAndCompletionsOfTheirChoresOnly() async throws {
        try await InstancesHarness.with { harness in
            let f = try await harness.households.choreFamily()
            let (laundry, laundryInstance) = try await harness.oneOffChore(f)
            let done = try #require(try await harness.complete(laundryInstance, as: f.member).completion)
            let later = harness.clock.now.addingTimeInterval(30 * Self.day)
            let windows = try await harness.households.chore("Windows", in: f.householdID, by: f.admin) {
                $0.assignmentMode = .individual
                $0.assigneeIDs = [f.memberID]
                $0.schedule = .once(later)
            }
            let computed = harness.instanceID(windows, at: later)
            let (gone, goneInstance) = try await harness.oneOffChore(f, "Gone")
            _ = try await harness.chores.deleteChore(id: gone.id, viewer: f.admin)
            let tomorrow = harness.clock.now.addingTimeInterval(Self.day)
            let run = try await harness.households.chore("Run", in: nil, by: f.admin)
            let bensRun = try await harness.households.chore("Ben's run", in: nil, by: f.member)
            let eves = try await harness.households.chore("Eve's", in: f.outsiderHouseholdID, by: f.outsider)
            let ids = [
                laundryInstance, done.id, computed, goneInstance, harness.instanceID(run, at: tomorrow), harness.instanceID(bensRun, at: tomorrow),
                harness.instanceID(eves, at: tomorrow), harness.instanceID(windows, at: later.addingTimeInterval(1)), laundry.id,
            ]

            let found = try await harness.instances.nodes(ids: ids + ids, viewer: f.admin)
            #expect(Set(found.keys) == [laundryInstance, done.id, computed, harness.instanceID(run, at: tomorrow)])
            guard case .instance(let stored)? = found[laundryInstance], case .instance(let beyond)? = found[computed],
                  case .completion(let entry)? = found[done.id], case .instance(let personal)? = found[harness.instanceID(run, at: tomorrow)]
            else {
                Issue.record("not the expected nodes: \(found)")
                return
            }
            #expect(stored.instance.isMaterialized && stored.chore.id == laundry.id && stored.access.household?.householdID == f.householdID)
            #expect(!beyond.instance.isMaterialized && beyond.chore.id == windows.id)
            #expect(entry.completion.memberID == f.memberID && entry.choreTitle == "Laundry" && entry.access.household?.isAdmin == true)
            #expect(personal.access.isPersonal && personal.chore.id == run.id)

            let bens = try await harness.instances.nodes(ids: ids, viewer: f.member)
            #expect(Set(bens.keys) == [laundryInstance, done.id, computed, harness.instanceID(bensRun, at: tomorrow)])
            _ = try await harness.households.service.leaveHousehold(id: f.householdID, incompleteTasks: .unassign, viewer: f.member)
            #expect(Set(try await harness.instances.nodes(ids: ids, viewer: f.member).keys) == [harness.instanceID(bensRun, at: tomorrow)])
        }
    }

    /// One statement each for the stored instances, their chores and the completions, and one
    /// access check per household found, however many ids: not one check and several reads per id.
    @Test func manyStoredIdsCostOneStatementPerTableAndOneCheckPerHousehold() async throws {
        try await InstancesHarness.with { harness in
            let f = try await harness.households.choreFamily()
            var ids: [String] = []
            for number in 1...6 {
                let (_, instance) = try await harness.oneOffChore(f, "Chore \(number)")
                ids.append(instance)
                if number.isMultiple(of: 2) { ids.append(try #require(try await harness.complete(instance, as: f.member).completion).id) }
            }
            let cost = try await statements(on: harness.pool) { () async throws in
                #expect(try await harness.instances.nodes(ids: ids, viewer: f.admin).count == 9)
            }
            #expect(cost == 4, "instances, their chores, completions, and Flat's access check")
        }
    }
}
