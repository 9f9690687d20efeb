import FoundationEssentials
import HearthDomain
import HearthStore

/// A notice as stored for its user (`notifications`, migrations 0031 and 0036), with what became of it.
public struct NotificationRecord: Sendable, Hashable {
    /// The notice.
    public var notice: Notice
    /// Why a reminder was not delivered (quiet hours or busy time lasted until the chore was due); `nil` when delivered.
    public var skippedReason: SkipReason?
    /// Why a reminder was delivered later than planned (quiet hours, busy time); `nil` when on time or skipped.
    public var delayReason: SkipReason?
    /// When a delayed or skipped reminder was planned to fire; `nil` for one delivered on time and other notices.
    public var originalTime: Date?
    /// When the user marked it read.
    public var readAt: Date?
    /// When it was withdrawn (someone else claimed the instance, FR-52; the user switched active household, FR-11).
    public var dismissedAt: Date?

    /// What held a reminder back (``ReminderDeferral``).
    public typealias SkipReason = ReminderDeferral.Cause

    /// What became of a notice.
    public enum DeliveryOutcome: String, Sendable, Hashable {
        /// Delivered when it was made for (a reminder: at its planned time).
        case delivered
        /// Delivered later than planned: ``delayReason`` says why, ``originalTime`` when it was planned.
        case delayed
        /// Recorded, never delivered: ``skippedReason`` says why.
        case skipped
    }

    /// What became of it.
    public var deliveryOutcome: DeliveryOutcome {
        skippedReason != nil ? .skipped : delayReason != nil ? .delayed : .delivered
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
        "id", "user_id", "household_id", "kind", "title", "body", "chore_id", "instance_id", "habit_id", "due_at", "tag", "skipped_reason",
        "delay_reason", "original_time", "created_at", "read_at", "dismissed_at")

    /// Reads a stored notification from `row` (``columns``).
    init(row: Row) throws {
        notice = Notice(
            id: try row["id"], userID: try row["user_id"], kind: NoticeKind(rawValue: try row["kind"]) ?? .reminder, title: try row["title"],
            body: try row["body"], dueAt: try row["due_at"], householdID: try row["household_id"], choreID: try row["chore_id"],
            instanceID: try row["instance_id"], habitID: try row["habit_id"], tag: try row["tag"], createdAt: try row["created_at"])
        skippedReason = (try row["skipped_reason"] as String?).flatMap(SkipReason.init(rawValue:))
        delayReason = (try row["delay_reason"] as String?).flatMap(SkipReason.init(rawValue:))
        originalTime = try row["original_time"]
        readAt = try row["read_at"]
        dismissedAt = try row["dismissed_at"]
    }
}
