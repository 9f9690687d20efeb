import FoundationEssentials
import HearthDomain
import HearthStore

/// The token economy (issue 14, "Approval and the token economy"; FR-ONBOARD-5, FR-ONBOARD-6):
/// each member's ledger of whole tokens, approving and rejecting completions, admins' adjustments,
/// bonuses and payouts, and the rewards store with its requests.
///
/// - Ledger: append-only (``TokenLedger``); a member's balance is the sum of their entries, kept
///   beside them in the same transaction and never below zero.
/// - Completions: a completion that counts is credited, and one undone reversed, in the
///   transaction that records it (``TokenCredits``, reacting to the chore instances' events);
///   admins approve or reject completions waiting for approval (`+Completions`), which settles them
///   through ``ChoreInstanceService``.
/// - Shared rewards are split by the household's `earningsSplit` with ``TokenSplit``'s rounding
///   rule, which never creates or loses a token.
/// - Money is exact: a payout stores the rate in force and the money as decimal text
///   (``DecimalAmount``), never a float (`+Adjustments`).
/// - Rewards (`+Rewards`) and requests for them (`+Redemptions`): asking holds the tokens (and
///   takes one from the stock) until an admin approves (the hold is spent) or rejects (both come
///   back).
///
/// Scoping and errors as in ``HouseholdService``: every function checks the viewer's membership in
/// its transaction and goes through the household's scope; objects of other households answer
/// `NOT_FOUND` exactly like unknown ids; members get `FORBIDDEN` for what only admins do.
/// Mutations run in one write transaction each, with `clientMutationId` replay, and record their
/// change on the household's topic (``TokenChange``). Reads are in `+Reads`, `node` lookups in `+Nodes`.
public final class TokenService: Sendable {
    /// Limits.
    public let configuration: TokensConfiguration
    /// Chore instances: the completions approving and rejecting settle.
    public let instances: ChoreInstanceService
    /// Households: membership checks, replay protection, the change log, the economy settings.
    public var households: HouseholdService { instances.chores.households }

    /// Creates the service over `instances` (and through them the chores' and households' store
    /// and change log), and registers its reactions on the change log: a completion that counts
    /// (recorded without needing approval, or approved) is credited, and one undone reversed, in
    /// the transaction of that change (``TokenCredits``); and when a child or shadow departs and is
    /// anonymised, what admins wrote about them (ledger notes, reasons for refusing their requests)
    /// is erased with their name (``eraseNotes(about:_:)``).
    public init(configuration: TokensConfiguration, instances: ChoreInstanceService) {
        self.configuration = configuration
        self.instances = instances
        TokenCredits.register(on: instances.chores.households.changeLog)
        MemberAnonymisation.register(on: instances.chores.households.changeLog, Self.eraseNotes(about:_:))
    }

    /// Replaces the free text of member `memberID`'s ledger entries and of the reasons their
    /// requests were refused with ``MemberAnonymisation/erasedText``: admins write them about the
    /// member ("Mia cleaned her room"). The one change to ledger entries, which are otherwise only
    /// ever added; amounts and balances stay.
    static func eraseNotes(about memberID: String, _ scope: HouseholdScope) throws {
        try scope.execute(
            "UPDATE token_ledger SET note = ? WHERE household_id = {household} AND member_id = ? AND note IS NOT NULL",
            [MemberAnonymisation.erasedText, memberID])
        try scope.execute(
            "UPDATE reward_redemptions SET reason = ? WHERE household_id = {household} AND member_id = ? AND reason IS NOT NULL",
            [MemberAnonymisation.erasedText, memberID])
    }

    /// The store.
    var pool: any DatabaseWriter { households.pool }

    /// Runs `change` in one write transaction as `viewer`'s mutation `mutation`, remembered under
    /// `clientMutationID`, about `target`, with the time (``ChoreService``'s replay-protected transaction).
    func mutate<Result: Codable & Sendable>(
        _ mutation: String, by viewer: Viewer, replaying clientMutationID: String?, about target: String? = nil,
        _ change: @escaping @Sendable (Database, Date) throws -> Result
    ) async throws -> Result {
        try await instances.chores.mutate(mutation, by: viewer, replaying: clientMutationID, about: target, change)
    }

    /// Records `kind` with `change` on the household's topic, to publish after commit.
    func record(_ kind: EventKind, _ change: TokenChange, in database: Database) throws {
        try households.changeLog.record(topic: .household(change.householdID), kind: kind, payload: change, in: database)
    }

    /// What `body` reads in the household `householdID` as `viewer` may see it now, with their
    /// access: a mutation's result read after its commit (or on its replay).
    /// - Throws: `NOT_FOUND` when the viewer is no longer a member; what `body` throws.
    func read<Result: Sendable>(
        in householdID: String, as viewer: Viewer, _ body: @escaping @Sendable (HouseholdScope) throws -> Result
    ) async throws -> (Result, HouseholdAccess) {
        try await pool.readPreferringCallingThread { database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database)
            return (try body(scope), scope.access)
        }
    }

    /// `amount` when it is a whole number of tokens from `minimum` to the configured maximum.
    /// - Throws: ``FieldProblem`` `OUT_OF_RANGE` for `field`.
    func tokenAmount(_ amount: Int, field: String, minimum: Int = 1) throws(FieldProblem) -> Int {
        let range = minimum...configuration.maximumTokenAmount
        guard range.contains(amount) else {
            throw FieldProblem(field: field, reason: .outOfRange, message: "Use \(range.lowerBound) to \(range.upperBound) tokens.")
        }
        return amount
    }

    /// The required note of an adjustment or bonus: one line, 1–80 characters.
    /// - Throws: ``FieldProblem`` `REQUIRED`, `INVALID_FORMAT` or `TOO_LONG` for `field`.
    static func note(_ text: String, field: String) throws(FieldProblem) -> String {
        guard let note = try DisplayText.optionalLabel(text, field: field) else {
            throw FieldProblem(field: field, reason: .required, message: "Say what the tokens are for.")
        }
        return note
    }
}

/// The ledger entry a mutation wrote, as ``MutationReplay`` stores it for a replay.
struct LedgerEntryReference: Codable {
    var householdID: String
    var entryID: String
}
