import FoundationEssentials
import HearthDomain
import HearthStore
import Support

/// Households and membership (FR-07 – FR-17) and onboarding (onboarding.md): creating and
/// editing households, the active household, roles, invitations, children behind parental
/// consent, the token economy, the setup checklist and activation analytics.
///
/// Every function reading or writing a household's data first obtains a ``HouseholdAccess``
/// inside its transaction (membership and role checked there) and goes through its
/// ``HouseholdScope``, which binds the household id into every statement; objects of households
/// the caller is not in answer `NOT_FOUND`. A user's own rows (their memberships, their active
/// household, their replay records) go through their ``OwnerScope``.
///
/// The split across files: creation and reads here; editing, deletion, the active household,
/// roles, departures and the members list (`+Membership`, pages in `MemberPage`); invitations
/// (`+Invitations`, their records in `InvitationRecord`, their email in `HouseholdMail`);
/// children, shadows and consent (`+Children`); the economy (`+Economy`); the checklist and
/// the wizard's start (`+Onboarding`); terms and analytics consent (`+Terms`); `node`/`nodes`
/// lookups (`+Nodes`). Event kinds and their payload are in `HouseholdEvents`.
public final class HouseholdService: Sendable {
    /// Limits and lifetimes.
    public let configuration: HouseholdsConfiguration
    /// The store. Not public: callers reach household data through the service's functions.
    let pool: any DatabaseWriter
    /// Where changes are recorded and published.
    public let changeLog: ChangeLog
    /// Accounts (the signed-in user's record, rate limits on email).
    public let accounts: AccountService
    /// Activation analytics.
    public let analytics: ActivationAnalytics
    let logger: Logger
    /// The clock every time the service stamps or compares comes from.
    let clock: any ServiceClock
    /// The memberships, member pages and checklists kept while nothing commits (`+KeptReads`).
    let keptReads: HouseholdKeptReads

    /// Creates the service.
    /// - Parameter clock: The clock; tests pass one they move.
    public init(
        configuration: HouseholdsConfiguration, pool: any DatabaseWriter, changeLog: ChangeLog, accounts: AccountService,
        analytics: ActivationAnalytics, logger: Logger, clock: any ServiceClock = SystemClock()
    ) {
        self.configuration = configuration
        self.pool = pool
        self.changeLog = changeLog
        self.accounts = accounts
        self.analytics = analytics
        self.logger = logger
        self.clock = clock
        keptReads = HouseholdKeptReads(entries: configuration.keptReadEntries, pageBytes: configuration.keptTextBytes)
    }


    // MARK: - Access

    /// Checks that `viewer` may act in `householdID` with at least `role`, in a read.
    /// - Throws: `NOT_FOUND` for a household that does not exist or that they are not in (an id
    ///   that is not a household's without a read), `FORBIDDEN` when their role is below `role`.
    public func access(viewer: Viewer, householdID: String, requiring role: MemberRole = .member) async throws -> HouseholdAccess {
        guard GlobalID.mayName(.household, householdID) else { throw ServiceError.householdNotFound }
        return try await pool.readPreferringCallingThread { database in
            try HouseholdAccess.check(viewer: viewer, householdID: householdID, requiring: role, in: database)
        }
    }

    /// Whether `viewer` is an active member of `householdID` now (any role).
    public func isActiveMember(_ viewer: Viewer, of householdID: String) async throws -> Bool {
        do {
            _ = try await access(viewer: viewer, householdID: householdID)
            return true
        } catch let error as ServiceError where error.code == .notFound {
            return false
        }
    }

    /// The account of `viewer`, which must have a confirmed address (creating, joining and
    /// inviting need one).
    /// - Throws: `EMAIL_NOT_CONFIRMED`, or `UNAUTHENTICATED` when the account is gone.
    func requireConfirmedEmail(_ viewer: Viewer, in database: Database) throws -> UserRecord {
        guard let user = try UserRecord.find(id: viewer.userID, in: database) else { throw ServiceError.signedOut }
        guard user.isEmailConfirmed else { throw ServiceError.emailNotConfirmed }
        return user
    }

