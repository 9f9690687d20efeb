import FoundationEssentials
import HearthStore

/// The email channel: a notice becomes a message in the mail outbox (delivered by its own durable
/// job), to the user's address once confirmed; nothing for an unconfirmed one. Idempotent: it is
/// told once per notice (``Notifier``), in the transaction that records the notice. A withdrawal
/// sends nothing: mail cannot be taken back.
public struct EmailNotificationChannel: NotificationChannel {
    /// Where messages go.
    public let outbox: MailOutbox

    /// The email channel over `outbox`.
    public init(outbox: MailOutbox) {
        self.outbox = outbox
    }

    public var kind: NotificationChannelKind { .email }

    public func deliver(_ notice: Notice, in database: Database) throws {
        guard let address = try database.scalar(
            String.self, "SELECT email FROM users WHERE id = ? AND email_confirmed_at IS NOT NULL", [notice.userID])
        else { return }
        var lines = [notice.body]
        if let dueAt = notice.dueAt { lines.append("Due: \(dueAt.formatted(.iso8601))") }
        if let link = notice.deepLink { lines.append("Open it in Hearth: \(link)") }
        try outbox.enqueue(OutgoingMail(recipients: [address], subject: notice.title, text: lines.joined(separator: "\n") + "\n"), in: database)
    }

    public func withdraw(_ notice: Notice, in database: Database) throws {}
}
