import FoundationEssentials
import HearthStore

/// Where a share stands (FR-40 – FR-42).
public enum ChoreShareStatus: String, Sendable, CaseIterable {
    /// A share with an account, waiting for its recipient's answer.
    case pending
    /// Reaching its recipient: accepted by the account, or a household's (accepted when made).
    case accepted
    /// Declined by its recipient (or left by them after accepting); the owner may revoke it.
    case declined
}

/// A share of personal chores as its owner or a recipient sees it: the row (migration 0021) with
/// the names that go with it (the owner's display name, the tag's, the accepting account's).
public struct ChoreShareRecord: Sendable, Hashable {
    /// The share's id (`shr_…`).
    public var id: String
    /// The account whose personal chores it shares.
    public var ownerID: String
    /// The owner's display name, shown to recipients.
    public var ownerName: String
    /// For a tag share: the tag; every personal chore of the owner carrying it is shared.
    public var tagID: String?
    /// The tag's name.
    public var tagName: String?
    /// For a share with an account: the address it was sent to (shown to the owner only).
    public var recipientEmail: String?
    /// The account that accepted it.
    public var recipientUserID: String?
    /// That account's display name.
    public var recipientName: String?
    /// For a share with a household: the household.
    public var recipientHouseholdID: String?
    /// Where it stands.
    public var status: ChoreShareStatus
    /// When the owner made it.
    public var createdAt: Date
    /// When its recipient accepted or declined it (a household's: when made).
    public var answeredAt: Date?

    /// The columns ``init(row:)`` reads, from `chore_shares s` joined with its owner `o`, tag `t`
    /// and recipient `r` (``ChoreService/shares(where:_:suffix:viewer:in:)``).
    static let columns = """
        s.id, s.user_id, o.display_name AS owner_name, s.tag_id, t.name AS tag_name, s.recipient_email, s.recipient_user_id,
        r.display_name AS recipient_name, s.recipient_household_id, s.status, s.created_at, s.answered_at
        """

    /// Reads a share from a row of ``columns``.
    init(row: Row) throws {
        id = try row["id"]
        ownerID = try row["user_id"]
        ownerName = try row["owner_name"]
        tagID = try row["tag_id"]
        tagName = try row["tag_name"]
        recipientEmail = try row["recipient_email"]
        recipientUserID = try row["recipient_user_id"]
        recipientName = try row["recipient_name"]
        recipientHouseholdID = try row["recipient_household_id"]
        status = ChoreShareStatus(rawValue: try row["status"]) ?? .pending
        createdAt = try row["created_at"]
        answeredAt = try row["answered_at"]
    }

    /// Whether `viewer` owns it.
    public func isOwned(by viewer: Viewer) -> Bool { ownerID == viewer.userID }
}
