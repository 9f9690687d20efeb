import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import Synchronization
import TestFixtures
import Testing

/// Completions kept in memory, standing in for the chore instances' table behind the
/// ``ChoreCompletionStore`` seam: what approving and rejecting read and change.
final class FakeCompletions: ChoreCompletionStore {
    struct Stored {
        var householdID: String
        var completion: ReviewableCompletion
        var approvedBy: String?
        var rejection: (by: String, reason: String?)?
    }

    let stored = Mutex<[String: Stored]>([:])

    /// Adds a completion waiting for approval (or, with `pending: false`, a final one).
    func add(_ credit: CompletionCredit, householdID: String, pending: Bool = true) {
        stored.withLock { $0[credit.completionID] = Stored(householdID: householdID, completion: ReviewableCompletion(isPendingApproval: pending, credit: credit)) }
    }

    subscript(id: String) -> Stored? { stored.withLock { $0[id] } }

    func householdID(ofCompletion id: String, in database: Database) throws -> String? {
        stored.withLock { $0[id]?.householdID }
    }

    func completion(id: String, _ scope: HouseholdScope) throws -> ReviewableCompletion? {
        stored.withLock { $0[id].flatMap { $0.householdID == scope.access.householdID ? $0.completion : nil } }
    }

    func markApproved(id: String, by reviewer: HouseholdAccess, at now: Date, _ scope: HouseholdScope) throws {
        stored.withLock {
            $0[id]?.approvedBy = reviewer.memberID
            $0[id]?.completion.isPendingApproval = false
        }
    }

    func markRejected(id: String, reason: String?, by reviewer: HouseholdAccess, at now: Date, _ scope: HouseholdScope) throws {
        stored.withLock {
            $0[id]?.rejection = (reviewer.memberID, reason)
            $0[id]?.completion.isPendingApproval = false
        }
    }
}

/// Household "Flat" of its admin `ana`, with `ben` (an adult member) and `eve` (in another
/// household, "Elsewhere", of her own), and a token service with fake completions.
struct TokensFixture {
    let h: HouseholdsHarness
    let tokens: TokenService
    let completions: FakeCompletions
    let householdID: String
    let otherHouseholdID: String
    let ana: Viewer
    let ben: Viewer
    let eve: Viewer
    let anaMember: String
    let benMember: String
    let eveMember: String

    /// Calls `body` with a fresh fixture; `configure` adjusts the token limits first.
    static func with(
        configure: (inout TokensConfiguration) -> Void = { _ in }, configureHouseholds: (inout HouseholdsConfiguration) -> Void = { _ in },
        _ body: (TokensFixture) async throws -> Void
    ) async throws {
        try await HouseholdsHarness.with(configure: configureHouseholds) { h in
            var configuration = TokensConfiguration()
            configure(&configuration)
            let completions = FakeCompletions()
            let (householdID, ana, ben, eve) = try await h.flatWithMemberAndOutsider()
            let otherHouseholdID = try await h.householdID(named: "Elsewhere", eve)
            let fixture = TokensFixture(
                h: h, tokens: TokenService(configuration: configuration, households: h.service, completions: completions),
                completions: completions, householdID: householdID, otherHouseholdID: otherHouseholdID, ana: ana, ben: ben, eve: eve,
                anaMember: try h.sqlText("SELECT id FROM members WHERE user_id = '\(ana.userID)'")!,
                benMember: try h.sqlText("SELECT id FROM members WHERE user_id = '\(ben.userID)'")!,
                eveMember: try h.sqlText("SELECT id FROM members WHERE user_id = '\(eve.userID)'")!)
            try await body(fixture)
        }
    }

    /// Adds a shadow member aged 15 (no consent needed) named `name` to Flat; returns its id.
    func shadow(_ name: String) async throws -> String {
        try await h.service.addMember(householdID: householdID, .init(kind: .shadow, displayName: name, age: 15), viewer: ana).member.id
    }

    /// Gives `memberID` `amount` bonus tokens as ana.
    func give(_ amount: Int, to memberID: String) async throws {
        _ = try await tokens.giveBonusTokens(memberID: memberID, amount: amount, note: "Setting up", viewer: ana)
    }

    /// The balance `token_balances` keeps for `memberID` (0 without a row).
    func storedBalance(_ memberID: String) throws -> Int {
        Int(try h.sqlText("SELECT coalesce((SELECT balance FROM token_balances WHERE member_id = '\(memberID)'), 0)")!)!
    }

    /// The sum of the ledger entries of `memberID`.
    func ledgerSum(_ memberID: String) throws -> Int {
        Int(try h.sqlText("SELECT coalesce(sum(amount), 0) FROM token_ledger WHERE member_id = '\(memberID)'")!)!
    }

    /// The access `viewer` has to Flat.
    func access(_ viewer: Viewer) async throws -> HouseholdAccess {
        try await h.service.access(viewer: viewer, householdID: householdID)
    }

    /// The member record `memberID` of Flat as `viewer` reaches it.
    func member(_ memberID: String, as viewer: Viewer) async throws -> MemberRecord {
        try #require(try await tokens.members(ids: [memberID], access(viewer))[memberID])
    }
}

