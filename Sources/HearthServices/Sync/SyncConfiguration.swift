/// Limits of offline sync (`changes`, `syncDeltas`). Read once at start from flags and environment
/// (HearthApp's `ServeSettings`) and passed down.
public struct SyncConfiguration: Sendable {
    /// The most changes one page of `changes` holds (its `first`); one more is `BAD_USER_INPUT`
    /// (`OUT_OF_RANGE`).
    public var maximumChangesPerPage = 500
    /// The most change-log rows one page reads past: a page that reads this many rows touching
    /// nothing the reader's stream shows ends early, with `hasMore`, so one request stays bounded.
    public var maximumRowsPerPage = 5_000

    /// The defaults.
    public init() {}
}
