import FoundationEssentials
import HearthStore

/// A notice as stored for its user (`notifications`, migration 0031), with what became of it.
public struct NotificationRecord: Sendable, Hashable {
    /// The notice.
    public var notice: Notice
    /// Why a reminder was not delivered (it fell in quiet hours too close to the due time); `nil` when delivered.
    public var skippedReason: SkipReason?
    /// When the user marked it read.
    public var readAt: Date?
    /// When it was withdrawn (someone else claimed the instance, FR-52).
    public var dismissedAt: Date?

    /// Why a notice was recorded without being delivered.
    public enum SkipReason: String, Sendable, Hashable, Codable {
        /// The reminder fell in the user's quiet hours, which end after the chore is due.
        case quietHours = "quiet_hours"
    }

    /// A record of `notice` with what became of it.
    public init(notice: Notice, skippedReason: SkipReason? = nil, readAt: Date? = nil, dismissedAt: Date? = nil) {
        self.notice = notice
        self.skippedReason = skippedReason
        self.readAt = readAt
        self.dismissedAt = dismissedAt
    }

    /// The columns ``init(row:)`` reads.
    static let columns = RecordColumns(
        "id", "user_id", "household_id", "kind", "title", "body", "chore_id", "instance_id", "due_at", "tag", "skipped_reason", "created_at",
        "read_at", "dismissed_at")

    /// Reads a stored notification from `row` (``columns``).
    init(row: Row) throws {
        notice = Notice(
            id: try row["id"], userID: try row["user_id"], kind: NoticeKind(rawValue: try row["kind"]) ?? .reminder, title: try row["title"],
            body: try row["body"], dueAt: try row["due_at"], householdID: try row["household_id"], choreID: try row["chore_id"],
            instanceID: try row["instance_id"], tag: try row["tag"], createdAt: try row["created_at"])
        skippedReason = (try row["skipped_reason"] as String?).flatMap(SkipReason.init(rawValue:))
        readAt = try row["read_at"]
        dismissedAt = try row["dismissed_at"]
    }
}
