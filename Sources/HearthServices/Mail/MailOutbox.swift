import FoundationEssentials
import HearthStore
import SMTP

/// The durable queue of outgoing email (table `mail_outbox`, migration 0004).
///
/// Services enqueue inside their own write transaction, so a change and the email about it
/// commit together or not at all. Each message gets a `mail.deliver` job in the same
/// transaction; the ``JobScheduler`` is woken once it commits and ``MailDeliveryJob`` delivers
/// in the background, retrying transient failures:
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
/// ``MailDeliveryJob`` derives the token again with the key and puts it back into the
/// message it hands the transport. So no page of the database, and no frame of its
/// write-ahead log, ever holds a link someone could follow. Only the development transport,
/// whose point is to show mail to a developer (`hearth mail show`), keeps the tokens in the
/// bodies (``keepsLinkTokens``); `hearth serve` warns about it at start.
public struct MailOutbox: Sendable {
    /// Stands where a link's token goes in a stored body (a query value no token can equal,
    /// which HTML escaping leaves as it is).
    public static let tokenPlaceholder = "{token-withheld}"

    /// The store holding the outbox. Not public: mail is enqueued in the caller's transaction.
    var pool: any DatabaseWriter { jobs.pool }
    /// Where each message's delivery job goes.
    public let jobs: JobQueue
    /// The domain of generated `Message-ID`s, e.g. the sender address's domain.
    public let messageIDDomain: String
    /// Whether stored bodies keep their links' tokens: only for the development transport.
    public let keepsLinkTokens: Bool

    /// An outbox in the database of `jobs`, whose scheduler delivers it.
    /// - Parameters:
    ///   - keepsLinkTokens: Whether stored bodies keep their links' tokens, so `hearth mail
    ///     show` can show a working link: true only for the development transport.
    public init(jobs: JobQueue, messageIDDomain: String, keepsLinkTokens: Bool = false) {
        self.jobs = jobs
        self.messageIDDomain = messageIDDomain
        self.keepsLinkTokens = keepsLinkTokens
    }

    /// Adds `mail` to the outbox inside the caller's write transaction, with the job that
    /// delivers it (nothing is sent if the transaction rolls back).
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
        let createdAt = jobs.clock.now
        let withheld = keepsLinkTokens ? nil : mail.link
        let text = withheld.map { mail.text.replacing($0.value, with: Self.tokenPlaceholder) } ?? mail.text
        let html = withheld.map { token in mail.html?.replacing(token.value, with: Self.tokenPlaceholder) } ?? mail.html
        let id = try database.scalar(
            Int64.self,
            """
            INSERT INTO mail_outbox (message_id, recipients, subject, text_body, html_body, created_at, next_attempt_at, link_kind, link_id)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """,
            [MailMessage.makeMessageID(domain: messageIDDomain), recipients, mail.subject, text, html, createdAt, createdAt,
             withheld?.kind.rawValue, withheld?.id]
        )!
        try jobs.enqueue(
            kind: .mailDelivery, payload: MailDeliveryJob.Payload(outboxID: id), dueAt: createdAt, dedupeKey: String(id), in: database)
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

    // MARK: For the delivery job

    /// Records a delivery.
    func markSent(_ id: Int64, transport: String) throws {
        try pool.write { database in
            try database.execute(
                "UPDATE mail_outbox SET status = 'sent', attempts = attempts + 1, sent_at = ?, transport = ?, last_error = NULL WHERE id = ?",
                [jobs.clock.now, transport, id])
        }
    }

    /// Records a failed attempt inside the caller's transaction: the message is retried at
    /// `retryAt` (pending again, also after `hearth jobs retry` revived it), or marked failed
    /// when nil.
    static func markFailed(_ id: Int64, error: String, retryAt: Date?, in database: Database) throws {
        try database.execute(
            """
            UPDATE mail_outbox SET status = ?, attempts = attempts + 1, last_error = ?, next_attempt_at = coalesce(?, next_attempt_at)
            WHERE id = ?
            """,
            [retryAt == nil ? OutboxMessage.Status.failed.rawValue : OutboxMessage.Status.pending.rawValue, error, retryAt, id])
    }
}
