import FoundationEssentials
import HearthStore

/// The cheap check before a kept chore list's ``ChoreViewStamp``: the store's mark of its
/// commits (``ChangeMark``) and the clock's time. While the mark equals the one taken before a
/// list's stamp was read, nothing at all committed since, so neither the stamp nor the list can
/// have changed, and the list is current without reading the stamp; only time can have moved it
/// (``InstancePage/changesAt``). When the marks differ, something committed somewhere, maybe in
/// another household: the stamp says whether it touched the list.
///
/// SQLite answers with one `PRAGMA data_version`, which sees the commits of every connection and
/// process on the file; PostgreSQL answers no mark (its other processes' commits reach this one
/// late), and every check reads the stamp.
public struct ChoreViewMark: Sendable {
    /// The store's mark; `nil` when it gives none.
    let change: ChangeMark?
    /// The service clock when the mark was taken.
    public let readAt: Date

    /// Whether nothing committed between `earlier` and this mark: both have a store mark, and
    /// they are equal.
    public func isUnchanged(since earlier: ChoreViewMark) -> Bool {
        change != nil && change == earlier.change
    }
}

extension ChoreService {
    /// The mark to take before a chore list's stamp (``ChoreViewMark``).
    /// - Throws: `StoreError`.
    public func viewMark() async throws -> ChoreViewMark {
        let now = households.clock.now
        return ChoreViewMark(change: try await pool.changeMark(), readAt: now)
    }
}
