/// Who may see a user's habits and habit events: the one rule every habit read applies, kept here
/// so the habit, event, history, feed, map and "within 5 km" queries cannot drift apart.
///
/// A viewer sees a habit (and its events) when they own it, or when its visibility is
/// 'followers' and the viewer's follow of its owner has been accepted. Nothing else of the owner's
/// account (email, households) is ever shown through a follow. Anything a viewer may not see is
/// answered as if it did not exist (`NOT_FOUND`), so ids of other people's objects reveal nothing.
enum HabitAudience {
    /// An SQL condition that is true when the habit aliased `habits` may be seen by the viewer
    /// bound to the two `?` placeholders (pass the viewer's user id twice), for the one statement
    /// built outside an ``OwnerScope`` (the "within 5 km" query, ``HabitEventsNear``).
    static let habitVisibleToViewer = "(habits.user_id = ? OR \(followedBy("?")))"

    /// The same rule for statements run under the viewer's ``OwnerScope``, where `{owner}` is the
    /// viewer: the statement writes `(habits.user_id = {owner} OR \(followedByScopeOwner))` itself,
    /// so the scope it runs under shows in its text (as ``ChoreShares``' statements write
    /// `c.user_id <> {owner}`), and this is the rest of the rule.
    static let followedByScopeOwner = followedBy(Owner.marker)

    /// The habits other people let `viewer` (an SQL expression) see: not private, and their owner
    /// accepted the viewer's follow.
    private static func followedBy(_ viewer: String) -> String {
        """
        (habits.visibility = 'followers' AND EXISTS (
            SELECT 1 FROM follows
            WHERE follows.follower_id = \(viewer) AND follows.followed_id = habits.user_id AND follows.status = 'accepted'))
        """
    }
}
