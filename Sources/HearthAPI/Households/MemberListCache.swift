import GraphQL
import HearthServices

/// The members lists of household screens (`Household.members`) as the JSON text the executor
/// completed for them, kept between requests while nothing commits: a repeated home screen
/// writes its members list back instead of completing each member's fields again.
///
/// - **Key**: the field's ``SelectionIdentity`` (operation, place, variables: everything of the
///   request that shapes the text) and the viewer's account (the page is the household's, but
///   `isViewer`, and whether ages show, are the viewer's).
/// - **Valid while**: the mark the household and the page were served under
///   (``HouseholdReadMark``, nothing committed in between) is the request's.
/// - **Kept**: only a list completed without errors whose selection reaches nothing but stored
///   rows (``plain``: not `user`, `household` or `vacation` of a member, which read other
///   services or the clock), in an LRU bounded by entries and bytes. Without a mark (PostgreSQL,
///   or household reads not kept) nothing is kept.
final class MemberListCache: Sendable {
    /// Which list, as whom.
    struct Key: Hashable, Sendable {
        let selection: SelectionIdentity
        let userID: String
    }

    /// A kept list and the mark it was made under.
    struct Entry: Sendable {
        let mark: HouseholdReadMark
        let text: SerializedValue
    }

    /// The fields a kept list may select.
    static let plain = FieldAllowlist([
        "MemberConnection": ["edges", "pageInfo", "totalCount"],
        "MemberEdge": ["cursor", "node"],
        "PageInfo": ["hasNextPage", "hasPreviousPage", "startCursor", "endCursor"],
        "Member": ["id", "kind", "role", "status", "displayName", "age", "isViewer", "joinedAt", "departedAt"],
    ])

    /// Bytes counted per entry beyond its text (the key, the LRU's bookkeeping), roughly.
    static let entryOverhead = 256

    private let entries: LRUCache<Key, Entry>

    /// An empty cache of at most `entries` lists and `bytes` of their text (either 0: none).
    init(entries: Int, bytes: Int) {
        self.entries = LRUCache(capacity: bytes > 0 ? entries : 0, maxCost: bytes)
    }

    /// The members list `info` resolves for the viewer of `access`: its kept text while `mark`
    /// is the one it was made under; otherwise `build()`'s value, captured for the next request
    /// when the selection is plain.
    func resolve(_ info: ResolveInfo, access: HouseholdAccess, mark: HouseholdReadMark?, build: () -> Any?) -> Any? {
        guard let mark, entries.capacity > 0, Self.plain.covers(info) else { return build() }
        let key = Key(selection: info.selectionIdentity, userID: access.userID)
        if let kept = entries.value(for: key), kept.mark == mark { return kept.text }
        let entries = entries
        return CapturedValue(build()) { text in
            entries.insert(Entry(mark: mark, text: text), for: key, cost: text.byteCount + Self.entryOverhead)
        }
    }
}
