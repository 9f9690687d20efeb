import HearthStore

extension EventKind {
    /// A user began to see a scope (``SyncScopeChange``), on their own topic: they joined a
    /// household, or a follow of theirs was accepted. Offline sync answers it with every object of
    /// the scope as an upsert.
    public static let syncScopeGained: EventKind = "sync.scope_gained"
    /// A user stopped seeing a scope, on their own topic: they left or were removed from a
    /// household, it was deleted, or their follow ended. The row touches every object of the
    /// scope at the loss; offline sync answers it with a tombstone for each they can no longer see.
    public static let syncScopeLost: EventKind = "sync.scope_lost"
}

/// The payload of ``EventKind/syncScopeGained`` and ``EventKind/syncScopeLost``: whose view
/// changed, and the change-log topic (`household:<id>`, `followers:<id>`) now seen or lost.
public struct SyncScopeChange: Codable, Sendable, Equatable {
    /// The user whose view changed.
    public var userID: String
    /// The scope's topic key.
    public var scope: String

    /// Creates a payload.
    public init(userID: String, scope: Topic) {
        self.userID = userID
        self.scope = scope.key
    }

    /// Records that `userID` gained (``EventKind/syncScopeGained``) or lost
    /// (``EventKind/syncScopeLost``) `scope`, on their own topic, in the caller's transaction.
    ///
    /// A loss lists, as the objects its row touched, every object of the scope at that moment
    /// (``SyncScopes/objects(in:after:limit:in:)``): what the user could have seen, and so all
    /// they get tombstones for. An object made in the scope after the loss was never theirs to
    /// see, not even its id. A gain lists nothing: the reader expands it to the scope's objects
    /// as they are when read.
    static func record(_ kind: EventKind, scope: Topic, for userID: String, _ changeLog: ChangeLog, in database: Database) throws {
        let seen = kind == .syncScopeLost ? try SyncScopes.objects(in: [scope], after: nil, limit: Int.max, in: database) : []
        try changeLog.record(
            topic: .user(userID), kind: kind, payload: SyncScopeChange(userID: userID, scope: scope), touching: seen, in: database)
    }
}
