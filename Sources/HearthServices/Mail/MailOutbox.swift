import FoundationEssentials
import HearthStore
import SMTP

/// The durable queue of outgoing email (table `mail_outbox`, migration 0004).
///
/// Services enqueue inside their own write transaction, so a change and the email about it
/// commit together or not at all; the ``MailDeliveryWorker`` is woken once the transaction
/// commits and delivers in the background, retrying transient failures:
///
/// ```swift
/// try await pool.write { db in
///     try db.execute("INSERT INTO accounts …", […])
///     try outbox.enqueue(OutgoingMail(recipients: [email], subject: "Confirm your address", text: …, html: …), in: db)
/// }
/// ```
///
/// **Links are not stored.** A message whose bodies carry a link's token (``OutgoingMail/link``)
/// is stored with ``tokenPlaceholder`` where the token was and a reference to the token
/// (`link_kind`, `link_id`: its kind and id, useless without the link key); the
/// ``MailDeliveryWorker`` derives the token again with the key and puts it back into the
/// message it hands the transport. So no page of the database, and no frame of its
/// write-ahead log, ever holds a link someone could follow. Only the development transport,
/// whose point is to show mail to a developer (`hearth mail show`), keeps the tokens in the
/// bodies (``keepsLinkTokens``); `hearth serve` warns about it at start.
public struct MailOutbox: Sendable {
    /// Stands where a link's token goes in a stored body (a query value no token can equal,
    /// which HTML escaping leaves as it is).
    public static let tokenPlaceholder = "{token-withheld}"

    /// The database holding the outbox.
    public let pool: DatabasePool
    /// The domain of generated `Message-ID`s, e.g. the sender address's domain.
    public let messageIDDomain: String
    /// Whether stored bodies keep their links' tokens: only for the development transport.
    public let keepsLinkTokens: Bool
    /// Wakes the delivery worker after a commit that enqueued mail.
    let signal = OutboxSignal()
    private let now: @Sendable () -> Date

    /// An outbox in `pool`'s database.
    /// - Parameters:
    ///   - keepsLinkTokens: Whether stored bodies keep their links' tokens, so `hearth mail
    ///     show` can show a working link: true only for the development transport.
    ///   - now: The clock stamping messages; tests may move it.
    public init(
        pool: DatabasePool, messageIDDomain: String, keepsLinkTokens: Bool = false, now: @escaping @Sendable () -> Date = Date.init
    ) {
        self.pool = pool
        self.messageIDDomain = messageIDDomain
        self.keepsLinkTokens = keepsLinkTokens
        self.now = now
    }

    /// Adds `mail` to the outbox inside the caller's write transaction and arranges for the
    /// delivery worker to be woken once that transaction commits (nothing is sent if it
    /// rolls back).
    ///
    /// - Parameter database: the connection of a write transaction of ``pool``.
    /// - Returns: the message's outbox id (for `hearth mail show ID`).
    /// - Throws: `MessageError` when a recipient is not a usable address or the subject has
    ///   a line break; ``StoreError`` when the insert fails.
    @discardableResult
    public func enqueue(_ mail: OutgoingMail, in database: Database) throws -> Int64 {
        guard !mail.recipients.isEmpty else { throw MessageError(code: .noRecipient, message: "a message needs at least one recipient") }
        // The composer's own checks, so bad input fails the caller now, not the worker later.
        for recipient in mail.recipients { _ = try MailAddress(recipient) }
        try MailMessage.validate(subject: mail.subject)
        let recipients = String(decoding: try JSONEncoder().encode(mail.recipients), as: UTF8.self)
        let createdAt = now()
        let withheld = keepsLinkTokens ? nil : mail.link
        let text = withheld.map { mail.text.replacing($0.value, with: Self.tokenPlaceholder) } ?? mail.text
        let html = withheld.map { token in mail.html?.replacing(token.value, with: Self.tokenPlaceholder) } ?? mail.html
        try database.execute(
            """
            INSERT INTO mail_outbox (message_id, recipients, subject, text_body, html_body, created_at, next_attempt_at, link_kind, link_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [MailMessage.makeMessageID(domain: messageIDDomain), recipients, mail.subject, text, html, createdAt, createdAt,
             withheld?.kind.rawValue, withheld?.id]
        )
        let id = database.lastInsertedRowID
        let signal = signal
        database.afterCommit { signal.signal() }
        return id
    }

    /// The newest messages first, at most `limit`.
    public func messages(limit: Int) throws -> [OutboxMessage] {
        try pool.read { database in try Self.messages(limit: limit, in: database) }
    }

    /// The message with `id`, or nil.
    public func message(id: Int64) throws -> OutboxMessage? {
        try pool.read { database in try Self.message(id: id, in: database) }
    }

    /// ``messages(limit:)`` through an open connection (`hearth mail list`).
    public static func messages(limit: Int, in database: Database) throws -> [OutboxMessage] {
        try database.decode(OutboxMessage.self, "SELECT * FROM mail_outbox ORDER BY id DESC LIMIT ?", [limit])
    }

    /// ``message(id:)`` through an open connection (`hearth mail show`).
    public static func message(id: Int64, in database: Database) throws -> OutboxMessage? {
        try database.decodeOne(OutboxMessage.self, "SELECT * FROM mail_outbox WHERE id = ?", [id])
    }

    // MARK: For the delivery worker

    /// Pending messages due at `date`, earliest first.
    func dueMessages(at date: Date, limit: Int) throws -> [OutboxMessage] {
        try pool.read { database in
            try database.decode(
                OutboxMessage.self,
                "SELECT * FROM mail_outbox WHERE status = 'pending' AND next_attempt_at <= ? ORDER BY next_attempt_at, id LIMIT ?",
                [date, limit])
        }
    }

    /// When the earliest pending message is due, or nil when none is pending.
    func nextDueDate() throws -> Date? {
        try pool.read { database in
            try database.scalar(Date.self, "SELECT min(next_attempt_at) FROM mail_outbox WHERE status = 'pending'")
        }
    }

    /// Records a delivery.
    func markSent(_ id: Int64, transport: String) throws {
        try pool.write { database in
            try database.execute(
                "UPDATE mail_outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?, transport = ?, last_error = NULL WHERE id = ?",
                [now(), transport, id])
        }
    }

    /// Records a failed attempt: the message is retried at `retryAt`, or marked failed when nil.
    func markFailed(_ id: Int64, error: String, retryAt: Date?) throws {
        try pool.write { database in
            if let retryAt {
                try database.execute(
                    "UPDATE mail_outbox SET attempts = attempts + 1, last_error = ?, next_attempt_at = ? WHERE id = ?",
                    [error, retryAt, id])
            } else {
                try database.execute(
                    "UPDATE mail_outbox SET status = 'failed', attempts = attempts + 1, last_error = ? WHERE id = ?", [error, id])
            }
        }
    }

    /// The current time of the outbox's clock.
    func currentDate() -> Date { now() }
}
