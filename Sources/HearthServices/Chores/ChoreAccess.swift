import HearthDomain
import HearthStore

/// Proof that a user may see a set of chores: those of a household they are an active member
/// of (a ``HouseholdAccess``), their own personal chores (FR-31), or, read-only, personal chores
/// another user shares with them (FR-40, FR-41: ``ChoreShares``). Only the chore service's checks
/// make one, so a function taking a `ChoreAccess` can rely on it; the chores it grants are read
/// through its ``ChoreScope``.
///
/// A shared access is made only by the read paths (``check(viewer:owning:id:readingShared:in:)``
/// with `readingShared`, and the lookups of shared objects), for one chore the checks found shared
/// with the viewer; its scope is the owner's rows, so it is only ever used for rows of that chore.
/// Every write path checks without `readingShared` and gets `FORBIDDEN` (reason
/// `SHARED_READ_ONLY`) for a shared chore: the recipient knows it exists, so `NOT_FOUND` would hide
/// nothing.
public struct ChoreAccess: Sendable, Hashable {
    /// Whose chores.
    enum Grant: Sendable, Hashable {
        /// A household's, as the member the access was checked for.
        case household(HouseholdAccess)
        /// One account's personal chores, as that account.
        case personal(Owner)
        /// Personal chores of `owner` shared with the account `viewerID`, read-only.
        case shared(owner: Owner, viewerID: String)
    }

    let grant: Grant

    /// The household's chores, as `access` allows.
    init(_ access: HouseholdAccess) {
        grant = .household(access)
    }

    /// The personal chores of `owner`.
    init(personal owner: Owner) {
        grant = .personal(owner)
    }

    /// Personal chores of `owner` shared with `viewer` (found shared by ``ChoreShares``).
    init(shared owner: Owner, with viewer: Viewer) {
        grant = .shared(owner: owner, viewerID: viewer.userID)
    }

    /// The household access, for a household's chores; `nil` for personal ones.
    public var household: HouseholdAccess? {
        if case .household(let access) = grant { access } else { nil }
    }

    /// Whether these are personal chores.
    public var isPersonal: Bool { household == nil }

    /// The account of the user the access was checked for.
    public var userID: String {
        switch grant {
        case .household(let access): access.userID
        case .personal(let owner): owner.userID
        case .shared(_, let viewerID): viewerID
        }
    }

    /// Whether these are another user's personal chores shared with the viewer, read-only.
    public var isShared: Bool {
        if case .shared = grant { true } else { false }
    }

    /// The account owning these personal chores (the viewer's own, or the sharer's); `nil` for a
    /// household's.
    var personalOwner: Owner? {
        switch grant {
        case .household: nil
        case .personal(let owner), .shared(let owner, _): owner
        }
    }

    /// Whether the user manages these chores outright: an admin of the household, or the owner
    /// of personal chores (never a recipient of a share).
    public var isManager: Bool { isShared ? false : household?.isAdmin ?? true }

    /// The topic changes to these chores are published on: the household's, or the owner's.
    var topic: Topic {
        switch grant {
        case .household(let access): .household(access.householdID)
        case .personal(let owner), .shared(let owner, _): .user(owner.userID)
        }
    }

    /// The scope of these chores in the transaction of `database`.
    func scope(_ database: Database) -> ChoreScope {
        ChoreScope(self, database)
    }

    /// The tables of objects owned by a household or by one user, addressed by id from outside.
    enum OwnedTable {
        /// `chores`, whose deleted rows are not found.
        case chores
        /// `tags`.
        case tags

        var kind: GlobalID.Kind { self == .chores ? .chore : .tag }
        var notFound: ServiceError { self == .chores ? .choreNotFound : .tagNotFound }
    }

    /// The access to the object `id` of `table` for `viewer`, inside the caller's transaction: one of
    /// a household they are an active member of, or one of their own (personal chores and tags);
    /// with `readingShared`, also a personal chore another user shares with them (read-only).
    /// - Throws: `NOT_FOUND` (the table's) for an unknown, deleted or malformed id, one of another
    ///   type, or one of a household they are not in or of another user, alike; `FORBIDDEN` with
    ///   reason `SHARED_READ_ONLY` for a chore shared with them when not `readingShared` (a write).
    static func check(
        viewer: Viewer, owning table: OwnedTable, id: String, readingShared: Bool = false, in database: Database
    ) throws -> ChoreAccess {
        // Whose the object is: the question this check answers, so before any scope exists.
        let owners = table == .chores
            ? "SELECT household_id, user_id FROM chores WHERE id = ? AND deleted_at IS NULL" : "SELECT household_id, user_id FROM tags WHERE id = ?"
        guard GlobalID.mayName(table.kind, id), let row = try database.queryOne(owners, [id]) else { throw table.notFound }
        if let householdID: String = try row["household_id"] {
            do {
                return ChoreAccess(try HouseholdAccess.check(viewer: viewer, householdID: householdID, in: database))
            } catch let error as ServiceError where error.code == .notFound {
                throw table.notFound
            }
        }
        let ownerID: String? = try row["user_id"]
        if ownerID == viewer.userID { return ChoreAccess(personal: Owner(viewer)) }
        guard table == .chores, let ownerID, try ChoreShares.isShared(choreID: id, with: viewer, in: database) else { throw table.notFound }
        guard readingShared else { throw ServiceError.sharedReadOnly }
        return ChoreAccess(shared: Owner(sharing: ownerID), with: viewer)
    }

    /// The access to the chores of `householdID` (a household of `viewer`'s), or to `viewer`'s
    /// personal chores when it is `nil`.
    /// - Throws: `NOT_FOUND` for a household they are not an active member of.
    static func check(viewer: Viewer, householdID: String?, in database: Database) throws -> ChoreAccess {
        guard let householdID else { return ChoreAccess(personal: Owner(viewer)) }
        return ChoreAccess(try HouseholdAccess.check(viewer: viewer, householdID: householdID, in: database))
    }
}

extension ServiceError {
    /// A chore that does not exist, was deleted, or is not the caller's to see (the same answer).
    public static let choreNotFound = ServiceError(.notFound, "No such chore.")
    /// A tag that does not exist or is not the caller's to see.
    public static let tagNotFound = ServiceError(.notFound, "No such tag.")
    /// A write on a chore shared with the caller (FR-40, FR-41: read-only).
    public static let sharedReadOnly = ServiceError(
        .forbidden, reason: .sharedReadOnly, "This chore is shared with you to follow, not to change: only its owner edits, completes or claims it.")
    /// A chore preset that does not exist or is not the caller's to see.
    public static let presetNotFound = ServiceError(.notFound, "No such chore preset.")
}
