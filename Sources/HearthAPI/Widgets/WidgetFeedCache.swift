import HearthServices

/// The widget feeds' documents kept between polls, one per account, so a widget asking again for
/// an unchanged feed (most polls: `If-None-Match` answered 304) costs the feed's stamp (its time
/// zone, active household and one change-log lookup per scope: ``WidgetFeedStamp``) instead of the
/// feed's reads, its links' signatures and its serialization.
///
/// - **Valid while** the stamp read now equals the one the kept feed was read at: the same day,
///   zone and scopes, and no change recorded on their topics since. The feed reads its stamp in
///   the same transaction as its rows, so a write committing meanwhile makes the next poll read
///   it again.
/// - **Bounded** like the chore lists' cache (`--chore-view-cache` entries, `--chore-view-cache-bytes`
///   of documents plus 512 bytes each), least recently used evicted; 0 reads every feed afresh.
public final class WidgetFeedCache: Sendable {
    /// A kept document and what it was read at.
    struct Entry: Sendable {
        let stamp: WidgetFeedStamp
        let document: WidgetFeedDocument
    }

    /// Bytes counted per entry beyond its document: the key, the stamp, the LRU's bookkeeping.
    static let entryOverhead = 512

    private let entries: LRUCache<String, Entry>
    /// The feeds.
    public let widgets: WidgetService

    /// An empty cache of `widgets`' feeds within `limits`.
    public init(widgets: WidgetService, limits: ChoreViewCacheLimits) {
        self.widgets = widgets
        entries = LRUCache(capacity: limits.bytes > 0 ? limits.entries : 0, maxCost: limits.bytes)
    }

    /// The viewer's feed as a document: the kept one while its stamp holds, else read afresh (and kept).
    func document(viewer: Viewer) async throws -> WidgetFeedDocument {
        if let kept = entries.value(for: viewer.userID), try await widgets.feedStamp(viewer: viewer) == kept.stamp {
            return kept.document
        }
        let feed = try await widgets.feed(viewer: viewer)
        let document = WidgetFeedDocument(feed)
        entries.insert(Entry(stamp: feed.stamp, document: document), for: viewer.userID, cost: document.body.count + Self.entryOverhead)
        return document
    }
}
