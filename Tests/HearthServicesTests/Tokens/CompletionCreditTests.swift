import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-ONBOARD-6: completions earn tokens (credited when they count, reversed when undone), split
/// by the household's `earningsSplit`, and admins approve or reject those waiting.
struct CompletionCreditTests {
    private func credit(_ f: TokensFixture, _ completion: CompletionCredit) throws -> [LedgerEntryRecord] {
        try f.inTransaction { scope, now in try TokenCredits.credit(completion: completion, recordedBy: nil, in: scope, at: now) }
    }

    private func reverse(_ f: TokensFixture, _ completionID: String) throws -> [LedgerEntryRecord] {
        try f.inTransaction { scope, now in try TokenCredits.reverse(completion: completionID, recordedBy: nil, in: scope, at: now) }
    }

    // MARK: - The seam

    @Test func theFallbackSplitPaysTheAssigneeAndCreditingTwiceChangesNothing() async throws {
        try await TokensFixture.with { f in
            let completion = CompletionCredit(completionID: "cmp_1", choreID: "chr_1", tokens: 5, completerID: f.anaMember, assigneeIDs: [f.benMember])
            let entries = try credit(f, completion)
            #expect(entries.map(\.memberID) == [f.benMember] && entries.map(\.amount) == [5] && entries[0].kind == .credit)
            #expect(entries[0].completionID == "cmp_1" && entries[0].choreID == "chr_1")
            #expect(try credit(f, completion) == entries)
            #expect(try f.storedBalance(f.benMember) == 5 && f.h.sqlText("SELECT count(*) FROM token_ledger") == "1")
        }
    }

    @Test func anEqualSplitSharesEveryTokenAmongEveryoneWhoTookPart() async throws {
        try await TokensFixture.with { f in
            _ = try await f.h.service.updateEconomySettings(householdID: f.householdID, .init(earningsSplit: .equal), viewer: f.ana)
            let entries = try credit(f, CompletionCredit(
                completionID: "cmp_shared", choreID: "chr_1", tokens: 10, completerID: f.anaMember, participantIDs: [f.benMember, f.kimMember]))
            #expect(entries.map(\.amount).reduce(0, +) == 10 && entries.map(\.amount).sorted() == [3, 3, 4])
            #expect(Set(entries.map(\.memberID)) == [f.anaMember, f.benMember, f.kimMember])
            // One token among three: two members get nothing and no entry.
            let odd = try credit(f, CompletionCredit(
                completionID: "cmp_odd", choreID: "chr_1", tokens: 1, completerID: f.anaMember, participantIDs: [f.benMember, f.kimMember]))
            #expect(odd.count == 1 && odd[0].amount == 1)
            #expect(try credit(f, CompletionCredit(completionID: "cmp_free", choreID: "chr_1", tokens: 0, completerID: f.kimMember)).isEmpty)
        }
    }

    @Test func reversingUndoesTheCreditOnceAndIsRefusedWhenTheTokensWereSpent() async throws {
        try await TokensFixture.with { f in
            _ = try credit(f, CompletionCredit(completionID: "cmp_1", choreID: "chr_1", tokens: 8, completerID: f.benMember))
            let reversed = try reverse(f, "cmp_1")
            #expect(reversed.map(\.amount) == [-8] && reversed[0].kind == .reversal && reversed[0].balanceAfter == 0)
            #expect(try reverse(f, "cmp_1") == reversed)
            #expect(try reverse(f, "cmp_never").isEmpty)

            _ = try credit(f, CompletionCredit(completionID: "cmp_2", choreID: "chr_1", tokens: 8, completerID: f.benMember))
            _ = try await f.tokens.recordPayout(memberID: f.benMember, tokens: 5, note: nil, viewer: f.ana)
            let refused = #expect(throws: ServiceError.self) { try reverse(f, "cmp_2") }
            #expect(refused?.reason == .insufficientTokens)
            #expect(try f.storedBalance(f.benMember) == 3 && f.ledgerSum(f.benMember) == 3)
        }
    }

    // MARK: - Through the chore instances

    @Test func aCompletionNeedingNoApprovalIsCreditedAtOnceAndUndoingItReversesTheCredit() async throws {
        try await TokensFixture.with { f in
            let (_, instance) = try await f.chore("Dishes", tokens: 4)
            let done = try await f.harness.complete(instance, as: f.ben)
            #expect(done.outcome == .completed)
            let entries = try f.h.sqlText("SELECT kind || ' ' || amount || ' ' || recorded_by FROM token_ledger WHERE member_id = '\(f.benMember)'")
            #expect(entries == "credit 4 \(f.benMember)")
            #expect(try f.h.sqlText("SELECT completion_id FROM token_ledger") == done.completion?.id)
            #expect(try f.h.sqlText("SELECT kind FROM change_log WHERE kind = 'tokens.changed'") == "tokens.changed")
            _ = try await f.harness.instances.uncompleteChore(instanceID: instance, viewer: f.ben)
            #expect(try f.storedBalance(f.benMember) == 0 && f.ledgerSum(f.benMember) == 0)
            #expect(try f.h.sqlText("SELECT recorded_by FROM token_ledger WHERE kind = 'reversal'") == f.benMember)
        }
    }

