import FoundationEssentials

/// A row of the outbox (table `mail_outbox`, migration 0004): an email and its delivery state.
public struct OutboxMessage: Sendable, Hashable, Decodable {
    /// Where a message is in its life.
    public enum Status: String, Sendable, Hashable, Decodable {
        /// Waiting for its first or next attempt.
        case pending
        /// Accepted by the transport.
        case sent
        /// Given up: refused permanently, or out of attempts.
        case failed
    }

    /// The outbox's id of the message, increasing with enqueue order.
    public var id: Int64
    /// The `Message-ID` header (without angle brackets), the same on every attempt.
    public var messageID: String
    /// The recipients' addresses.
    public var recipients: [String]
    /// The subject.
    public var subject: String
    /// The plain-text body.
    public var text: String
    /// The HTML body, if any.
    public var html: String?
    /// When it was enqueued (also its `Date` header).
    public var createdAt: Date
    /// Where it is in its life.
    public var status: Status
    /// How many delivery attempts failed or succeeded so far.
    public var attempts: Int
    /// When the delivery job tries next (meaningful while pending).
    public var nextAttemptAt: Date
    /// Why the last attempt failed, if it did.
    public var lastError: String?
    /// When a transport accepted it.
    public var sentAt: Date?
    /// The transport that accepted it: `smtp`, or `log` for the development transport.
    public var transport: String?
    /// The kind of the link token the bodies leave out (``MailOutbox/tokenPlaceholder`` stands
    /// in its place), or nil when they leave none out.
    public var withheldLinkKind: LinkTokens.Kind?
    /// The id of that token, set with ``withheldLinkKind``.
    public var withheldLinkID: [UInt8]?

    enum CodingKeys: String, CodingKey {
        case id, subject, status, attempts, transport
        case messageID = "message_id", recipientsJSON = "recipients", text = "text_body", html = "html_body"
        case createdAt = "created_at", nextAttemptAt = "next_attempt_at", lastError = "last_error", sentAt = "sent_at"
        case withheldLinkKind = "link_kind", withheldLinkID = "link_id"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        messageID = try container.decode(String.self, forKey: .messageID)
        recipients = try JSONDecoder().decode([String].self, from: Data(try container.decode(String.self, forKey: .recipientsJSON).utf8))
        subject = try container.decode(String.self, forKey: .subject)
        text = try container.decode(String.self, forKey: .text)
        html = try container.decodeIfPresent(String.self, forKey: .html)
        createdAt = try container.decode(Date.self, forKey: .createdAt)
        status = try container.decode(Status.self, forKey: .status)
        attempts = try container.decode(Int.self, forKey: .attempts)
        nextAttemptAt = try container.decode(Date.self, forKey: .nextAttemptAt)
        lastError = try container.decodeIfPresent(String.self, forKey: .lastError)
        sentAt = try container.decodeIfPresent(Date.self, forKey: .sentAt)
        transport = try container.decodeIfPresent(String.self, forKey: .transport)
        withheldLinkKind = try container.decodeIfPresent(String.self, forKey: .withheldLinkKind).map { kind in
            guard let known = LinkTokens.Kind(rawValue: kind) else {
                throw DecodingError.dataCorruptedError(forKey: .withheldLinkKind, in: container, debugDescription: "unknown link kind '\(kind)'")
            }
            return known
        }
        withheldLinkID = try container.decodeIfPresent([UInt8].self, forKey: .withheldLinkID)
    }

    /// The message as it is sent: the withheld link's token, derived with `links`, in place of
    /// ``MailOutbox/tokenPlaceholder``.
    public func withLinkToken(from links: LinkTokens) -> OutboxMessage {
        guard let kind = withheldLinkKind, let id = withheldLinkID else { return self }
        let token = links.token(kind, id: id).value
        var message = self
        message.text = text.replacing(MailOutbox.tokenPlaceholder, with: token)
        message.html = html?.replacing(MailOutbox.tokenPlaceholder, with: token)
        message.withheldLinkKind = nil
        message.withheldLinkID = nil
        return message
    }
}
