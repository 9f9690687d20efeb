import Foundation
import GraphQL
import HearthAPI
import HearthDomain
import HearthServices
import HearthStore
import TestFixtures
import Testing

/// `householdEvents` delivers the instance events: a completion and its undoing, with the chore,
/// instance and completion they concern, so other members' lists drop a shared chore done by one
/// of them (FR-30) and bring it back when it is undone; archiving a one-off chore is a planning event.
@Suite struct ChoreInstanceEventsTests {
    @Test func completionsAndUndoingReachTheHouseholdsSubscribers() async throws {
        try await HouseholdsAPIFixture.with { fixture in
            let harness = fixture.harness
            let instances = ChoreInstanceService(
                configuration: InstancesConfiguration(), chores: harness.chores, jobs: JobQueue(pool: harness.pool, clock: harness.clock))
            let ana = try await fixture.person("ana")
            let (flat, _) = try await fixture.household("Flat", by: ana)
            let due = harness.clock.now.addingTimeInterval(3600)
            let chore = try await harness.chores.createChore(.init(householdID: flat, ChoreFields(title: "Bins", schedule: .once(due))), viewer: ana).record
            let instanceID = ChoreInstanceID.make(choreID: chore.id, occurrence: due, memberID: nil).rawValue
            let stream = try await fixture.events(
                "subscription($id: ID!) { householdEvents(householdId: $id) { kind choreId instanceId completionId chore { title } } }", flat, as: ana)
            let completed = try await instances.completeChore(.init(instanceID: instanceID), viewer: ana)
            _ = try await instances.uncompleteChore(instanceID: instanceID, viewer: ana)
            var iterator = stream.makeAsyncIterator()
            let first = try #require(try await iterator.next()).data?["householdEvents"]
            let archived = try #require(try await iterator.next()).data?["householdEvents"]
            let second = try #require(try await iterator.next()).data?["householdEvents"]
            let completionID = try #require(completed.completion?.id)
            #expect(first == [
                "kind": "CHORE_COMPLETED", "choreId": .string(chore.id), "instanceId": .string(instanceID), "completionId": .string(completionID),
                "chore": ["title": "Bins"],
            ])
            // The one-off chore is archived by its completion (FR-37), and told as a planning change.
            #expect(archived?["kind"] == "CHORE_INSTANCES_PLANNED" && archived?["choreId"] == .string(chore.id))
            #expect(second?["kind"] == "CHORE_COMPLETION_UNDONE" && second?["completionId"] == .string(completionID))
        }
    }
}
