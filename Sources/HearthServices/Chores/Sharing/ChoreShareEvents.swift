extension EventKind {
    /// An owner shared personal chores (FR-40, FR-41), on their topic.
    public static let choreShareCreated: EventKind = "chore_share.created"
    /// A recipient accepted or declined a share (or stopped following it), on the owner's topic.
    public static let choreShareAnswered: EventKind = "chore_share.answered"
    /// A share ended, on its owner's topic: they revoked it (FR-42), or it went with its tag or its
    /// household. Subscriptions to it end at once.
    public static let choreShareRevoked: EventKind = "chore_share.revoked"
}

/// The payload of share events: which share, whose, and with which household (for a household's).
public struct ChoreShareChange: Codable, Sendable, Equatable {
    /// The share.
    public var shareID: String
    /// Its owner.
    public var userID: String
    /// The household it is with, for a household's share.
    public var householdID: String?

    /// Creates a payload.
    public init(shareID: String, userID: String, householdID: String? = nil) {
        self.shareID = shareID
        self.userID = userID
        self.householdID = householdID
    }
}

extension ChoreShareChange: ChangeSubjects {
    /// The share.
    public var touchedObjectIDs: [String] { [shareID] }
}
