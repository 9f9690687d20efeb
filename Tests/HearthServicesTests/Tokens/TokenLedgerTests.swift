import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// FR-ONBOARD-5: the append-only ledger, its balance, adjustments, bonuses and payouts.
struct TokenLedgerTests {
    @Test func bonusesAdjustmentsAndPayoutsAreEntriesWhoseSumIsTheBalance() async throws {
        try await TokensFixture.with { f in
            let bonus = try await f.tokens.giveBonusTokens(memberID: f.benMember, amount: 30, note: " Helped grandma ", viewer: f.ana).entry
            #expect(bonus.kind == .bonus && bonus.amount == 30 && bonus.balanceAfter == 30 && bonus.note == "Helped grandma")
            #expect(bonus.position == 1 && bonus.recordedBy == f.anaMember && bonus.id.hasPrefix("led_"))
            let adjusted = try await f.tokens.adjustTokens(memberID: f.benMember, amount: -5, note: "Counted twice", viewer: f.ana).entry
            #expect(adjusted.kind == .adjustment && adjusted.balanceAfter == 25 && adjusted.position == 2)
            let paid = try await f.tokens.recordPayout(memberID: f.benMember, tokens: 20, note: nil, viewer: f.ana).entry
            #expect(paid.kind == .payout && paid.amount == -20 && paid.balanceAfter == 5)
            #expect(try f.storedBalance(f.benMember) == 5 && f.ledgerSum(f.benMember) == 5)
            #expect(try f.h.sqlText("SELECT kind FROM change_log ORDER BY sequence DESC LIMIT 1") == "tokens.changed")
        }
    }

    @Test func aPayoutKeepsTheRateInForceThenAndTheExactMoney() async throws {
        try await TokensFixture.with { f in
            try await f.give(100, to: f.benMember)
            _ = try await f.h.service.updateEconomySettings(
                householdID: f.householdID, .init(currencyPerToken: DecimalAmount("0.0333"), currencyCode: "EUR"), viewer: f.ana)
            let paid = try await f.tokens.recordPayout(memberID: f.benMember, tokens: 37, note: "Pocket money", viewer: f.ana).entry
            #expect(paid.currencyPerToken == "0.0333" && paid.moneyAmount == "1.2321" && paid.currencyCode == "EUR")
            _ = try await f.h.service.updateEconomySettings(householdID: f.householdID, .init(currencyPerToken: DecimalAmount("1")), viewer: f.ana)
            #expect(try f.h.sqlText("SELECT money_amount || ' ' || currency_per_token FROM token_ledger WHERE kind = 'payout'") == "1.2321 0.0333")
        }
    }

