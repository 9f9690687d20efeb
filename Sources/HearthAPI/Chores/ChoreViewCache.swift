import FoundationEssentials
import GraphQL
import HearthServices

/// The limits of a ``ChoreViewCache``.
public struct ChoreViewCacheLimits: Sendable, Hashable {
    /// The most lists kept; 0 turns the cache off.
    public var entries: Int
    /// The most bytes of list text (plus a fixed estimate per entry) kept; 0 turns the cache off.
    public var bytes: Int

    /// Creates the limits; the defaults hold the home-screen lists of a few thousand users.
    public init(entries: Int = 4_096, bytes: Int = 64 << 20) {
        self.entries = entries
        self.bytes = bytes
    }
}

/// The chore lists (`myChores`, `householdChores`, `personalChores`) as the JSON text the
/// executor completed for them, kept between requests and written back as long as nothing they
/// depend on changed: a repeated read of an unchanged list costs one look at the store's commits
/// (``ChoreViewMark``) while nothing committed, else its access check and one change-log lookup
/// per scope (``ChoreViewStamp``), never the list's reads and execution.
///
/// - **Key**: the field's ``SelectionIdentity`` (operation, place, variables: everything of the
///   request that shapes the text) and the viewer's account (everything the resolvers below read
///   of the request context: they see the viewer's households as that member).
/// - **Valid while**: the clock is before the time the list changes by itself
///   (``InstancePage/changesAt``), and either nothing committed to the store since the mark kept
///   with the list, or the stamp read with the access check equals the one read before the list
///   was built (no change recorded on any of its scopes' topics since, no membership or role
///   change). The mark is taken before the stamp and the stamp before the list, so a write
///   committing while it is built makes the next read rebuild it; a list found current by its
///   stamp keeps the newer mark.
/// - **Kept**: only a list completed without errors (``CapturedValue``), in an LRU bounded by
///   entries and bytes (``ChoreViewCacheLimits``).
///
/// With several server processes on one database (PostgreSQL, later) nothing changes: each
/// process keeps its own entries, and the stamps come from the shared store.
public final class ChoreViewCache: Sendable {
    /// Which list, as whom.
    public struct Key: Hashable, Sendable {
        let selection: SelectionIdentity
        let userID: String
    }

    /// A kept list.
    public struct Entry: Sendable {
        let stamp: ChoreViewStamp
        /// The mark taken before `stamp` was read, or before a later stamp found the list current.
        let mark: ChoreViewMark
        let validUntil: Date?
        let text: SerializedValue

        /// Whether the clock's `time` is before the list changes by itself.
        func isCurrent(at time: Date) -> Bool {
            validUntil.map { time < $0 } ?? true
        }
    }

    /// Bytes counted per entry beyond its text: the key (operation reference, path, variables),
    /// the stamp and the LRU's bookkeeping, roughly.
    static let entryOverhead = 512

    /// What a kept list of `textBytes` counts against the byte limit: its text; as much again
    /// for the response made of it when it is asked for alone, kept with it (the HTTP
    /// transport's `ReusableBody`); a quarter of that for the response's gzip encoding (JSON
    /// lists compress to well under that); and ``entryOverhead``.
    static func cost(ofText textBytes: Int) -> Int {
        2 * textBytes + textBytes / 4 + entryOverhead
    }

    private let entries: LRUCache<Key, Entry>

    /// An empty cache within `limits`.
    public init(limits: ChoreViewCacheLimits) {
        entries = LRUCache(capacity: limits.bytes > 0 ? limits.entries : 0, maxCost: limits.bytes)
    }

    /// Hits, misses, evictions and what is held (entries, bytes counted), for `/metrics` and tests.
    public var statistics: LRUCache<Key, Entry>.Statistics { entries.statistics }

    /// The list `info` resolves for `viewer`: its kept text while nothing committed since its
    /// mark, or when `stamp` (read now, with the access check) matches; otherwise what `build`
    /// returns, captured for the next request.
    /// - Parameters:
    ///   - mark: taken now, before `stamp` is called.
    ///   - stamp: reads the list's stamp with the access check, called only when `mark` does not
    ///     settle it.
    ///   - build: the list's value and when it changes by time alone.
    func resolve(
        _ info: ResolveInfo, viewer: Viewer, mark: ChoreViewMark, stamp: () async throws -> ChoreViewStamp,
        build: () async throws -> (value: Any?, changesAt: Date?)
    ) async throws -> Any? {
        let key = Key(selection: info.selectionIdentity, userID: viewer.userID)
        let kept = entries.value(for: key)
        if let kept, mark.isUnchanged(since: kept.mark), kept.isCurrent(at: mark.readAt) {
            return kept.text
        }
        let stamp = try await stamp()
        if let kept, kept.stamp == stamp, kept.isCurrent(at: stamp.readAt) {
            entries.insert(
                Entry(stamp: stamp, mark: mark, validUntil: kept.validUntil, text: kept.text), for: key,
                cost: Self.cost(ofText: kept.text.byteCount))
            return kept.text
        }
        let (value, changesAt) = try await build()
        let entries = entries
        return CapturedValue(value) { text in
            entries.insert(Entry(stamp: stamp, mark: mark, validUntil: changesAt, text: text), for: key, cost: Self.cost(ofText: text.byteCount))
        }
    }
}
