import GraphQL
import HearthServices

/// Household screens as the JSON text the executor completed for them, kept between requests
/// while nothing commits: a repeated home screen, household switcher or household screen writes
/// its root field's text back instead of resolving and completing it again; where the root field
/// selects more than kept text may hold, the home screen's members list alone is kept.
///
/// - **Key**: the field's ``SelectionIdentity`` (operation, place, variables: everything of the
///   request that shapes the text) and the viewer's account (whose memberships, access and role
///   the text shows: `isViewer`, whether ages show).
/// - **Valid while**: the mark the household reads were served under (``HouseholdReadMark``,
///   taken before them) is the request's: nothing committed in between, from this process or
///   another.
/// - **Kept**: only text completed without errors (``CapturedValue``) whose selection reaches
///   nothing but fields made of those reads (``household``, ``members``: not a member's `user`
///   or `vacation`, a household's invitations, chores or tokens, which read other services or
///   depend on the clock), in an LRU bounded by entries and bytes. Without a mark (PostgreSQL,
///   or household reads not kept) nothing is kept.
final class HouseholdTextCache: Sendable {
    /// Which field, as whom.
    struct Key: Hashable, Sendable {
        let selection: SelectionIdentity
        let userID: String
    }

    /// Kept text and the mark it was made under.
    struct Entry: Sendable {
        let mark: HouseholdReadMark
        let text: SerializedValue
    }

    /// The fields below `Household.members` that kept text may select.
    static let members = FieldAllowlist(memberFields)

    /// The fields below a root `Household` field (`activeHousehold`, `household`, `households`)
    /// that kept text may select: the household's row, the viewer's membership, the members
    /// list, the economy and the setup checklist.
    static let household = FieldAllowlist(memberFields.merging([
        "Household": [
            "id", "name", "emoji", "locationLabel", "timeZone", "isActive", "viewerMember", "members", "economy", "onboarding",
            "createdAt", "updatedAt",
        ],
        "EconomySettings": ["currencyPerToken", "currencyCode", "earningsSplit", "minimumCurrencyPerToken", "maximumCurrencyPerToken"],
        "OnboardingChecklist": ["steps", "nextStep", "isComplete", "completedAt", "firstChoreCompletedAt", "isDismissed"],
        "OnboardingStepStatus": ["step", "index", "isRequired", "state", "completedAt", "skippedAt", "visitCount"],
    ]) { _, new in new })

    private static let memberFields: [String: Set<String>] = [
        "MemberConnection": ["edges", "pageInfo", "totalCount"],
        "MemberEdge": ["cursor", "node"],
        "PageInfo": ["hasNextPage", "hasPreviousPage", "startCursor", "endCursor"],
        "Member": ["id", "kind", "role", "status", "displayName", "age", "isViewer", "joinedAt", "departedAt"],
    ]

    /// Bytes counted per entry beyond its text (the key, the LRU's bookkeeping), roughly.
    static let entryOverhead = 256

    private let entries: LRUCache<Key, Entry>

    /// An empty cache of at most `entries` texts and `bytes` of text (either 0: none).
    init(entries: Int, bytes: Int) {
        self.entries = LRUCache(capacity: bytes > 0 ? entries : 0, maxCost: bytes)
    }

    /// The value of the field `info` for `userID`: its kept text while `mark` is the one it was
    /// made under; otherwise `build`'s value, captured for the next request when the selection
    /// is one `allowlist` covers. `build` is told whether its value's text is kept (then nothing
    /// below it need be kept apart).
    func resolve(
        _ info: ResolveInfo, userID: String, mark: HouseholdReadMark?, by allowlist: FieldAllowlist,
        build: (_ isKept: Bool) async throws -> Any?
    ) async throws -> Any? {
        guard let mark, entries.capacity > 0, allowlist.covers(info) else { return try await build(false) }
        let key = Key(selection: info.selectionIdentity, userID: userID)
        if let kept = entries.value(for: key), kept.mark == mark { return kept.text }
        let entries = entries
        return CapturedValue(try await build(true)) { text in
            entries.insert(Entry(mark: mark, text: text), for: key, cost: text.byteCount + Self.entryOverhead)
        }
    }
}
