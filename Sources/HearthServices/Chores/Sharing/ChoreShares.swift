import HearthStore

/// Who sees which personal chores of someone else (FR-40 – FR-42): the one rule every read of
/// shared chores applies, written once in SQL so a lookup by id, a list and a subscription's check
/// cannot disagree.
///
/// A share (`chore_shares`, migration 0021) reaches an account when it is accepted and either
/// names that account (a share with a user, accepted by them) or names a household of which both
/// the account and the share's owner are active members (a share with a household: its current
/// members at once, later ones when they join, none once they leave or the owner does). It covers
/// the chores it names (`chore_share_chores`) or, for a tag share, every personal chore of the
/// owner carrying the tag when it is read (a chore tagged later is covered then; untagged, it is
/// not). A deleted chore is covered by nothing.
///
/// The fragments are conditions written with `{owner}` standing for the *viewer* (the recipient),
/// so the statements using them run under the viewer's ``OwnerScope``: the shares are reached
/// through the viewer's account and memberships, as `nodes` reaches their households' rows. Each
/// statement also writes `c.user_id <> {owner}` itself: the viewer's own chores are theirs, not
/// shared with them.
enum ChoreShares {
    /// A condition on a share `s`: it reaches the viewer `{owner}`.
    static let reachesViewer = """
        s.status = 'accepted' AND (s.recipient_user_id = {owner} OR (
            s.recipient_household_id IN (SELECT m.household_id FROM members m WHERE m.user_id = {owner} AND m.status = 'active')
            AND s.recipient_household_id IN (SELECT o.household_id FROM members o WHERE o.user_id = s.user_id AND o.status = 'active')))
        """

    /// A condition on a share `s` and a chore `c` of its owner: the share covers the chore.
    static let coversChore = """
        (EXISTS (SELECT 1 FROM chore_share_chores sc WHERE sc.share_id = s.id AND sc.chore_id = c.id)
            OR EXISTS (SELECT 1 FROM chore_tags ct WHERE ct.chore_id = c.id AND ct.tag_id = s.tag_id))
        """

    /// A condition on a chore `c`: a personal chore, not deleted, covered by a share that reaches
    /// the viewer `{owner}`.
    static let sharedWithViewer = """
        c.user_id IS NOT NULL AND c.deleted_at IS NULL
        AND EXISTS (SELECT 1 FROM chore_shares s WHERE s.user_id = c.user_id AND \(reachesViewer) AND \(coversChore))
        """

    /// The ids of the chores shared with the viewer `{owner}` (a subquery).
    static let sharedChoreIDs = "SELECT c.id FROM chores c WHERE c.user_id <> {owner} AND \(sharedWithViewer)"

    /// Whether chore `choreID` is another user's personal chore shared with `viewer` now.
    static func isShared(choreID: String, with viewer: Viewer, in database: Database) throws -> Bool {
        try OwnerScope(Owner(viewer), database).scalar(
            Bool.self, "SELECT EXISTS (SELECT 1 FROM chores c WHERE c.id = ? AND c.user_id <> {owner} AND \(sharedWithViewer))", [choreID]) ?? false
    }

    /// Whether chore `choreID` is covered by share `shareID` and that share reaches `viewer` now:
    /// what a subscription to one share checks for each event. A deleted chore counts only
    /// `includingDeleted` (the event of its deletion).
    static func isShared(
        choreID: String, through shareID: String, with viewer: Viewer, includingDeleted: Bool = false, in database: Database
    ) throws -> Bool {
        try OwnerScope(Owner(viewer), database).scalar(
            Bool.self,
            """
            SELECT EXISTS (SELECT 1 FROM chores c JOIN chore_shares s ON s.user_id = c.user_id
                WHERE c.id = ? AND s.id = ? AND (? OR c.deleted_at IS NULL) AND c.user_id <> {owner} AND \(reachesViewer) AND \(coversChore))
            """,
            [choreID, shareID, includingDeleted]) ?? false
    }
}
