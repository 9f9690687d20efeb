import HearthDomain
import HearthStore

/// Offline sync, reading what changed (issue 17): a user's stream of changed objects by cursor,
/// scoped exactly by what they may see (``SyncScopes``), for `changes(since:first:)` and
/// `syncDeltas(since:)` (which reads the same pages again whenever one of ``scopes(of:)`` changes).
///
/// - **The stream** is the change-log rows of the user's scopes in sequence order, each standing
///   for the objects it touched (column `objects`, ``ChangeSubjects``). The API looks each object up
///   as `node(id:)` does: visible now, an upsert with the object; otherwise a tombstone.
/// - **Scopes gained and lost** are rows on the user's own topic (``SyncScopeChange``): a gain
///   stands for every object of the scope now, a loss for every object of the scope at the loss
///   (the row lists them). A scope lost after the cursor is read up to the loss, so nothing made
///   in it afterwards is named, not even by a tombstone.
/// - **A full resync** (no cursor) lists every object of the user's scopes as of the newest row,
///   read in the same transaction as that row's sequence, then continues with the rows after it.
/// - **Horizon**: a cursor older than the change log keeps is `CURSOR_EXPIRED`: resync in full.
public final class SyncService: Sendable {
    /// Limits.
    public let configuration: SyncConfiguration
    /// The store and the change log.
    public let households: HouseholdService

    /// Creates the service and registers its reactions on the change log: joining a household is a
    /// scope gained, leaving it, being removed or its deletion a scope lost, for the member's account;
    /// the same for the household's shares of personal chores, whose chores' changes are recorded on
    /// their shares' topics too (``ShareSyncScopes``).
    public init(configuration: SyncConfiguration, households: HouseholdService) {
        self.configuration = configuration
        self.households = households
        Self.registerHouseholdScopes(on: households.changeLog)
        ShareSyncScopes.register(on: households.changeLog)
    }

    /// A page of `viewer`'s changes after `since` (a full resync when `nil`), at most `first`.
    /// - Throws: `BAD_USER_INPUT` for `first` outside 1…``SyncConfiguration/maximumChangesPerPage``
    ///   (`OUT_OF_RANGE`) or a cursor this stream did not give out (`INVALID_FORMAT` on `since`);
    ///   `CURSOR_EXPIRED` for a cursor older than the change log keeps.
    public func changes(since: String?, first: Int, viewer: Viewer) async throws -> SyncPage {
        let position = try cursor(since)
        guard (1...configuration.maximumChangesPerPage).contains(first) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "first", reason: .outOfRange, message: "Ask for 1 to \(configuration.maximumChangesPerPage) changes at once.")]))
        }
        let rowLimit = configuration.maximumRowsPerPage
        return try await households.pool.read { database in
            // A full resync starts at the newest row, or at the pruning watermark when retention
            // emptied the log (the watermark is then the newest sequence there ever was).
            let start = try position ?? .snapshot(max(ChangeLog.latestSequence(in: database), ChangeLog.prunedThrough(in: database)), id: nil)
            return try SyncReader(owner: OwnerScope(Owner(viewer), database), wanted: first + 1, rowLimit: rowLimit).page(from: start)
        }
    }

    /// The topics `viewer` reads now (``SyncScopes``): what a live feed of their changes listens to.
    public func scopes(of viewer: Viewer) async throws -> Set<Topic> {
        try await households.pool.read { database in try SyncScopes.current(OwnerScope(Owner(viewer), database)) }
    }

    /// Refuses text no cursor has, before a subscription starts.
    /// - Throws: `BAD_USER_INPUT` (`INVALID_FORMAT` on `since`).
    public func checkCursor(_ text: String?) throws {
        _ = try cursor(text)
    }

    /// The position `text` names, `nil` for none.
    /// - Throws: `BAD_USER_INPUT` (`INVALID_FORMAT` on `since`) for text no cursor has.
    func cursor(_ text: String?) throws -> SyncCursor? {
        guard let text else { return nil }
        guard let cursor = SyncCursor(text) else {
            throw ServiceError.invalid(InputProblems([FieldProblem(
                field: "since", reason: .invalidFormat, message: "This is not a cursor of `changes` or `syncDeltas`.")]))
        }
        return cursor
    }

    /// Records the household scopes members gain and lose, in the transaction of the change.
    private static func registerHouseholdScopes(on changeLog: ChangeLog) {
        changeLog.reactions.register([.householdCreated, .memberJoined]) { event, database in
            let change = try event.payload.decode(HouseholdChange.self)
            guard let userID = change.userID else { return }
            try SyncScopeChange.record(.syncScopeGained, scope: .household(change.householdID), for: userID, changeLog, in: database)
        }
        // An invitation revoked or declined is a `member.removed` without an account: nothing was seen.
        changeLog.reactions.register([.memberLeft, .memberRemoved]) { event, database in
            let change = try event.payload.decode(HouseholdChange.self)
            guard let userID = change.userID else { return }
            try SyncScopeChange.record(.syncScopeLost, scope: .household(change.householdID), for: userID, changeLog, in: database)
        }
    }
}
