import GraphQL
import HearthServices

/// Household screens as the JSON text the executor completed for them, kept between requests:
/// a repeated home screen, household switcher or household screen writes its root field's text
/// back instead of resolving and completing it again; where the root field selects more than
/// kept text may hold, the home screen's members list alone is kept.
///
/// - **Key**: the field's ``SelectionIdentity`` (operation, place, variables: everything of the
///   request that shapes the text) and the viewer's account (whose memberships, access and role
///   the text shows: `isViewer`, whether ages show).
/// - **Valid while** the mark the household reads were served under (``HouseholdReadMark``,
///   taken before them) is the request's: nothing committed in between, from this process or
///   another. The text is written back without a read.
/// - **And after a commit, while its inputs are the same**: a root field's text made of nothing
///   but what the root field read (``HouseholdValue/Inputs``: the household's row, the viewer's
///   access, whether it is active, the page of members and the checklist read with it) stays
///   right while a new read under the later mark returns equal inputs: the same selection of the
///   same inputs completes to the same text. Most commits (a chore done, another household's
///   change, a rename of a member the screen does not list) leave a screen's inputs as they
///   were, so the screen costs its reads and not its completion. A text one of whose fields read
///   more (``HouseholdValue/noteReadBeyondInputs()``: a members page or checklist the root did
///   not read, whether a household is active) is kept under its mark alone.
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

    /// What a root field's values were made of, in order.
    typealias Inputs = [HouseholdValue.Inputs]

    /// Kept text, the mark it was made (or last found the same) under, and its inputs when it is
    /// made of them alone.
    struct Entry: Sendable {
        let mark: HouseholdReadMark
        let text: SerializedValue
        let inputs: Inputs?
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

    /// The value of the root field `info` for `userID`, made of the `households` in what `read`
    /// returns: its kept text while `mark` is the one it was made under, or while `read` returns
    /// the same inputs; otherwise what `read` returned, captured for the next request when the
    /// selection is one `allowlist` covers. `read` is told whether the text is kept (then
    /// nothing below it need be kept apart).
    func resolve<Read>(
        _ info: ResolveInfo, userID: String, mark: HouseholdReadMark?, by allowlist: FieldAllowlist,
        read: (_ isKept: Bool) async throws -> Read, households: (Read) -> [HouseholdValue]
    ) async throws -> Any? {
        try await resolve(info, userID: userID, mark: mark, by: allowlist) { isKept in
            let fresh = try await read(isKept)
            let values = households(fresh)
            return Made(value: fresh) { Self.inputs(of: values) }
        }
    }

    /// The value of the field `info` for `userID`: its kept text while `mark` is the one it was
    /// made under; otherwise `build`'s value, captured for the next request when the selection
    /// is one `allowlist` covers.
    func resolve(
        _ info: ResolveInfo, userID: String, mark: HouseholdReadMark?, by allowlist: FieldAllowlist,
        build: () async throws -> Any?
    ) async throws -> Any? {
        try await resolve(info, userID: userID, mark: mark, by: allowlist) { _ in Made(value: try await build()) { nil } }
    }

    /// A field's value as read, and what it is made of.
    private struct Made {
        let value: Any?
        /// The inputs of ``value``, `nil` when it is made of more: asked before the value is
        /// completed and again after (then every field's ``HouseholdValue/noteReadBeyondInputs()``
        /// has been told).
        let inputs: @Sendable () -> Inputs?
    }

    /// Both: the kept text while the mark or the inputs `read` returns are the same; otherwise
    /// the value read, captured to keep.
    private func resolve(
        _ info: ResolveInfo, userID: String, mark: HouseholdReadMark?, by allowlist: FieldAllowlist,
        read: (_ isKept: Bool) async throws -> Made
    ) async throws -> Any? {
        guard let mark, entries.capacity > 0, allowlist.covers(info) else { return try await read(false).value }
        let key = Key(selection: info.selectionIdentity, userID: userID)
        let kept = entries.value(for: key)
        if let kept, kept.mark == mark { return kept.text }
        let fresh = try await read(true)
        let entries = entries
        if let kept, let keptInputs = kept.inputs, fresh.inputs() == keptInputs {
            entries.insert(Entry(mark: mark, text: kept.text, inputs: keptInputs), for: key, cost: Self.cost(kept.text, keptInputs))
            return kept.text
        }
        let inputs = fresh.inputs
        return CapturedValue(fresh.value) { text in
            let made = inputs()
            entries.insert(Entry(mark: mark, text: text, inputs: made), for: key, cost: Self.cost(text, made))
        }
    }

    /// The inputs of `households`, `nil` when one of them was made of more.
    private static func inputs(of households: [HouseholdValue]) -> Inputs? {
        var inputs: Inputs = []
        inputs.reserveCapacity(households.count)
        for household in households {
            guard let made = household.inputs else { return nil }
            inputs.append(made)
        }
        return inputs
    }

    /// What an entry counts against the bytes kept: its text, its bookkeeping, and the pages of
    /// members among its inputs (shared with the kept reads until a commit ends those).
    private static func cost(_ text: SerializedValue, _ inputs: Inputs?) -> Int {
        text.byteCount + entryOverhead + (inputs ?? []).reduce(0) { $0 + ($1.members?.retainedBytes ?? 0) }
    }
}
