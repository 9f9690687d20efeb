import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-ONBOARD-6: completions earn tokens (credit, reversal) and admins approve or reject those waiting.
struct CompletionCreditTests {
    /// Runs `body` with Flat's scope in a write transaction, as the chore instances call the seam.
    private func inTransaction<T: Sendable>(_ f: TokensFixture, _ body: @escaping @Sendable (HouseholdScope, Date) throws -> T) throws -> T {
        let now = f.h.clock.storedNow
        return try f.h.pool.write { database in
            try body(try HouseholdScope.check(viewer: f.ana, householdID: f.householdID, in: database), now)
        }
    }

    private func credit(_ f: TokensFixture, _ completion: CompletionCredit) throws -> [LedgerEntryRecord] {
        try inTransaction(f) { scope, now in try f.tokens.credit(completion: completion, recordedBy: nil, in: scope, at: now) }
    }

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
            let kid = try await f.shadow("Kid")
            let entries = try credit(f, CompletionCredit(
                completionID: "cmp_shared", choreID: "chr_1", tokens: 10, completerID: f.anaMember, participantIDs: [f.benMember, kid]))
            #expect(entries.map(\.amount).reduce(0, +) == 10 && entries.map(\.amount).sorted() == [3, 3, 4])
            #expect(Set(entries.map(\.memberID)) == [f.anaMember, f.benMember, kid])
            // One token among three: two members get nothing and no entry.
            let odd = try credit(f, CompletionCredit(
                completionID: "cmp_odd", choreID: "chr_1", tokens: 1, completerID: f.anaMember, participantIDs: [f.benMember, kid]))
            #expect(odd.count == 1 && odd[0].amount == 1)
            #expect(try credit(f, CompletionCredit(completionID: "cmp_free", choreID: "chr_1", tokens: 0, completerID: kid)).isEmpty)
        }
    }

    @Test func reversingUndoesTheCreditOnceAndIsRefusedWhenTheTokensWereSpent() async throws {
        try await TokensFixture.with { f in
            _ = try credit(f, CompletionCredit(completionID: "cmp_1", choreID: "chr_1", tokens: 8, completerID: f.benMember))
            let reversed = try inTransaction(f) { scope, now in try f.tokens.reverse(completion: "cmp_1", recordedBy: f.anaMember, in: scope, at: now) }
            #expect(reversed.map(\.amount) == [-8] && reversed[0].kind == .reversal && reversed[0].balanceAfter == 0)
            #expect(try inTransaction(f) { scope, now in try f.tokens.reverse(completion: "cmp_1", recordedBy: nil, in: scope, at: now) } == reversed)
            #expect(try inTransaction(f) { scope, now in try f.tokens.reverse(completion: "cmp_never", recordedBy: nil, in: scope, at: now) }.isEmpty)

            _ = try credit(f, CompletionCredit(completionID: "cmp_2", choreID: "chr_1", tokens: 8, completerID: f.benMember))
            _ = try await f.tokens.recordPayout(memberID: f.benMember, tokens: 5, note: nil, viewer: f.ana)
            let refused = #expect(throws: ServiceError.self) {
                try inTransaction(f) { scope, now in try f.tokens.reverse(completion: "cmp_2", recordedBy: nil, in: scope, at: now) }
            }
            #expect(refused?.reason == .insufficientTokens)
            #expect(try f.storedBalance(f.benMember) == 3 && f.ledgerSum(f.benMember) == 3)
        }
    }

    @Test func anAdminApprovesAWaitingCompletionWhichCreditsItsTokens() async throws {
        try await TokensFixture.with { f in
            f.completions.add(CompletionCredit(completionID: "cmp_1", choreID: "chr_1", tokens: 6, completerID: f.benMember), householdID: f.householdID)
            let (entries, _) = try await f.tokens.approveCompletion(id: "cmp_1", viewer: f.ana, clientMutationID: "approve-1")
            #expect(entries.map(\.amount) == [6] && entries[0].recordedBy == f.anaMember)
            #expect(f.completions["cmp_1"]?.approvedBy == f.anaMember)
            #expect(try await f.tokens.approveCompletion(id: "cmp_1", viewer: f.ana, clientMutationID: "approve-1").entries == entries)
            let again = await #expect(throws: ServiceError.self) { try await f.tokens.approveCompletion(id: "cmp_1", viewer: f.ana) }
            #expect(again?.code == .conflict && again?.reason == .alreadyReviewed)
            #expect(try f.storedBalance(f.benMember) == 6)
            #expect(try f.h.sqlText("SELECT kind FROM change_log ORDER BY sequence DESC LIMIT 1") == "completion.approved")
        }
    }

    @Test func anAdminRejectsAWaitingCompletionWithAReasonAndNothingIsCredited() async throws {
        try await TokensFixture.with { f in
            f.completions.add(CompletionCredit(completionID: "cmp_1", choreID: "chr_1", tokens: 6, completerID: f.benMember), householdID: f.householdID)
            let long = await #expect(throws: ServiceError.self) {
                try await f.tokens.rejectCompletion(id: "cmp_1", reason: String(repeating: "x", count: 81), viewer: f.ana)
            }
            #expect(long?.problems.first?.field == "input.reason")
            try await f.tokens.rejectCompletion(id: "cmp_1", reason: " Still messy ", viewer: f.ana)
            #expect(f.completions["cmp_1"]?.rejection?.reason == "Still messy")
            #expect(try f.h.sqlText("SELECT count(*) FROM token_ledger") == "0")
            let approve = await #expect(throws: ServiceError.self) { try await f.tokens.approveCompletion(id: "cmp_1", viewer: f.ana) }
            #expect(approve?.reason == .alreadyReviewed)
        }
    }

    @Test func membersCannotApproveAndOtherHouseholdsCompletionsAreNotFoundLikeUnknownOnes() async throws {
        try await TokensFixture.with { f in
            f.completions.add(CompletionCredit(completionID: "cmp_flat", choreID: "chr_1", tokens: 6, completerID: f.benMember), householdID: f.householdID)
            f.completions.add(
                CompletionCredit(completionID: "cmp_else", choreID: "chr_2", tokens: 6, completerID: f.eveMember), householdID: f.otherHouseholdID)
            let member = await #expect(throws: ServiceError.self) { try await f.tokens.approveCompletion(id: "cmp_flat", viewer: f.ben) }
            #expect(member?.code == .forbidden)
            let rejecting = await #expect(throws: ServiceError.self) { try await f.tokens.rejectCompletion(id: "cmp_flat", reason: nil, viewer: f.ben) }
            #expect(rejecting?.code == .forbidden)
            for (id, viewer) in [("cmp_else", f.ana), ("cmp_flat", f.eve), ("cmp_unknown", f.ana)] {
                let refused = await #expect(throws: ServiceError.self) { try await f.tokens.approveCompletion(id: id, viewer: viewer) }
                #expect(refused == .completionNotFound)
            }
            #expect(f.completions["cmp_flat"]?.completion.isPendingApproval == true)
        }
    }

    @Test func aBuildWithoutChoreInstancesHasNoCompletionToApprove() async throws {
        try await TokensFixture.with { f in
            let refused = await #expect(throws: ServiceError.self) { try await f.h.tokens.approveCompletion(id: "cmp_1", viewer: f.ana) }
            #expect(refused == .completionNotFound)
        }
    }
}
