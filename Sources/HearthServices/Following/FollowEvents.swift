extension EventKind {
    /// Someone asked to follow a user (US 05): on both users' topics.
    public static let followRequested: EventKind = "follow.requested"
    /// A user accepted a follow request: on both users' topics.
    public static let followAccepted: EventKind = "follow.accepted"
    /// A user declined a follow request: on both users' topics.
    public static let followDeclined: EventKind = "follow.declined"
    /// A follower unfollowed, or withdrew their request: on both users' topics.
    public static let followCancelled: EventKind = "follow.cancelled"
    /// A user removed one of their followers: on both users' topics.
    public static let followRemoved: EventKind = "follow.removed"
}

/// The payload of follow events: which follow, between whom.
public struct FollowChange: Codable, Sendable, Equatable {
    /// The follow (`fol_…`); gone for every kind but requested and accepted.
    public var followID: String
    /// Who follows (or asked to).
    public var followerID: String
    /// Who is followed (or asked).
    public var followedID: String

    /// Creates a payload.
    public init(followID: String, followerID: String, followedID: String) {
        self.followID = followID
        self.followerID = followerID
        self.followedID = followedID
    }
}

extension FollowChange: ChangeSubjects {
    /// The follow.
    public var touchedObjectIDs: [String] { [followID] }
}
