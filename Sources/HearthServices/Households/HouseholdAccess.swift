import HearthDomain
import HearthStore

/// Proof that a user may act in one household with at least a given role: the server side of
/// row-level security. Only ``check(viewer:householdID:requiring:in:)``,
/// ``check(viewer:owning:id:requiring:in:)`` and their variants that read the household's
/// record in the same statement (``checkReadingHousehold(viewer:householdID:requiring:in:)``,
/// ``memberships(of:activeHouseholdOnly:in:)``) make one, after reading the caller's active
/// membership, so every function that takes a `HouseholdAccess` can rely on it. Household data
/// is read and written through the access's ``HouseholdScope``, which binds ``householdID`` into
/// every statement itself.
///
/// Whatever the reason a caller may not see a household (it does not exist, they are not a
/// member, the id belongs to another household's object), the answer is the same `NOT_FOUND`,
/// so ids of other households reveal nothing. A member lacking the role gets `FORBIDDEN`:
/// they know the household exists.
public struct HouseholdAccess: Sendable, Hashable {
    /// What the check read, in one object every copy shares: a request copies its access into
    /// every value it makes (each member of a page holds one), and copying a member record
    /// retains each of its fields.
    private let grant: Grant

    private init(userID: String, member: MemberRecord) {
        grant = Grant(userID: userID, member: member)
    }

    /// The caller's account.
    public var userID: String { grant.userID }
    /// The caller's member record in the household, as read by the check (so a request that
    /// shows it, `Household.viewerMember`, needs no other read).
    public var member: MemberRecord { grant.member }
    /// The household.
    public var householdID: String { grant.member.householdID }
    /// The caller's member id in the household.
    public var memberID: String { grant.member.id }
    /// The caller's role there.
    public var role: MemberRole { grant.member.role }

    /// The account and member record of an access, never changed once read.
    private final class Grant: Sendable {
        let userID: String
        let member: MemberRecord

        init(userID: String, member: MemberRecord) {
            self.userID = userID
            self.member = member
        }
    }

    /// Two accesses are equal when they grant the same: the same user as the same member of
    /// the same household with the same role (the rest of the member record, such as the
    /// display name, does not change what an access allows).
    public static func == (lhs: HouseholdAccess, rhs: HouseholdAccess) -> Bool {
        lhs.userID == rhs.userID && lhs.memberID == rhs.memberID && lhs.householdID == rhs.householdID && lhs.role == rhs.role
    }