    /// Refuses a new membership for the owner beyond the households-per-user limit (departed
    /// memberships do not count).
    func ensureRoomForAnotherHousehold(_ owner: OwnerScope) throws {
        let count = try owner.scalar(Int.self, "SELECT count(*) FROM members WHERE user_id = {owner} AND status = 'active'") ?? 0
        if count >= configuration.maximumHouseholdsPerUser {
            throw ServiceError(.conflict, reason: .limitReached, "You belong to \(count) households, the most allowed. Leave one first.")
        }
    }

    /// Runs `change` in one write transaction as `viewer`'s mutation `mutation`, remembered
    /// under `clientMutationID` (``MutationReplay``): a replay returns the first run's result
    /// (what `change` returned, so results are references to read again after the commit) and
    /// changes nothing.
    /// - Parameter target: The id of the object the mutation changes, when it changes one: a
    ///   `NOT_FOUND` of a deleted object the viewer could see becomes reason `DELETED` (``Tombstones``).
    /// - Throws: What `change` throws; `CONFLICT` with reason `CLIENT_MUTATION_ID_REUSED` for an
    ///   id the viewer used for another mutation.
    func mutate<Result: Codable & Sendable>(
        _ mutation: String, by viewer: Viewer, replaying clientMutationID: String?, about target: String? = nil, at now: Date,
        _ change: @escaping @Sendable (Database) throws -> Result
    ) async throws -> Result {
        do {
            return try await pool.write { database in
                try MutationReplay.run(clientMutationID: clientMutationID, mutation: mutation, at: now, OwnerScope(Owner(viewer), database)) {
                    try change(database)
                }
            }
        } catch {
            throw await Tombstones.refine(error, target: target, viewer: viewer, in: pool)
        }
    }

    /// Records a change to `householdID` on its topic, listing `touching` besides the payload's
    /// objects, to publish after commit.
    func record(_ kind: EventKind, _ change: HouseholdChange, touching: [String] = [], in database: Database) throws {
        try changeLog.record(topic: .household(change.householdID), kind: kind, payload: change, touching: touching, in: database)
    }

    // MARK: - Creating (FR-07, FR-ONBOARD-1)

    /// What `createHousehold` is given.
    public struct NewHousehold: Sendable {
        /// The name, 1–80 characters after trimming.
        public var name: String
        /// One emoji.
        public var emoji: String?
        /// Where it is.
        public var locationLabel: String?
        /// The IANA time zone; the creator's (or UTC) when absent.
        public var timeZone: String?
        /// The id the client made for it offline (`hh_<uuid>`, ``ClientIDs``); the server makes one when absent.
        public var id: String?

        /// Creates the request.
        public init(name: String, emoji: String? = nil, locationLabel: String? = nil, timeZone: String? = nil, id: String? = nil) {
            self.id = id
            self.name = name
            self.emoji = emoji
            self.locationLabel = locationLabel
            self.timeZone = timeZone
        }
    }

