import FoundationEssentials
import HearthDomain
@testable import HearthServices
import HearthStore
import TestFixtures
import Testing

/// The chore family of the instances harness (Flat of `ana`, admin, with `ben`, a member, and
/// `kim`, a child with a login; `eve` in a household of her own) and a token service over its
/// chore instances, with its reactions on the change log.
struct TokensFixture {
    let harness: InstancesHarness
    let tokens: TokenService
    let family: ChoreFamily

    var h: HouseholdsHarness { harness.households }
    var householdID: String { family.householdID }
    var otherHouseholdID: String { family.outsiderHouseholdID }
    var ana: Viewer { family.admin }
    var ben: Viewer { family.member }
    var kim: Viewer { family.child }
    var eve: Viewer { family.outsider }
    var anaMember: String { family.adminMemberID }
    var benMember: String { family.memberID }
    var kimMember: String { family.childMemberID }
    var eveMember: String { family.outsiderMemberID }

    /// Calls `body` with a fresh fixture; `configure` adjusts the token limits first.
    static func with(configure: (inout TokensConfiguration) -> Void = { _ in }, _ body: (TokensFixture) async throws -> Void) async throws {
        try await InstancesHarness.with { harness in
            var configuration = TokensConfiguration()
            configure(&configuration)
            let tokens = TokenService(configuration: configuration, instances: harness.instances)
            try await body(TokensFixture(harness: harness, tokens: tokens, family: try await harness.households.choreFamily()))
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
        try #require(try await tokens.instances.members(ids: [memberID], access: access(viewer))[memberID])
    }

    /// A one-off chore of Flat worth `tokens`, due in an hour, assigned to `assignees` (ben when
    /// not given), with `configure` applied; returns it and its instance's id.
    func chore(
        _ title: String, tokens: Int, assignees: [String]? = nil, requiresApproval: Bool = false, _ configure: (inout ChoreFields) -> Void = { _ in }
    ) async throws -> (chore: ChoreRecord, instanceID: String) {
        let due = harness.clock.now.addingTimeInterval(3600)
        let chore = try await h.chore(title, in: householdID, by: ana) {
            $0.assignmentMode = .individual
            $0.assigneeIDs = assignees ?? [benMember]
            $0.requiresApproval = requiresApproval
            $0.tokens = tokens
            $0.schedule = .once(due)
            configure(&$0)
        }
        return (chore, harness.instanceID(chore, at: due))
    }

    /// Runs `body` with Flat's scope in a write transaction, as the chore instances' changes do.
    func inTransaction<T: Sendable>(_ body: @escaping @Sendable (HouseholdScope, Date) throws -> T) throws -> T {
        let now = h.clock.storedNow
        let (ana, householdID) = (ana, householdID)
        return try h.pool.write { database in
            try body(try HouseholdScope.check(viewer: ana, householdID: householdID, in: database), now)
        }
    }
}
