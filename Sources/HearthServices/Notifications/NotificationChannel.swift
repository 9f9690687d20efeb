import HearthStore

/// A way notices reach a user (the live stream, email, push). Each channel is told about a notice
/// inside the write transaction that records it, and about its withdrawal (a claim by someone
/// else, FR-52) inside the transaction that dismisses it; a channel that talks to the outside
/// world enqueues a durable job there (``JobQueue``) keyed by the notice's id, so a notice is
/// delivered once per channel however often the work that made it runs.
///
/// Only the channels the user chose (``NotificationPreferences/channels``) are told.
public protocol NotificationChannel: Sendable {
    /// Which preference selects this channel.
    var kind: NotificationChannelKind { get }

    /// Delivers `notice`, or enqueues its delivery, in the caller's write transaction.
    /// Idempotent by ``Notice/id``.
    func deliver(_ notice: Notice, in database: Database) throws

    /// Withdraws `notice` (delivered earlier) from the user's devices: a dismissal naming its
    /// ``Notice/tag``. Idempotent by ``Notice/id``.
    func withdraw(_ notice: Notice, in database: Database) throws
}

/// The channels a user may choose in their notification preferences.
public enum NotificationChannelKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The `notifications` subscription, to every connected client of theirs.
    case live
    /// Email to their confirmed address, through the mail outbox.
    case email
    /// Push to their registered devices (Web Push, FCM).
    case push
}