    @Test func nothingTakesABalanceBelowZero() async throws {
        try await TokensFixture.with { f in
            try await f.give(10, to: f.benMember)
            for attempt in [
                { try await f.tokens.adjustTokens(memberID: f.benMember, amount: -11, note: "Too much", viewer: f.ana) },
                { try await f.tokens.recordPayout(memberID: f.benMember, tokens: 11, note: nil, viewer: f.ana) },
            ] {
                let refused = await #expect(throws: ServiceError.self) { try await attempt() }
                #expect(refused?.code == .conflict && refused?.reason == .insufficientTokens)
            }
            let exact = try await f.tokens.recordPayout(memberID: f.benMember, tokens: 10, note: nil, viewer: f.ana).entry
            #expect(exact.balanceAfter == 0)
            #expect(try f.h.sqlText("SELECT count(*) FROM token_ledger") == "2")
            // The database backs the rule: a balance row below zero is refused.
            #expect(throws: StoreError.self) {
                try f.h.pool.write { try $0.execute("UPDATE token_balances SET balance = -1") }
            }
        }
    }

    @Test func amountsAreBoundedAtTheConfiguredMaximumAndNotesRequired() async throws {
        try await TokensFixture.with(configure: { $0.maximumTokenAmount = 50 }) { f in
            let bonus = try await f.tokens.giveBonusTokens(memberID: f.benMember, amount: 50, note: "Edge", viewer: f.ana).entry
            let adjusted = try await f.tokens.adjustTokens(memberID: f.benMember, amount: -50, note: "Edge", viewer: f.ana).entry
            #expect(bonus.amount == 50 && adjusted.balanceAfter == 0)
            let cases: [(field: String, attempt: () async throws -> Any)] = [
                ("input.amount", { try await f.tokens.giveBonusTokens(memberID: f.benMember, amount: 51, note: "Over", viewer: f.ana) }),
                ("input.amount", { try await f.tokens.giveBonusTokens(memberID: f.benMember, amount: 0, note: "Zero", viewer: f.ana) }),
                ("input.amount", { try await f.tokens.adjustTokens(memberID: f.benMember, amount: 51, note: "Over", viewer: f.ana) }),
                ("input.amount", { try await f.tokens.adjustTokens(memberID: f.benMember, amount: -51, note: "Over", viewer: f.ana) }),
                ("input.amount", { try await f.tokens.adjustTokens(memberID: f.benMember, amount: 0, note: "Zero", viewer: f.ana) }),
                ("input.tokens", { try await f.tokens.recordPayout(memberID: f.benMember, tokens: 51, note: nil, viewer: f.ana) }),
                ("input.note", { try await f.tokens.giveBonusTokens(memberID: f.benMember, amount: 1, note: "  ", viewer: f.ana) }),
                ("input.note", { try await f.tokens.adjustTokens(memberID: f.benMember, amount: 1, note: "two\nlines", viewer: f.ana) }),
                ("input.note", { try await f.tokens.recordPayout(memberID: f.benMember, tokens: 1, note: String(repeating: "x", count: 81), viewer: f.ana) }),
            ]
            for (field, attempt) in cases {
                let refused = await #expect(throws: ServiceError.self) { _ = try await attempt() }
                #expect(refused?.code == .badUserInput && refused?.problems.first?.field == field, "\(field): \(String(describing: refused))")
            }
            let entries = try f.h.sqlText("SELECT count(*) FROM token_ledger")
            #expect(entries == "2")
        }
    }

    @Test func onlyAdminsMoveTokensAndOtherHouseholdsMembersAreNotFound() async throws {
        try await TokensFixture.with { f in
            let member = await #expect(throws: ServiceError.self) {
                try await f.tokens.giveBonusTokens(memberID: f.benMember, amount: 5, note: "Me", viewer: f.ben)
            }
            #expect(member?.code == .forbidden)
            // Eve is admin of her own household: Flat's members are unknown to her, and hers to Ana.
            for (memberID, viewer) in [(f.benMember, f.eve), (f.eveMember, f.ana), ("mem_01900000-0000-7000-8000-000000000000", f.ana), ("rwd_x", f.ana)] {
                let refused = await #expect(throws: ServiceError.self) {
                    try await f.tokens.adjustTokens(memberID: memberID, amount: 5, note: "Guess", viewer: viewer)
                }
                #expect(refused == .memberNotFound)
            }
            let entries = try f.h.sqlText("SELECT count(*) FROM token_ledger")
            #expect(entries == "0")
        }
    }

    @Test func departedMembersKeepTheirLedgerAndCanBeSettledButGetNoBonus() async throws {
        try await TokensFixture.with { f in
            let teen = try await f.shadow("Teen")
            try await f.give(40, to: teen)
            _ = try await f.h.service.removeMember(id: teen, incompleteTasks: .unassign, viewer: f.ana)
            let bonus = await #expect(throws: ServiceError.self) {
                try await f.tokens.giveBonusTokens(memberID: teen, amount: 5, note: "After", viewer: f.ana)
            }
            #expect(bonus?.problems.first?.field == "input.memberId" && bonus?.problems.first?.reason == .notAllowed)
            #expect(try await f.tokens.recordPayout(memberID: teen, tokens: 40, note: "Settled", viewer: f.ana).entry.balanceAfter == 0)
            let departed = try await f.member(teen, as: f.ana)
            let ledger = try #require(try await f.tokens.ledger(of: departed, f.access(f.ana)))
            #expect(ledger.edges.map(\.item.kind) == [.payout, .bonus] && ledger.totalCount == 2)
        }
    }

    @Test func membersSeeTheirOwnTokensAndAdminsEveryones() async throws {
        try await TokensFixture.with { f in
            try await f.give(12, to: f.benMember)
            try await f.give(7, to: f.anaMember)
            let ben = try await f.access(f.ben)
            let ana = try await f.access(f.ana)
            let benRecord = try await f.member(f.benMember, as: f.ben)
            let anaRecord = try await f.member(f.anaMember, as: f.ben)
            #expect(try await f.tokens.tokens(of: benRecord, ben) == TokenBalance(balance: 12, held: 0))
            #expect(try await f.tokens.tokens(of: anaRecord, ben) == nil)
            #expect(try await f.tokens.ledger(of: anaRecord, ben) == nil)
            #expect(try await f.tokens.tokens(of: anaRecord, ana)?.balance == 7)
            #expect(try await f.tokens.ledger(of: benRecord, ana)?.totalCount == 1)
        }
    }

    @Test func theLedgerPagesNewestFirstByCursor() async throws {
        try await TokensFixture.with { f in
            for amount in 1...5 { try await f.give(amount, to: f.benMember) }
            let ben = try await f.access(f.ben)
            let record = try await f.member(f.benMember, as: f.ben)
            let first = try #require(try await f.tokens.ledger(of: record, ben, first: 2))
            #expect(first.edges.map(\.item.amount) == [5, 4] && first.hasNextPage && !first.hasPreviousPage && first.totalCount == 5)
            let second = try #require(try await f.tokens.ledger(of: record, ben, first: 2, after: first.endCursor))
            #expect(second.edges.map(\.item.amount) == [3, 2] && second.hasNextPage && second.hasPreviousPage)
            let last = try #require(try await f.tokens.ledger(of: record, ben, first: 2, after: second.endCursor))
            #expect(last.edges.map(\.item.amount) == [1] && !last.hasNextPage)
            #expect(try await f.tokens.ledger(of: record, ben, first: 100)?.edges.count == 5)
            for (first, after) in [(101, nil), (-1, nil), (1, "bm90IG91cnM"), (1, "%%%")] as [(Int, String?)] {
                await #expect(throws: ServiceError.self) { try await f.tokens.ledger(of: record, ben, first: first, after: after) }
            }
        }
    }

    @Test func aReplayedMutationMovesNoMoreTokens() async throws {
        try await TokensFixture.with { f in
            let first = try await f.tokens.giveBonusTokens(memberID: f.benMember, amount: 9, note: "Once", viewer: f.ana, clientMutationID: "q-1")
            let again = try await f.tokens.giveBonusTokens(memberID: f.benMember, amount: 9, note: "Once", viewer: f.ana, clientMutationID: "q-1")
            #expect(first.entry == again.entry)
            #expect(try f.storedBalance(f.benMember) == 9)
            let reused = await #expect(throws: ServiceError.self) {
                try await f.tokens.adjustTokens(memberID: f.benMember, amount: 1, note: "Other", viewer: f.ana, clientMutationID: "q-1")
            }
            #expect(reused?.reason == .clientMutationIdReused)
        }
    }
}