    @Test func undoingACompletionWhoseTokensWereSpentIsRefusedAndChangesNothing() async throws {
        try await TokensFixture.with { f in
            let (_, instance) = try await f.chore("Dishes", tokens: 4)
            try await f.harness.complete(instance, as: f.ben)
            _ = try await f.tokens.recordPayout(memberID: f.benMember, tokens: 4, note: nil, viewer: f.ana)
            let refused = await f.h.refusal { try await f.harness.instances.uncompleteChore(instanceID: instance, viewer: f.ben) }
            #expect(refused?.code == .conflict && refused?.reason == .insufficientTokens)
            #expect(try await f.harness.instances.instance(id: instance, viewer: f.ben).instance.status == .completed)
        }
    }

    @Test func theTokensOfAMultiStepChoreAreSharedAmongWhoDidItsStepsUnderTheEqualSplit() async throws {
        try await TokensFixture.with { f in
            _ = try await f.h.service.updateEconomySettings(householdID: f.householdID, .init(earningsSplit: .equal), viewer: f.ana)
            let (chore, instance) = try await f.chore("Laundry", tokens: 5) { $0.steps = [.init(title: "Wash"), .init(title: "Fold")] }
            #expect(try await f.harness.complete(instance, as: f.ana).outcome == .stepCompleted)
            #expect(try f.h.sqlText("SELECT count(*) FROM token_ledger") == "0", "a step alone earns nothing")
            let done = try await f.harness.complete(instance, as: f.ben)
            #expect(done.outcome == .completed)
            #expect(try f.storedBalance(f.anaMember) + f.storedBalance(f.benMember) == 5)
            #expect(try f.storedBalance(f.anaMember) >= 2 && f.storedBalance(f.benMember) >= 2)
            #expect(try f.h.sqlText("SELECT count(DISTINCT chore_id) || ' ' || min(chore_id) FROM token_ledger") == "1 \(chore.id)")
        }
    }

    @Test func anAdminApprovesAWaitingCompletionWhichCreditsItsTokens() async throws {
        try await TokensFixture.with { f in
            let (_, instance) = try await f.chore("Room", tokens: 6, assignees: [f.kimMember], requiresApproval: true)
            let done = try await f.harness.complete(instance, as: f.kim)
            let balance = try f.storedBalance(f.kimMember)
            #expect(done.outcome == .pendingApproval && balance == 0)
            let completionID = try #require(done.completion?.id)
            let approved = try await f.tokens.approveCompletion(id: completionID, viewer: f.ana, clientMutationID: "approve-1")
            #expect(approved.completion.status == .completed && approved.completion.reviewedByMemberID == f.anaMember)
            #expect(approved.entries.map(\.amount) == [6] && approved.entries[0].recordedBy == f.anaMember)
            #expect(try await f.tokens.approveCompletion(id: completionID, viewer: f.ana, clientMutationID: "approve-1").entries == approved.entries)
            let again = await f.h.refusal { try await f.tokens.approveCompletion(id: completionID, viewer: f.ana) }
            #expect(again?.code == .conflict && again?.reason == .alreadyReviewed)
            #expect(try f.storedBalance(f.kimMember) == 6)
            #expect(try f.h.sqlText("SELECT count(*) FROM household_first_completions") == "1")
        }
    }

    @Test func anAdminRejectsAWaitingCompletionWithAReasonAndNothingIsCredited() async throws {
        try await TokensFixture.with { f in
            let (_, instance) = try await f.chore("Room", tokens: 6, assignees: [f.kimMember], requiresApproval: true)
            let completionID = try #require(try await f.harness.complete(instance, as: f.kim).completion?.id)
            let long = await f.h.refusal { try await f.tokens.rejectCompletion(id: completionID, reason: String(repeating: "x", count: 81), viewer: f.ana) }
            #expect(long?.problems.first?.field == "input.reason")
            let rejected = try await f.tokens.rejectCompletion(id: completionID, reason: " Still messy ", viewer: f.ana)
            #expect(rejected.completion.status == .rejected && rejected.completion.reviewNote == "Still messy" && rejected.entries.isEmpty)
            #expect(try f.h.sqlText("SELECT count(*) FROM token_ledger") == "0")
            #expect(try await f.harness.instances.instance(id: instance, viewer: f.kim).instance.status == .pending, "the instance reopens")
            let approve = await f.h.refusal { try await f.tokens.approveCompletion(id: completionID, viewer: f.ana) }
            #expect(approve?.reason == .alreadyReviewed)
        }
    }