    /// Creates a household with `viewer` as its admin member (kind parent, named after their
    /// account). It becomes their active household when they had none. The checklist's
    /// household step is done.
    /// - Throws: `BAD_USER_INPUT` (every field problem), `EMAIL_NOT_CONFIRMED`, `CONFLICT` at the
    ///   households-per-user limit, or for a reused `clientMutationID`; for `request.id`, as
    ///   ``ClientIDs/claim(_:_:field:_:at:)`` (the same id again answers the first household).
    public func createHousehold(
        _ request: NewHousehold, viewer: Viewer, clientMutationID: String? = nil
    ) async throws -> JoinedHousehold {
        var problems = ProblemCollector()
        let name = problems.check { () throws(FieldProblem) in try DisplayText.name(request.name, field: "input.name") }
        let emoji = problems.check { () throws(FieldProblem) in try DisplayText.emoji(request.emoji, field: "input.emoji") } ?? nil
        let location = problems.check { () throws(FieldProblem) in
            try DisplayText.optionalLabel(request.locationLabel, field: "input.locationLabel")
        } ?? nil
        let zone = request.timeZone.flatMap { text in
            problems.check { () throws(FieldProblem) in try TimeZoneName(text, field: "input.timeZone") }
        }
        try problems.throwIfAny()
        let now = clock.storedNow
        let created = try await mutate("createHousehold", by: viewer, replaying: clientMutationID, at: now) { [self] database in
            let user = try requireConfirmedEmail(viewer, in: database)
            let owner = OwnerScope(Owner(viewer), database)
            let householdID: String
            switch try ClientIDs.claim(request.id, .household, owner, at: now) {
            case .existing(let made):
                let memberID = try owner.scalar(String.self, "SELECT id FROM members WHERE household_id = ? AND user_id = {owner}", [made])
                guard let memberID else { throw ServiceError.householdNotFound }
                return MemberReference(householdID: made, memberID: memberID)
            case .create(let new): householdID = new
            }
            try ensureRoomForAnotherHousehold(owner)
            let timeZone = try zone?.name
                ?? database.scalar(String.self, "SELECT time_zone FROM users WHERE id = ?", [user.id]) ?? TimeZoneName.utc.name
            let memberID = GlobalID.make(.member, now: now).rawValue
            try database.execute(
                """
                INSERT INTO households (id, name, name_key, emoji, location_label, time_zone, created_by, created_at, updated_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [householdID, name!, DisplayText.sortKey(name!), emoji, location, timeZone, user.id, now, now])
            // Its first member is the creator's own row; from then on their access reaches it.
            try owner.execute(
                """
                INSERT INTO members (id, household_id, user_id, kind, role, status, display_name, joined_at, updated_at)
                VALUES (?, ?, {owner}, 'parent', 'admin', 'active', ?, ?, ?)
                """,
                [memberID, householdID, user.displayName, now, now])
            let scope = try HouseholdScope.check(viewer: viewer, householdID: householdID, in: database)
            try ActiveHousehold.activateIfNone(householdID: householdID, at: now, owner)
            try analytics.record(.householdCreated, actorID: user.id, householdID: householdID, at: now, in: database)
            try record(.householdCreated, HouseholdChange(householdID: householdID, memberID: memberID, userID: user.id), in: database)
            try markOnboardingStepDone(.household, scope, at: now)
            return MemberReference(householdID: householdID, memberID: memberID)
        }
        return try await joinedHousehold(created, viewer: viewer)
    }

    // MARK: - Reading (FR-10)

    /// A household with the access the viewer's membership gives.
    public typealias AccessibleHousehold = (record: HouseholdRecord, access: HouseholdAccess)

    /// A member with the access the viewer's membership gives to its household.
    public typealias AccessibleMember = (member: MemberRecord, access: HouseholdAccess)

    /// A household and a member of it, with the access the viewer's membership gives: what
    /// creating a household or accepting an invitation returns.
    public typealias JoinedHousehold = (household: HouseholdRecord, member: MemberRecord, access: HouseholdAccess)

    /// The member `reference` names with the access `viewer` has to its household now: a
    /// mutation's result, read after its commit (or on its replay).
    func accessibleMember(_ reference: MemberReference, viewer: Viewer) async throws -> AccessibleMember {
        try await pool.readPreferringCallingThread { database in try Self.accessibleMember(reference, viewer: viewer, in: database) }
    }

    /// The member `reference` names and its household, with `viewer`'s access, as they are now.
    func joinedHousehold(_ reference: MemberReference, viewer: Viewer) async throws -> JoinedHousehold {
        try await pool.readPreferringCallingThread { database in
            let scope = try HouseholdScope.check(viewer: viewer, householdID: reference.householdID, in: database)
            return (try HouseholdRecord.find(scope), try MemberRecord.find(id: reference.memberID, scope), scope.access)
        }
    }

    private static func accessibleMember(_ reference: MemberReference, viewer: Viewer, in database: Database) throws -> AccessibleMember {
        let scope = try HouseholdScope.check(viewer: viewer, householdID: reference.householdID, in: database)
        return (try MemberRecord.find(id: reference.memberID, scope), scope.access)
    }

    /// The households `viewer` is an active member of, each with the access their membership
    /// gives and whether it is their active one: the active one first, then by name.
    public func households(viewer: Viewer) async throws -> [(record: HouseholdRecord, access: HouseholdAccess, isActive: Bool)] {
        try await households(viewer: viewer, at: readMark())
    }

    /// The households `viewer` is an active member of, as ``households(viewer:)``: kept under
    /// `mark` (``readMark()``) or, without one, read.
    public func households(
        viewer: Viewer, at mark: HouseholdReadMark?
    ) async throws -> [(record: HouseholdRecord, access: HouseholdAccess, isActive: Bool)] {
        try await memberships(of: viewer, at: mark?.change).map { ($0.household, $0.access, $0.isActive) }
    }

    /// The household `id` when `viewer` is a member, with their access; reading it does not
    /// change their active household (FR-10).
    /// - Throws: `NOT_FOUND` otherwise (an id that is not a household's without a read).
    public func household(id: String, viewer: Viewer) async throws -> AccessibleHousehold {
        guard GlobalID.mayName(.household, id) else { throw ServiceError.householdNotFound }  // no mark, no read
        return try await household(id: id, viewer: viewer, at: readMark())
    }

    /// The household `id`, as ``household(id:viewer:)``: kept under `mark` (``readMark()``) or,
    /// without one, read.
    /// - Throws: `NOT_FOUND` when `viewer` is not an active member of it.
    public func household(id: String, viewer: Viewer, at mark: HouseholdReadMark?) async throws -> AccessibleHousehold {
        guard GlobalID.mayName(.household, id) else { throw ServiceError.householdNotFound }
        if let mark {
            return try await keptMembership(of: viewer, in: id, at: mark.change)
        }
        return try await pool.readPreferringCallingThread { database in
            let (access, household) = try HouseholdAccess.checkReadingHousehold(viewer: viewer, householdID: id, in: database)
            return (household, access)
        }
    }

    /// The viewer's membership of household `id` among their memberships kept under `mark`
    /// (as ``HouseholdAccess/checkReadingHousehold(viewer:householdID:requiring:in:)`` reads it).
    /// - Throws: `NOT_FOUND` when they are not an active member of it.
    func keptMembership(of viewer: Viewer, in id: String, at mark: ChangeMark) async throws -> AccessibleHousehold {
        guard let membership = try await memberships(of: viewer, at: mark).first(where: { $0.household.id == id }) else {
            throw ServiceError.householdNotFound
        }
        return (membership.household, membership.access)
    }

    /// The household `access` grants, as it is now.
    public func household(_ access: HouseholdAccess) async throws -> HouseholdRecord {
        try await pool.readPreferringCallingThread { database in try HouseholdRecord.find(HouseholdScope(access, database)) }
    }

    /// The id of the viewer's active household; `nil` when they belong to none.
    public func activeHouseholdID(viewer: Viewer) async throws -> String? {
        try await pool.readPreferringCallingThread { database in try ActiveHousehold.id(OwnerScope(Owner(viewer), database)) }
    }

    /// Whether the household `access` grants is the active one of the viewer it was checked for.
    public func isActiveHousehold(_ access: HouseholdAccess) async throws -> Bool {
        try await pool.readPreferringCallingThread { database in
            try ActiveHousehold.id(OwnerScope(Owner(access), database)) == access.householdID
        }
    }
}

// MARK: - What replays remember

/// The household a mutation's result names, as ``MutationReplay`` stores it for a replay.
struct HouseholdReference: Codable {
    var householdID: String
}

/// The member (and its household) a mutation's result names, as ``MutationReplay`` stores it.
struct MemberReference: Codable {
    var householdID: String
    var memberID: String
}
