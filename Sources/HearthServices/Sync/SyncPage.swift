/// One page of a user's changes (`changes(since:first:)`): the objects to read again, in stream
/// order, and where to continue.
public struct SyncPage: Sendable {
    /// One object that changed, at its place in the stream.
    public struct Entry: Sendable, Hashable {
        /// The position just after this entry: resuming there continues with the next one.
        public var cursor: SyncCursor
        /// The object's global id. Whether it is an upsert or a tombstone is decided by looking it
        /// up for the reader as `node(id:)` does.
        public var objectID: String
    }

    /// The changed objects, each id once, oldest first: at its last place in the page, and not at
    /// all when a row the page fetched ahead touches it again (a later page sends it).
    public var entries: [Entry]
    /// Where the next page starts; equal to the cursor asked for when nothing changed.
    public var endCursor: SyncCursor
    /// Whether more changes follow `endCursor` now.
    public var hasMore: Bool
    /// The reader's scopes (``SyncScopes/current(_:)``), read in the same transaction as the page: what a
    /// live follower listens to until a page says they changed.
    public var scopes: Set<Topic>
}