    /// Deciding a completion that is not waiting says in words what became of it, never its raw status.
    @Test func decidingACompletionThatIsNotWaitingSaysWhatBecameOfIt() async throws {
        try await TokensFixture.with { f in
            func refusal(approving completionID: String) async -> String? {
                let refused = await f.h.refusal { try await f.tokens.approveCompletion(id: completionID, viewer: f.ana) }
                #expect(refused?.code == .conflict && refused?.reason == .alreadyReviewed)
                return refused?.message
            }
            let (_, waiting) = try await f.chore("Room", tokens: 2, assignees: [f.kimMember], requiresApproval: true)
            let approved = try #require(try await f.harness.complete(waiting, as: f.kim).completion?.id)
            _ = try await f.tokens.approveCompletion(id: approved, viewer: f.ana)
            #expect(await refusal(approving: approved) == "This completion was already approved.")
            let (_, other) = try await f.chore("Desk", tokens: 2, assignees: [f.kimMember], requiresApproval: true)
            let rejected = try #require(try await f.harness.complete(other, as: f.kim).completion?.id)
            _ = try await f.tokens.rejectCompletion(id: rejected, reason: nil, viewer: f.ana)
            #expect(await refusal(approving: rejected) == "This completion was already rejected.")
            let (_, plain) = try await f.chore("Dishes", tokens: 1)
            let counted = try #require(try await f.harness.complete(plain, as: f.ben).completion?.id)
            #expect(await refusal(approving: counted) == "This completion needed no approval.")
            _ = try await f.harness.instances.uncompleteChore(instanceID: plain, viewer: f.ben)
            #expect(await refusal(approving: counted) == "This completion was undone.")
        }
    }

    /// Deleting a chore cancels its pending instances (FR-34); one waiting for approval is
    /// settled later, and rejecting it must not bring back a chore that no longer exists.
    @Test func rejectingAWaitingCompletionOfADeletedChoreCancelsItsInstanceInsteadOfReopeningIt() async throws {
        try await TokensFixture.with { f in
            let (chore, instance) = try await f.chore("Room", tokens: 6, assignees: [f.kimMember], requiresApproval: true)
            let completionID = try #require(try await f.harness.complete(instance, as: f.kim).completion?.id)
            _ = try await f.harness.chores.deleteChore(id: chore.id, viewer: f.ana)
            #expect(try f.h.sqlText("SELECT status FROM chore_instances WHERE id = '\(instance)'") == "pending_approval")
            let rejected = try await f.tokens.rejectCompletion(id: completionID, reason: nil, viewer: f.ana)
            #expect(rejected.completion.status == .rejected)
            #expect(try f.h.sqlText("SELECT status FROM chore_instances WHERE id = '\(instance)'") == "cancelled")
        }
    }

    @Test func membersCannotApproveAndOtherHouseholdsOrPersonalCompletionsAreNotFoundLikeUnknownOnes() async throws {
        try await TokensFixture.with { f in
            let (_, instance) = try await f.chore("Room", tokens: 6, assignees: [f.kimMember], requiresApproval: true)
            let completionID = try #require(try await f.harness.complete(instance, as: f.kim).completion?.id)
            for viewer in [f.ben, f.kim] {
                #expect(await f.h.refusal { try await f.tokens.approveCompletion(id: completionID, viewer: viewer) }?.code == .forbidden)
                #expect(await f.h.refusal { try await f.tokens.rejectCompletion(id: completionID, reason: nil, viewer: viewer) }?.code == .forbidden)
            }
            let personal = try await f.h.chore("Mine", in: nil, by: f.eve) { $0.schedule = .once(f.harness.clock.now.addingTimeInterval(3600)) }
            let personalCompletion = try #require(
                try await f.harness.complete(f.harness.instanceID(personal, at: f.harness.clock.now.addingTimeInterval(3600)), as: f.eve).completion?.id)
            for (id, viewer) in [
                (completionID, f.eve), (personalCompletion, f.eve), ("cmp_01900000-0000-7000-8000-000000000000", f.ana), ("rwd_x", f.ana),
            ] {
                #expect(await f.h.refusal { try await f.tokens.approveCompletion(id: id, viewer: viewer) } == .completionNotFound)
            }
            #expect(try await f.harness.instances.instance(id: instance, viewer: f.kim).instance.status == .pendingApproval)
        }
    }
}
