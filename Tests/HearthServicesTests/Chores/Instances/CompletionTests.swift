import FoundationEssentials
import HearthDomain
@testable import HearthServices
import Testing
import TestFixtures

/// Completing instances (FR-35, FR-38, FR-18, FR-25/26): steps in order, who may, for whom,
/// approval, the cross-household prompt, concurrency and replays.
@Suite struct CompletionTests {
    @Test func stepsAreDoneInOrderEachItsOwnRecordAndTheLastCompletesTheInstance() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (chore, id) = try await harness.oneOffChore(family) {
                $0.steps = [.init(title: "Load"), .init(title: "Hang"), .init(title: "Fold")]
            }
            let steps = try await harness.chores.steps(
                of: [chore.id], access: ChoreAccess(try await harness.households.service.access(viewer: family.admin, householdID: family.householdID)))[chore.id]!
            let locked = await harness.households.refusal { try await harness.complete(id, as: family.member, step: steps[2].id) }
            #expect(locked?.code == .conflict && locked?.reason == .stepLocked)
            #expect(locked?.message.contains("“Fold”") == true && locked?.message.contains("“Hang”") == true, "\(String(describing: locked))")
            #expect(locked?.problems.first?.field == "input.stepId")
            let load = try await harness.complete(id, as: family.member)
            #expect(load.outcome == .stepCompleted && load.completion?.step?.title == "Load" && load.instance.instance.status == .pending)
            harness.clock.advance(seconds: 60)
            #expect(try await harness.complete(id, as: family.member, step: steps[1].id).outcome == .stepCompleted)
            harness.clock.advance(seconds: 60)
            let fold = try await harness.complete(id, as: family.member)
            #expect(fold.outcome == .completed && fold.completion?.isFinal == true && fold.instance.instance.status == .completed)
            let history = try await harness.instances.history(ofChore: chore.id, access: fold.instance.access)
            #expect(history.edges.map { $0.node.completion.step?.title } == ["Fold", "Hang", "Load"])
            let again = try await harness.complete(id, as: family.admin, step: steps[0].id)
            #expect(again.outcome == .alreadyCompleted && again.completion?.id == load.completion?.id)
        }
    }

    @Test func theAssigneeTheRuleAndAdminsMayCompleteOthersAreRefusedNamingTheRule() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, forBen) = try await harness.oneOffChore(family, "Ben's")
            let refused = await harness.households.refusal { try await harness.complete(forBen, as: family.child) }
            #expect(refused?.code == .forbidden && refused?.reason == .choreCompleters)
            #expect(refused?.message == "This chore may be completed only by admins and Ben; Kim is not among them.")
            // The refusal words the rule as the chore's other refusals do; Ben, assigned and named by the rule, once.
            let (_, named) = try await harness.oneOffChore(family, "Named") {
                $0.completers = PermissionRule(roles: [.member], memberIDs: [family.memberID])
            }
            let once = await harness.households.refusal { try await harness.complete(named, as: family.child) }
            #expect(once?.message == "This chore may be completed only by admins, Ben and adults with the member role; Kim is not among them.")
            #expect(try await harness.complete(forBen, as: family.admin).outcome == .completed)
            // A rule naming children admits Kim.
            let (_, ruled) = try await harness.oneOffChore(family, "Ruled") { $0.completers = PermissionRule(kinds: [.child]) }
            #expect(try await harness.complete(ruled, as: family.child).outcome == .completed)
            // A role admits adults only: "members" does not let a child complete what is not theirs.
            let (_, members) = try await harness.oneOffChore(family, "Members") { $0.completers = PermissionRule(roles: [.member]) }
            #expect(await harness.households.refusal { try await harness.complete(members, as: family.child) }?.reason == .choreCompleters)
        }
    }

    @Test func aSingleActionChoreWithoutARuleIsForEveryAdultAndItsFirstCompletionFinishesItForAll() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await harness.oneOffChore(family, "Bins") {
                $0.assignmentMode = .singleAction
                $0.assigneeIDs = []
            }
            #expect(await harness.households.refusal { try await harness.complete(id, as: family.child) }?.reason == .choreCompleters)
            let first = try await harness.complete(id, as: family.member)
            let second = try await harness.complete(id, as: family.admin)
            #expect(first.outcome == .completed && second.outcome == .alreadyCompleted)
            #expect(second.completion?.memberID == family.memberID && second.completion?.completedAt == first.completion?.completedAt)
        }
    }

    @Test func manyConcurrentCompletionsOfOneSharedInstanceCountOnceAndTheOthersLearnWhoDidIt() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await harness.oneOffChore(family, "Shared") {
                $0.assignmentMode = .singleAction
                $0.assigneeIDs = []
            }
            var people = [family.admin, family.member]
            for index in 0..<6 {
                let viewer = try await harness.households.confirmedViewer("adult\(index)")
                try harness.households.addAccountMember(viewer, family.householdID)
                people.append(viewer)
            }
            let results = try await withThrowingTaskGroup(of: CompletionResult.self) { group in
                for viewer in people { group.addTask { try await harness.complete(id, as: viewer) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            let winners = results.filter { $0.outcome == .completed }
            #expect(winners.count == 1)
            #expect(results.filter { $0.outcome == .alreadyCompleted }.count == people.count - 1)
            #expect(results.allSatisfy { $0.completion?.id == winners.first?.completion?.id }, "every other one names the one that counted")
            #expect(try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM chore_completions WHERE instance_id = ?", [id]) } == 1)
        }
    }

    @Test func aReplayedClientMutationIDReturnsTheFirstResultAndRecordsNothingMore() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await harness.oneOffChore(family)
            let first = try await harness.instances.completeChore(.init(instanceID: id), viewer: family.member, clientMutationID: "offline-1")
            let replay = try await harness.instances.completeChore(.init(instanceID: id), viewer: family.member, clientMutationID: "offline-1")
            #expect(first.outcome == .completed && replay.outcome == .completed && replay.completion?.id == first.completion?.id)
            #expect(try await harness.pool.read { try $0.scalar(Int.self, "SELECT count(*) FROM chore_completions") } == 1)
        }
    }

    @Test func anInstanceOfAnotherHouseholdThanTheActiveOneAsksForAChoiceFirst() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await harness.oneOffChore(family)
            // Ben's active household becomes one of his own.
            let own = try await harness.households.service.createHousehold(.init(name: "Ben's cottage"), viewer: family.member)
            _ = try await harness.households.service.setActiveHousehold(id: own.household.id, viewer: family.member)
            let prompt = try await harness.instances.completeChore(.init(instanceID: id), viewer: family.member, clientMutationID: "q-1")
            #expect(prompt.outcome == .crossHouseholdChoiceRequired && prompt.completion == nil)
            #expect(prompt.activeHousehold?.record.id == own.household.id && prompt.instance.instance.householdID == family.householdID)
            #expect(prompt.instance.instance.status == .pending)
            // The choice is sent with the same clientMutationId: the prompt was not remembered.
            let anyway = try await harness.instances.completeChore(
                .init(instanceID: id, crossHousehold: .completeAnyway), viewer: family.member, clientMutationID: "q-1")
            #expect(anyway.outcome == .completed && anyway.completion?.crossHousehold == .completeAnyway)
            #expect(try await harness.households.service.activeHouseholdID(viewer: family.member) == own.household.id)
            let (_, other) = try await harness.oneOffChore(family, "Other")
            let switched = try await harness.complete(other, as: family.member, crossHousehold: .switchAndComplete)
            #expect(switched.outcome == .completed && switched.completion?.crossHousehold == .switchAndComplete)
            #expect(try await harness.households.service.activeHouseholdID(viewer: family.member) == family.householdID)
        }
    }

    @Test func anotherHouseholdsInstanceAnswersNotFoundExactlyLikeAnUnknownID() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (chore, id) = try await harness.oneOffChore(family)
            let theirs = await harness.households.refusal { try await harness.complete(id, as: family.outsider) }
            let unknown = await harness.households.refusal {
                try await harness.complete(harness.instanceID(chore, at: harness.clock.now.addingTimeInterval(7)), as: family.member)
            }
            let malformed = await harness.households.refusal { try await harness.complete("chi_nope", as: family.member) }
            #expect(theirs == ServiceError.instanceNotFound && unknown == ServiceError.instanceNotFound && malformed == ServiceError.instanceNotFound)
        }
    }

    @Test func anAdultRecordsForAChildTheCompletionIsTheChildsAndTheRecorderIsKept() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let shadow = try await harness.households.service.addMember(
                householdID: family.householdID, .init(kind: .shadow, displayName: "Tim", age: 15), viewer: family.admin).member.id
            let (_, id) = try await harness.oneOffChore(family, "Tim's") { $0.assigneeIDs = [shadow] }
            // Ben may not complete Tim's chore, so he may not record it for him either.
            let refused = await harness.households.refusal { try await harness.complete(id, as: family.member, for: shadow) }
            #expect(refused?.reason == .choreCompleters)
            let adult = await harness.households.refusal { try await harness.complete(id, as: family.admin, for: family.memberID) }
            #expect(adult?.problems.first?.field == "input.onBehalfOf")
            let recorded = try await harness.complete(id, as: family.admin, for: shadow)
            #expect(recorded.outcome == .completed)
            #expect(recorded.completion?.memberID == shadow && recorded.completion?.recordedByMemberID == family.adminMemberID)
            #expect(recorded.completion?.isRecordedForAnother == true)
        }
    }

    @Test func aChoreNeedingApprovalWaitsAndTheSeamApprovesOrRejectsIt() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (chore, id) = try await harness.oneOffChore(family, "Room") {
                $0.assigneeIDs = [family.childMemberID]
                $0.requiresApproval = true
            }
            let done = try await harness.complete(id, as: family.child)
            #expect(done.outcome == .pendingApproval && done.instance.instance.status == .pendingApproval)
            #expect(try await harness.complete(id, as: family.child).outcome == .alreadyCompleted)
            let admin = try await harness.households.service.access(viewer: family.admin, householdID: family.householdID)
            let member = try await harness.households.service.access(viewer: family.member, householdID: family.householdID)
            let completionID = try #require(done.completion?.id)
            let rejected = try await harness.pool.write { database in
                #expect(throws: ServiceError.self) {
                    try harness.instances.settleApproval(completionID: completionID, approve: true, by: member, in: database, at: harness.clock.storedNow)
                }
                return try harness.instances.settleApproval(
                    completionID: completionID, approve: false, note: "Not tidy yet", by: admin, in: database, at: harness.clock.storedNow)
            }
            #expect(rejected.status == .rejected && rejected.reviewNote == "Not tidy yet")
            #expect(try await harness.instances.instance(id: id, viewer: family.child).instance.status == .pending, "the instance reopens")
            let again = try #require(try await harness.complete(id, as: family.child).completion?.id)
            let approved = try await harness.pool.write { database in
                try harness.instances.settleApproval(
                    completionID: again, approve: true, by: admin, in: database, at: harness.clock.storedNow)
            }
            #expect(approved.status == .completed && approved.reviewedByMemberID == family.adminMemberID)
            #expect(try await harness.instances.instance(id: id, viewer: family.child).instance.status == .completed)
            let history = try await harness.instances.history(ofChore: chore.id, access: done.instance.access)
            #expect(history.edges.map(\.node.completion.status) == [.completed], "the rejected one is not history")
        }
    }

    @Test func anAdminsOwnRecordOfAChoreNeedingApprovalIsItsApproval() async throws {
        try await InstancesHarness.with { harness in
            let family = try await harness.households.choreFamily()
            let (_, id) = try await harness.oneOffChore(family) {
                $0.assigneeIDs = [family.childMemberID]
                $0.requiresApproval = true
            }
            #expect(try await harness.complete(id, as: family.admin, for: family.childMemberID).outcome == .completed)
        }
    }
}