    /// Hashes what ``==`` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(userID)
        hasher.combine(memberID)
        hasher.combine(householdID)
        hasher.combine(role)
    }

    /// Whether the caller is an admin of the household.
    public var isAdmin: Bool { role == .admin }

    /// Checks that `viewer` is an active member of `householdID` with at least `role`, inside
    /// the caller's transaction (so the answer holds for the rest of it).
    /// - Throws: ``ServiceError`` `NOT_FOUND` when the household does not exist or the viewer is
    ///   not an active member (also, without a read, for an id that is not a household's);
    ///   `FORBIDDEN` when their role is below `role`.
    static func check(viewer: Viewer, householdID: String, requiring role: MemberRole = .member, in database: Database) throws -> HouseholdAccess {
        guard GlobalID.mayName(.household, householdID) else { throw ServiceError.householdNotFound }
        // The viewer's own membership: their owner scope, never another account's row.
        guard let member = try OwnerScope(Owner(viewer), database).decodeOne(MemberRecord.self, Self.checkSQL, [householdID]) else {
            throw ServiceError.householdNotFound
        }
        return try granting(viewer.userID, member, requiring: role)
    }

    /// ``check(viewer:householdID:requiring:in:)``, reading the household's record in the same
    /// statement: what a request showing the household needs, in one statement instead of two.
    /// - Throws: Like ``check(viewer:householdID:requiring:in:)``.
    static func checkReadingHousehold(
        viewer: Viewer, householdID: String, requiring role: MemberRole = .member, in database: Database
    ) throws -> (access: HouseholdAccess, household: HouseholdRecord) {
        guard GlobalID.mayName(.household, householdID) else { throw ServiceError.householdNotFound }
        guard let row = try OwnerScope(Owner(viewer), database).queryOne(Self.checkReadingHouseholdSQL, [householdID]) else {
            throw ServiceError.householdNotFound
        }
        let access = try granting(viewer.userID, row.decode(MemberRecord.self, at: 0), requiring: role)
        return (access, try row.decode(HouseholdRecord.self, at: MemberRecord.columns.count))
    }

    /// The access each active membership of `viewer` gives, with the household's record and
    /// whether it is their active household, in one statement (not one check per household):
    /// the active one first, then by name. With `activeHouseholdOnly`, the active one alone
    /// (none when they have no active household, or are no longer an active member of it).
    static func memberships(
        of viewer: Viewer, activeHouseholdOnly: Bool = false, in database: Database
    ) throws -> [(access: HouseholdAccess, household: HouseholdRecord, isActive: Bool)] {
        try memberships(of: Owner(viewer), activeHouseholdOnly: activeHouseholdOnly, in: database)
    }

    /// ``memberships(of:activeHouseholdOnly:in:)`` for an account proved otherwise than by a
    /// signed-in request: the owner of a calendar feed, whose secret token is the credential.
    static func memberships(
        of account: Owner, activeHouseholdOnly: Bool = false, in database: Database
    ) throws -> [(access: HouseholdAccess, household: HouseholdRecord, isActive: Bool)] {
        var memberships: [(access: HouseholdAccess, household: HouseholdRecord, isActive: Bool)] = []
        var nameKeys: [String] = []
        let owner = OwnerScope(account, database)
        let isActiveColumn = MemberRecord.columns.count + HouseholdRecord.columns.count
        try owner.forEachRow(activeHouseholdOnly ? Self.activeMembershipSQL : Self.membershipsSQL) { row in
            let household = try row.decode(HouseholdRecord.self, at: MemberRecord.columns.count)
            let isActive: Bool = try row[isActiveColumn]
            nameKeys.append(try row[isActiveColumn + 1])
            memberships.append((try granting(account.userID, row.decode(MemberRecord.self, at: 0), requiring: .member), household, isActive))
        }
        // The active one first, then by name and id as SQL's BINARY collation orders them (bytes):
        // sorted here, since a viewer has a few households and SQLite's sorter (a temporary
        // B-tree) cost more than the rest of the read.
        return memberships.indices.sorted { left, right in
            let (a, b) = (memberships[left], memberships[right])
            if a.isActive != b.isActive { return a.isActive }
            if nameKeys[left] != nameKeys[right] { return nameKeys[left].utf8.lexicographicallyPrecedes(nameKeys[right].utf8) }
            return a.household.id.utf8.lexicographicallyPrecedes(b.household.id.utf8)
        }.map { memberships[$0] }
    }

    // The statements of the checks (the viewer's own memberships, so through their owner scope,
    // which reaches the households of those memberships), their SQL texts built once: building
    // them for every call cost more than looking them up in the statement cache.
    private static let checkSQL = "SELECT \(MemberRecord.columns) FROM members WHERE household_id = ? AND user_id = {owner} AND status = 'active'"
    private static let recordColumns = "\(MemberRecord.columns.qualified(by: "m")), \(HouseholdRecord.columns.qualified(by: "h"))"
    private static let checkReadingHouseholdSQL = """
        SELECT \(recordColumns) FROM members m JOIN households h ON h.id = m.household_id
        WHERE m.household_id = ? AND m.user_id = {owner} AND m.status = 'active'
        """
    private static let membershipSelect = """
        SELECT \(recordColumns), a.user_id IS NOT NULL AS is_active, h.name_key
        FROM members m JOIN households h ON h.id = m.household_id
        LEFT JOIN active_households a ON a.user_id = m.user_id AND a.household_id = m.household_id
        WHERE m.user_id = {owner} AND m.status = 'active'
        """
    private static let membershipsSQL = membershipSelect
    /// At most one row (a user has one active household): nothing to sort.
    private static let activeMembershipSQL = "\(membershipSelect) AND a.user_id IS NOT NULL"

    /// The access `member`, the active membership of account `userID` just read, grants.
    /// - Throws: ``ServiceError`` `FORBIDDEN` when their role is below `role`.
    private static func granting(_ userID: String, _ member: MemberRecord, requiring role: MemberRole) throws -> HouseholdAccess {
        guard member.role >= role else { throw ServiceError.adminsOnly }
        return HouseholdAccess(userID: userID, member: member)
    }

    /// The access the server's own scheduled work in `householdID` runs with (planning chore
    /// instances, reacting to a change it follows), which has no viewer: that of the household's
    /// longest-standing active admin, so it may read and write what an admin may. A household
    /// always has one (the last admin can neither leave nor be demoted). Never for a request: a
    /// request's access is its viewer's (``check(viewer:householdID:requiring:in:)``).
    /// - Returns: `nil` when the household no longer exists.
    static func scheduled(householdID: String, in database: Database) throws -> HouseholdAccess? {
        guard let member = try database.decodeOne(
            MemberRecord.self,
            """
            SELECT \(MemberRecord.columns) FROM members WHERE household_id = ? AND role = 'admin' AND status = 'active'
            AND user_id IS NOT NULL ORDER BY joined_at, id LIMIT 1
            """,
            [householdID]), let userID = member.userID
        else { return nil }
        return HouseholdAccess(userID: userID, member: member)
    }

    /// Checks access to the household owning the object `id` of `table`, with the same rules;
    /// an unknown id, or one of another type than the table's (without a read), answers like a
    /// household the viewer is not in.
    /// - Throws: ``ServiceError`` `NOT_FOUND` (with `notFound`'s message) or `FORBIDDEN`.
    static func check(
        viewer: Viewer, owning table: HouseholdOwnedTable, id: String, requiring role: MemberRole = .member,
        notFound: ServiceError, in database: Database
    ) throws -> HouseholdAccess {
        guard GlobalID.mayName(table.kind, id),
              let householdID = try database.scalar(String.self, "SELECT household_id FROM \(table.rawValue) WHERE id = ?", [id]) else {
            throw notFound
        }
        do {
            return try check(viewer: viewer, householdID: householdID, requiring: role, in: database)
        } catch let error as ServiceError where error.code == .notFound {
            throw notFound
        }
    }
}

