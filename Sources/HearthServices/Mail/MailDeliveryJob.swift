import FoundationEssentials
import HearthStore
import Support

extension JobKind {
    /// Delivers one message of the mail outbox (``MailDeliveryJob``).
    public static let mailDelivery: JobKind = "mail.deliver"
}

/// Delivers the outbox, one job per message: ``MailOutbox/enqueue(_:in:)`` enqueues a
/// `mail.deliver` job with the message, and this handler hands the message to a
/// ``MailTransport`` when the job runs. Transient failures are retried by the scheduler with
/// exponential backoff and jitter until its attempts run out; a permanent failure, or the last
/// attempt's, marks the message failed. The outbox row mirrors the job (attempts, last error,
/// next attempt) so `hearth mail` tells the whole story.
///
/// The transport is handed each message with its link's token in place (see ``MailOutbox``):
/// the handler derives it with the link key just before the attempt and never writes it back.
///
/// Idempotent: a message already marked sent is not sent again. Delivery is at least once, not
/// exactly once: a worker that dies between the transport's acceptance and the outbox update
/// leaves the message unmarked, and the job's next run sends it again, with the same
/// `Message-ID` (receivers use it to drop the copy).
public struct MailDeliveryJob: JobHandler {
    /// The job's input: which outbox message to deliver.
    public struct Payload: Codable, Sendable, Hashable {
        /// The message's outbox id.
        public var outboxID: Int64

        /// The payload of message `outboxID`.
        public init(outboxID: Int64) {
            self.outboxID = outboxID
        }
    }

    private let outbox: MailOutbox
    private let transport: any MailTransport
    private let links: LinkTokens
    private let logger: Logger

    /// A handler delivering `outbox` through `transport`.
    /// - Parameter links: The link key's tokens, to put each withheld link back into its message.
    public init(outbox: MailOutbox, transport: any MailTransport, links: LinkTokens, logger: Logger) {
        self.outbox = outbox
        self.transport = transport
        self.links = links
        self.logger = logger
    }

    public var kind: JobKind { .mailDelivery }

    /// Sends the job's message unless it is gone (pruned) or already sent.
    /// - Throws: ``JobFailure`` carrying the transport's verdict.
    public func run(_ job: Job) throws {
        let id = try job.decodePayload(Payload.self).outboxID
        guard let message = try outbox.message(id: id), message.status != .sent else { return }
        do {
            try transport.deliver(message.withLinkToken(from: links))
        } catch {
            throw JobFailure(error.code == .transient ? .transient : .permanent, error.message)
        }
        try outbox.markSent(id, transport: transport.name)
        logger.info("mail delivered", ["mail.id": String(id), "mail.attempt": String(job.attempts), "mail.transport": transport.name])
    }

    /// Mirrors the failed attempt in the outbox row: pending until `retryAt`, or failed.
    public func recordFailure(of job: Job, _ failure: JobFailure, retryAt: Date?, in database: Database) throws {
        let id = try job.decodePayload(Payload.self).outboxID
        try MailOutbox.markFailed(id, error: failure.message, retryAt: retryAt, in: database)
    }
}