/// The household-owned tables whose rows are addressed by id from outside (GraphQL ids).
enum HouseholdOwnedTable: String {
    case members
    case invitations
    case parentalConsents = "parental_consents"
    case rewards
    case redemptions = "reward_redemptions"
    case ledgerEntries = "token_ledger"
    case choreCompletions = "chore_completions"

    /// The type of the ids of the table's rows.
    var kind: GlobalID.Kind {
        switch self {
        case .members: .member
        case .invitations: .invitation
        case .parentalConsents: .parentalConsent
        case .rewards: .reward
        case .redemptions: .redemption
        case .ledgerEntries: .ledgerEntry
        case .choreCompletions: .choreCompletion
        }
    }
}

extension ServiceError {
    /// A household that does not exist or that the caller is not a member of (the same answer).
    public static let householdNotFound = ServiceError(.notFound, "No such household.")
    /// A member that does not exist or is in a household the caller is not a member of.
    public static let memberNotFound = ServiceError(.notFound, "No such member.")
    /// The caller is a member but not an admin (reason `ADMINS_ONLY`).
    public static let adminsOnly = ServiceError(.forbidden, reason: .adminsOnly, "Only the household's admins can do this.")
    /// The account's address is not confirmed yet.
    public static let emailNotConfirmed = ServiceError(
        .emailNotConfirmed, "Confirm your email address first: follow the link we sent you, or ask for it again.")
}
